import Foundation

/// How a command the tests ran ended, and what it printed.
package struct ToolResult: Sendable {
    package var status: Int32
    package var stdout: Data
    package var stderr: String

    /// Standard output as text.
    package var output: String { String(decoding: stdout, as: UTF8.self) }
}

/// Running the tools the tests judge with (rsvg-convert, pdftoppm, ImageMagick, ...) and the
/// built `framed` itself: one place for `Process`, shared by every test target.
package enum Tool {
    /// Runs `tool`, a path or a name looked up in PATH, with `arguments`; in `folder` when given;
    /// with `stdin` on its standard input (else /dev/null) and `environment` added to this
    /// process's, less the variables named in `removing`. Both outputs are read at the same
    /// time, so that neither pipe can fill up and stall the tool. Throws only when the tool
    /// cannot be started.
    @discardableResult
    package static func run(_ tool: String, _ arguments: [String] = [], in folder: URL? = nil, stdin: Data? = nil,
                           environment: [String: String] = [:], removing: [String] = []) throws -> ToolResult {
        if tool.hasPrefix("/") {
            return try run(URL(fileURLWithPath: tool), arguments, in: folder, stdin: stdin, environment: environment,
                           removing: removing)
        }
        return try run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments, in: folder, stdin: stdin,
                       environment: environment, removing: removing)
    }

    /// `run` for an executable given by its URL (the built `framed`).
    @discardableResult
    package static func run(_ executable: URL, _ arguments: [String] = [], in folder: URL? = nil, stdin: Data? = nil,
                           environment: [String: String] = [:], removing: [String] = []) throws -> ToolResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        if !environment.isEmpty || !removing.isEmpty {
            var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            for name in removing { merged[name] = nil }
            process.environment = merged
        }
        let input = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if let stdin {
            // A tool may exit without reading all of it (framed refuses some command lines
            // first): the write then fails with EPIPE instead of raising SIGPIPE, whose default
            // action would end the whole test process.
            signal(SIGPIPE, SIG_IGN)
            let handle = input.fileHandleForWriting
            Thread.detachNewThread {
                try? handle.write(contentsOf: stdin)
                try? handle.close()
            }
        }
        let errors = PipeReader(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolResult(status: process.terminationStatus, stdout: stdout,
                          stderr: String(decoding: errors.data(), as: UTF8.self))
    }

    /// Whether `name` is a command in PATH.
    package static func exists(_ name: String) -> Bool {
        (try? run("sh", ["-c", "command -v \(name)"]))?.status == 0
    }
}

/// Reads a pipe to its end on a thread of its own (a tool's stderr, while stdout is read).
package final class PipeReader: @unchecked Sendable {
    private var bytes = Data()
    private let done = DispatchSemaphore(value: 0)

    package init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            bytes = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything the pipe held, once it is closed.
    package func data() -> Data {
        done.wait()
        return bytes
    }

    /// `data()` as text.
    package func text() -> String { String(decoding: data(), as: UTF8.self) }
}

/// Fresh folders for a test's files.
package enum TemporaryFolder {
    /// A new empty folder `PREFIX-UUID` under the system's temporary folder.
    package static func make(_ prefix: String = "framed-tests") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)",
                                                                               isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
