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

    /// Starts `body` on a new thread, to be joined; with `stackSize`, its stack has that many
    /// bytes (only the pages it touches take memory), else the system's default.
    package init(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) throws(StartError) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        let status = pthread_create(&thread, &attributes, { context in
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

    /// Runs `body` on a new thread (`stackSize` as for `init`) and waits for it at most
    /// `seconds`: its result, or nil when the time ran out. The thread then goes on alone,
    /// detached, until `body` returns, and whatever `body` holds (and the result it makes) lives
    /// until then: give it only what it may keep. For a library call that cannot be stopped.
    package static func run<T: Sendable>(stackSize: Int? = nil, seconds: Double,
                                          _ body: @escaping @Sendable () -> T) throws(StartError) -> T? {
        let outcome = Outcome<T>()
        let worker = try WorkerThread(stackSize: stackSize) { outcome.deliver(body()) }
        if let result = outcome.wait(seconds: seconds) {
            worker.join()
            return result
        }
        pthread_detach(worker.thread)
        return nil
    }

    /// A result that one thread delivers and another waits for, with a deadline
    /// (`pthread_cond_timedwait` on the monotonic clock; ThreadSanitizer sees these waits).
    /// The mutex and condition live in memory of their own, which never moves.
    private final class Outcome<T>: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var value: T?

        init() {
            pthread_mutex_init(mutex, nil)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
        }

        func deliver(_ result: T) {
            pthread_mutex_lock(mutex)
            value = result
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }

        /// The result, or nil when `seconds` pass first.
        func wait(seconds: Double) -> T? {
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let whole = min(max(0, seconds), 1e9).rounded(.down)
            deadline.tv_sec += Int(whole)
            deadline.tv_nsec += Int((min(max(0, seconds), 1e9) - whole) * 1e9)
            if deadline.tv_nsec >= 1_000_000_000 { deadline.tv_sec += 1; deadline.tv_nsec -= 1_000_000_000 }
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            while value == nil {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            }
            return value
        }
    }

    /// The closure, boxed to cross `pthread_create` as one pointer.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
