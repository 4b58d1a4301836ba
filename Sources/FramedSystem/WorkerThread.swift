internal import Glibc

/// A thread of its own (POSIX threads: a batch worker blocks on decoding and writing, which
/// Dispatch's shared pool would count against the cores; a resize that follows a decode lowers
/// its thread's priority, which a pool thread would keep), and a way to wait for it.
///
/// A batch joins its workers before it returns: a worker that has said it is done can still be
/// exiting, holding the batch's state, when the process ends, and LeakSanitizer then reports
/// what it holds as leaked (an indirect enum's payload is a pointer tagged in its high bits,
/// which LSan cannot follow).
package final class WorkerThread {
    /// A thread the system would not start.
    package struct StartError: Error, CustomStringConvertible {
        package var reason: SystemError
        package var description: String { "cannot start a worker thread: \(reason)" }
    }

    private let thread: pthread_t

    /// Starts `body` on a new thread, to be joined.
    package init(_ body: @escaping @Sendable () -> Void) throws(StartError) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw StartError(reason: SystemError(code: status))
        }
        self.thread = thread
    }

    /// Waits until the thread has ended.
    package func join() { pthread_join(thread, nil) }

    /// Lowers the calling thread's priority as far as it goes (nice 19, `setpriority` with
    /// `PRIO_PROCESS` and 0, which on Linux is the calling thread alone), so that it runs on
    /// what the process's other threads leave of the cores. Without privilege a thread cannot
    /// raise it again: call it only on a thread of its own that ends with its work. Whether the
    /// system agreed (it may refuse, and the thread then runs as before).
    @discardableResult
    package static func lowerCallingThreadPriority() -> Bool {
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19) == 0
    }

    /// Runs `body` on a new thread that is never waited for (it ends with the process).
    package static func detach(_ body: @escaping @Sendable () -> Void) throws(StartError) {
        pthread_detach(try WorkerThread(body).thread)
    }

    /// The closure, boxed to cross `pthread_create` as one pointer.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
