internal import Glibc
import FramedSystem

/// A thread of its own (POSIX threads: a batch worker blocks on decoding and writing, which
/// Dispatch's shared pool would count against the cores), and a way to wait for it.
///
/// A batch joins its workers before it returns: a worker that has said it is done can still be
/// exiting, holding the batch's state, when the process ends, and LeakSanitizer then reports
/// what it holds as leaked (an indirect enum's payload is a pointer tagged in its high bits,
/// which LSan cannot follow).
final class WorkerThread {
    /// A thread the system would not start.
    struct StartError: Error, CustomStringConvertible {
        var reason: SystemError
        var description: String { "cannot start a worker thread: \(reason)" }
    }

    private let thread: pthread_t

    /// Starts `body` on a new thread, to be joined.
    init(_ body: @escaping @Sendable () -> Void) throws(StartError) {
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
    func join() { pthread_join(thread, nil) }

    /// Runs `body` on a new thread that is never waited for (it ends with the process).
    static func detach(_ body: @escaping @Sendable () -> Void) throws(StartError) {
        pthread_detach(try WorkerThread(body).thread)
    }

    /// The closure, boxed to cross `pthread_create` as one pointer.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
