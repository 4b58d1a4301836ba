import Dispatch
import FramedSystem
import Synchronization

/// Runs jobs on worker threads of their own and hands their results back to the calling thread
/// in job order, as they come in: the pool half of a batch (the reporter is `BatchReport`).
struct WorkerPool<Result: Sendable> {
    /// Shared between the workers and the calling thread: the progress under a lock, and a
    /// semaphore that wakes the caller when a worker has news.
    private final class State: Sendable {
        struct Progress {
            var next = 0
            /// Results not yet taken by the caller, by job index.
            var results: [Result?]
            var finished = 0
            var failed = 0
            var stop = false
            var workersDone = 0
        }
        let progress: Mutex<Progress>
        let wake = DispatchSemaphore(value: 0)
        init(count: Int) { progress = Mutex(Progress(results: Array(repeating: nil, count: count))) }
    }

    /// How many jobs there are (numbered from 0).
    var count: Int
    /// How many workers to start (fewer when the system refuses threads, at least one).
    var workers: Int
    /// Whether a result is a failure (counted, and with `stopAtFailure` no job starts after it).
    var failed: @Sendable (Result) -> Bool
    var stopAtFailure: Bool

    /// Runs `job` for every index on the workers. On the calling thread, `deliver` gets each
    /// result in index order as soon as it and those before it are in, and `progress` the number
    /// finished and failed so far (at least every 200 ms). Returns how many jobs finished; the
    /// others were never started (`stopAtFailure`). The workers are joined before it returns.
    func run(_ job: @escaping @Sendable (Int) -> Result, deliver: (Result) throws -> Void,
             progress: (_ finished: Int, _ failed: Int) -> Void) throws -> Int {
        let state = State(count: count)
        let count = self.count, failed = self.failed, stopAtFailure = self.stopAtFailure
        /// One worker: the next job, until none is left or a failure stopped the batch.
        let work: @Sendable () -> Void = {
            while true {
                let next: Int? = state.progress.withLock { progress in
                    guard !progress.stop, progress.next < count else {
                        progress.workersDone += 1
                        return nil
                    }
                    progress.next += 1
                    return progress.next - 1
                }
                guard let index = next else {
                    state.wake.signal()
                    return
                }
                let result = job(index)
                state.progress.withLock { progress in
                    progress.results[index] = result
                    progress.finished += 1
                    if failed(result) {
                        progress.failed += 1
                        if stopAtFailure { progress.stop = true }
                    }
                }
                state.wake.signal()
            }
        }
        // Joined before returning (see `WorkerThread`), also when delivering throws.
        var threads: [WorkerThread] = []
        defer { for thread in threads { thread.join() } }
        for _ in 0..<workers {
            do {
                threads.append(try WorkerThread(work))
            } catch {
                // A thread the system refuses: the workers already started share the jobs.
                if threads.isEmpty { throw error }
                break
            }
        }
        let started = threads.count

        var delivered = 0, finished = 0
        while true {
            _ = state.wake.wait(timeout: .now() + .milliseconds(200))
            // Take the results that are next in order out of the shared state (no copy of the
            // whole list under the lock, which the workers also take).
            var ready: [Result] = []
            var failures = 0
            let allDone = state.progress.withLock { progress in
                var index = delivered
                while index < count, let result = progress.results[index] {
                    ready.append(result)
                    progress.results[index] = nil
                    index += 1
                }
                finished = progress.finished
                failures = progress.failed
                return progress.workersDone == started
            }
            for result in ready {
                try deliver(result)
                delivered += 1
            }
            progress(finished, failures)
            if allDone && delivered == finished { return finished }
        }
    }
}
