internal import Glibc
import FramedSystem

/// A thread of its own for one batch worker (POSIX threads: a worker blocks on decoding and
/// writing, which Dispatch's shared pool would count against the cores).
enum WorkerThread {
    /// A thread the system would not start.
    struct StartError: Error, CustomStringConvertible {
        var reason: SystemError
        var description: String { "cannot start a worker thread: \(reason)" }
    }

    /// Runs `body` on a new detached thread.
    static func detach(_ body: @escaping @Sendable () -> Void) throws(StartError) {
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
        pthread_detach(thread)
    }

    /// The closure, boxed to cross `pthread_create` as one pointer.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
