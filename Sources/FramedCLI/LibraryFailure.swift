internal import Glibc
import Framed
import FramedSystem

/// The end framed makes when a C library meets an error it cannot hand back (GLib ends the
/// process on one; Pango meets one when a thread it needs cannot start or an allocation fails,
/// which under a memory limit happens inside any text drawing): one line on standard error, the
/// temporary files of the outputs in progress removed, exit 1. The outputs already written
/// stay; no half-written one is left.
enum LibraryFailure {
    /// From now on, for this process (`LibraryMessages.onFatalError`).
    static func endCleanly() {
        LibraryMessages.onFatalError { domain, message in
            LibraryFailure.end(domain: domain.map { String(cString: $0) } ?? "GLib",
                               message: message.map { String(cString: $0) } ?? "")
        }
    }

    /// The line for a library's fatal `message`: "out of memory" when it is one (a thread or an
    /// allocation the system refused), else the library's own words.
    static func line(domain: String, message: String) -> String {
        let memory = ["creating thread", "allocate", "Resource temporarily unavailable", "Cannot allocate memory"]
        let problem = memory.contains(where: { message.utf8.containsOccurrence(of: $0.utf8) }) ? "out of memory" : "a library failed"
        let words = message.count > 200 ? String(message.prefix(200)) + "…" : message
        return "framed: stopped: \(problem) (\(domain): \(words)); outputs not yet finished are not written\n"
    }

    private static func end(domain: String, message: String) -> Never {
        let bytes = Array(line(domain: domain, message: message).utf8)
        try? FileDescriptor.standardError.write(bytes)
        TemporaryFiles.shared.removeAll(thenExit: 1)
    }
}
