internal import Glibc

/// A program run as a child process with a deadline: for work in a library that can abort the
/// process (a Rust panic, GLib's `g_error`) or run on after its time, which no thread can stop.
/// Started with `posix_spawn` (never a bare `fork` of a threaded process), the child's standard
/// output and error read until it ends, and killed (`SIGKILL`) when the deadline passes: its
/// memory goes back to the system with it.
package enum ChildProcess {
    /// How the child ended.
    package enum Termination: Equatable, Sendable {
        /// It called `exit` with this status.
        case exited(Int32)
        /// A signal ended it (an abort, a segmentation fault, a kill from outside).
        case signalled(Int32)
        /// The deadline passed first: framed killed it.
        case timedOut
    }

    /// What the child wrote and how it ended.
    package struct Outcome: Sendable {
        package var termination: Termination
        /// Its standard output, up to the limit asked for.
        package var output: [UInt8]
        /// Its standard error, up to the limit asked for.
        package var errors: [UInt8]

        package init(termination: Termination, output: [UInt8], errors: [UInt8]) {
            self.termination = termination; self.output = output; self.errors = errors
        }
    }

    /// Runs `executable` with `arguments` (the first is the program's name as it sees it) and
    /// the parent's environment with `environment` added, its standard input on /dev/null and
    /// `descriptors` as its descriptors 3, 4...; every other descriptor of the parent is closed
    /// in the child (framed opens its own with `O_CLOEXEC`, libraries may not). Signals start
    /// at their defaults and unblocked in the child (the parent ignores SIGPIPE). Waits at most
    /// `seconds`, keeping the first `outputLimit` bytes of standard output and `errorLimit` of
    /// standard error (the rest is read and dropped, so that the child never blocks on a full
    /// pipe).
    package static func run(_ executable: String, arguments: [String], environment: [String: String] = [:],
                            descriptors: [Int32] = [], seconds: Double, outputLimit: Int = 1 << 20,
                            errorLimit: Int = 1 << 16) throws(SystemError) -> Outcome {
        let output = try Pipe(), errors = try Pipe()
        defer { output.close(); errors.close() }
        let pid = try spawn(executable, arguments: arguments, environment: environment,
                            standardOutput: output.write, standardError: errors.write, descriptors: descriptors)
        // The parent keeps only the reading ends: end of file when the child has gone.
        output.closeWrite(); errors.closeWrite()
        let deadline = Deadline(seconds: seconds)
        var streams = [Stream(descriptor: output.read, limit: outputLimit), Stream(descriptor: errors.read, limit: errorLimit)]
        var timedOut = false
        while streams.contains(where: { !$0.ended }) {
            var polled = streams.filter { !$0.ended }.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), deadline.remainingMilliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .last
            }
            if ready == 0 {
                timedOut = true
                break
            }
            for entry in polled where entry.revents != 0 {
                let index = streams.firstIndex { $0.descriptor == entry.fd }!
                streams[index].readAvailable()
            }
        }
        let termination = timedOut ? kill(pid) : wait(for: pid, until: deadline)
        return Outcome(termination: termination, output: streams[0].bytes, errors: streams[1].bytes)
    }

    /// `posix_spawn` of `executable` with the child's descriptors arranged; its pid.
    private static func spawn(_ executable: String, arguments: [String], environment: [String: String],
                              standardOutput: Int32, standardError: Int32, descriptors: [Int32]) throws(SystemError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        // Through numbers above every source first, so that no move overwrites a descriptor
        // still to be moved (the one for 3 may be 4 today).
        let base = max((descriptors.max() ?? 2) + 1, Int32(3 + descriptors.count))
        for (index, descriptor) in descriptors.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, descriptor, base + Int32(index))
        }
        for index in descriptors.indices {
            posix_spawn_file_actions_adddup2(&actions, base + Int32(index), Int32(3 + index))
        }
        if let closeFrom = GNU.closeFrom { _ = closeFrom(&actions, Int32(3 + descriptors.count)) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var variables: [String] = []
        var index = 0
        while let entry = Glibc.environ[index] {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if environment[name] == nil { variables.append(text) }
            index += 1
        }
        variables += environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }

        let argv = arguments.map { SystemPath.bytes($0) }
        let envp = variables.map { Array($0.utf8) }
        var pid = pid_t()
        let status = withCStrings(argv) { argv in
            withCStrings(envp) { envp in
                SystemPath.withCString(executable) { posix_spawn(&pid, $0, &actions, &attributes, argv, envp) }
            }
        }
        guard status == 0 else { throw SystemError(code: status) }
        return pid
    }

    /// Calls `body` with a NULL-terminated array of C strings made of `strings`' bytes.
    private static func withCStrings<R>(_ strings: [[UInt8]], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { bytes in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { pointer[i] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        } + [nil]
        defer { for pointer in pointers { pointer?.deallocate() } }
        return body(pointers)
    }

    /// Kills the child and waits for it to go.
    private static func kill(_ pid: pid_t) -> Termination {
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return .timedOut
    }

    /// Waits for the child to end (it closed its output; it may still be exiting), killing it
    /// at the deadline.
    private static func wait(for pid: pid_t, until deadline: Deadline) -> Termination {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR { return .exited(-1) }
            if deadline.remainingMilliseconds == 0 { return kill(pid) }
            usleep(1000)
        }
        // WIFSIGNALED and WEXITSTATUS, which Swift does not import (they are macros).
        let signal = status & 0x7F
        if signal != 0 && signal != 0x7F { return .signalled(signal) }
        return .exited((status >> 8) & 0xFF)
    }

    /// A pipe whose ends are closed once.
    private final class Pipe {
        var read: Int32 = -1, write: Int32 = -1

        init() throws(SystemError) {
            var ends: [Int32] = [-1, -1]
            guard let pipe2 = GNU.pipe2, pipe2(&ends, O_CLOEXEC) == 0 else { throw .last }
            read = ends[0]; write = ends[1]
        }

        func closeWrite() {
            if write >= 0 { Glibc.close(write) }
            write = -1
        }

        func close() {
            closeWrite()
            if read >= 0 { Glibc.close(read) }
            read = -1
        }
    }

    /// One of the child's output streams, read as it comes.
    private struct Stream {
        let descriptor: Int32
        let limit: Int
        var bytes: [UInt8] = []
        var ended = false

        init(descriptor: Int32, limit: Int) { self.descriptor = descriptor; self.limit = limit }

        mutating func readAvailable() {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno != EINTR && errno != EAGAIN { ended = true }
                return
            }
            if count == 0 { ended = true; return }
            if bytes.count < limit { bytes += chunk[..<min(count, limit - bytes.count)] }
        }
    }

    /// A point in time on the monotonic clock.
    private struct Deadline {
        let end: Double

        init(seconds: Double) { end = Self.now + min(max(0, seconds), 1e9) }

        static var now: Double {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
        }

        /// What is left, in whole milliseconds rounded up, for `poll`; 0 once it has passed.
        var remainingMilliseconds: Int32 {
            let left = end - Self.now
            return left <= 0 ? 0 : Int32(min(Double(Int32.max), (left * 1000).rounded(.up)))
        }
    }
}

/// Memory that two processes see: an anonymous file (`memfd_create`) that a child is handed as
/// one of its descriptors, and each process maps. The child draws into it; the parent reads
/// what it drew without a copy through a pipe.
package final class SharedMemory: @unchecked Sendable {
    // @unchecked: the mapping is written by one process at a time, and the class only hands out
    // its address.

    /// The file's descriptor (close-on-exec: a child gets it only as `ChildProcess.run` hands it on).
    package let descriptor: Int32
    /// The size in bytes.
    package let count: Int
    /// Where it is mapped in this process.
    package let address: UnsafeMutableRawPointer

    /// A new zeroed region of `count` bytes, named `name` (shown in /proc, nowhere else).
    package init(count: Int, name: String) throws(SystemError) {
        guard count > 0 else { throw SystemError(code: EINVAL) }
        guard let memfdCreate = GNU.memfdCreate else { throw SystemError(code: ENOSYS) }
        let descriptor = memfdCreate(name, 1 /* MFD_CLOEXEC */)
        guard descriptor >= 0 else { throw .last }
        guard ftruncate(descriptor, off_t(count)) == 0 else {
            let error = SystemError.last
            Glibc.close(descriptor)
            throw error
        }
        guard let address = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), address != MAP_FAILED else {
            let error = SystemError.last
            Glibc.close(descriptor)
            throw error
        }
        self.address = address
        self.descriptor = descriptor
        self.count = count
    }

    /// The region a parent handed on as `descriptor`, `count` bytes of it (the file must be at
    /// least that large).
    package init(descriptor: Int32, count: Int) throws(SystemError) {
        var info = stat()
        guard count > 0, fstat(descriptor, &info) == 0, Int(info.st_size) >= count else {
            throw SystemError(code: EINVAL)
        }
        guard let address = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), address != MAP_FAILED else {
            throw .last
        }
        self.address = address
        self.descriptor = descriptor
        self.count = count
    }

    deinit {
        munmap(address, count)
        Glibc.close(descriptor)
    }
}

/// The C library's GNU functions that Swift's Glibc module leaves out, looked up at run time.
private enum GNU {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let pipe2: Pipe2? = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    static let memfdCreate: MemfdCreate? = dlsym(nil, "memfd_create").map { unsafeBitCast($0, to: MemfdCreate.self) }
    /// glibc 2.34 and later.
    static let closeFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }
}
