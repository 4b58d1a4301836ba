import Synchronization

extension WorkerThread {
    /// Calls `body` once for every index in `0..<iterations`, shared between the calling thread
    /// and up to `threads - 1` threads of its own, and returns when all are done: what
    /// `DispatchQueue.concurrentPerform` does, without Dispatch's pool. A thread the system will
    /// not start leaves its share to the others, down to the calling thread alone; Dispatch
    /// instead sleeps and tries again for as long as `pthread_create` fails, which in a process
    /// short of memory is for ever.
    package static func concurrentPerform(iterations: Int, threads: Int, _ body: (Int) -> Void) {
        guard iterations > 1, threads > 1 else {
            for index in 0..<iterations { body(index) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let work = SharedWork(iterations: iterations, body: body)
            var started: [WorkerThread] = []
            for _ in 1..<min(threads, iterations) {
                guard let thread = try? WorkerThread({ work.run() }) else { break }
                started.append(thread)
            }
            work.run()
            for thread in started { thread.join() }
        }
    }
}

/// The next index to take, and what to do with it. `body` is called from several threads at
/// once and outlives none of them (every thread is joined before `concurrentPerform` returns),
/// hence `@unchecked Sendable`.
private final class SharedWork: @unchecked Sendable {
    let iterations: Int
    let body: (Int) -> Void
    let next = Atomic<Int>(0)

    init(iterations: Int, body: @escaping (Int) -> Void) {
        self.iterations = iterations
        self.body = body
    }

    func run() {
        while true {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < iterations else { return }
            body(index)
        }
    }
}
