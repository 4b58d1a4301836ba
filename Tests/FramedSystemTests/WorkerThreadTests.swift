import FramedSystem
import Glibc
import Synchronization
import Testing

/// `WorkerThread`, which the resize that follows a decode runs on at the lowest priority: the
/// decoder's own threads must keep theirs.
@Suite struct WorkerThreadTests {
    /// The calling thread's nice value (`getpriority` with `PRIO_PROCESS` and 0).
    static func niceValue() -> Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }

    /// The calling thread's stack size in bytes (`pthread_getattr_np`, `pthread_attr_getstacksize`).
    /// Glibc's module leaves out the GNU extension; dlsym finds it in the C library.
    static func stackSize() -> Int {
        typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        guard let symbol = dlsym(nil, "pthread_getattr_np") else { return -2 }
        let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return -1 }
        defer { pthread_attr_destroy(&attributes) }
        var size = 0
        return pthread_attr_getstacksize(&attributes, &size) == 0 ? size : -1
    }

    @Test func lowersTheCallingThreadAlone() throws {
        let before = Self.niceValue()
        let seen = Mutex<(agreed: Bool, nice: Int32)?>(nil)
        let thread = try WorkerThread {
            let agreed = WorkerThread.lowerCallingThreadPriority()
            let nice = Self.niceValue()
            seen.withLock { $0 = (agreed, nice) }
        }
        thread.join()
        let (agreed, nice) = try #require(seen.withLock { $0 })
        #expect(agreed)
        #expect(nice == 19)
        // Linux keeps a nice value per thread: the thread that started it is as it was.
        #expect(Self.niceValue() == before)
    }

    /// `run`, which librsvg's loads and drawings go through: the result when the body ends in
    /// time, nil when it does not (the body then ends alone), and the stack size asked for.
    @Test func runWaitsAtMostTheTimeGiven() throws {
        #expect(try WorkerThread.run(stackSize: 8 << 20, seconds: 30) { 6 * 7 } == 42)
        let release = Atomic<Bool>(false), ended = Atomic<Bool>(false)
        let clock = ContinuousClock(), start = clock.now
        let late: Int? = try WorkerThread.run(seconds: 0.2) {
            while !release.load(ordering: .acquiring) { usleep(1000) }
            ended.store(true, ordering: .releasing)
            return 1
        }
        #expect(late == nil)
        #expect(clock.now - start < .seconds(10))
        release.store(true, ordering: .releasing)
        var waited = 0
        while !ended.load(ordering: .acquiring) && waited < 10_000 { usleep(1000); waited += 1 }
        let didEnd = ended.load(ordering: .acquiring)
        #expect(didEnd, "the body ran on alone and ended")
        // The thread has the stack asked for, as the system reports it (pthread_getattr_np), not
        // the default 8 MB. Asked, not probed with a deep recursion: ThreadSanitizer keeps a
        // shadow stack of 65,536 frames per thread and writes past it, unchecked, on a deeper one.
        #expect(try WorkerThread.run(stackSize: 64 << 20, seconds: 30) { Self.stackSize() } == 64 << 20)
        #expect(try WorkerThread.run(stackSize: 12 << 20, seconds: 30) { Self.stackSize() } == 12 << 20)
    }

    @Test func joinWaitsForTheBody() throws {
        let done = Atomic<Bool>(false)
        let thread = try WorkerThread {
            usleep(20_000)
            done.store(true, ordering: .releasing)
        }
        thread.join()
        let finished = done.load(ordering: .acquiring)
        #expect(finished)
    }

    /// `concurrentPerform` calls the body once for each index, on at most `threads` threads, and
    /// (with more than one index and thread) on threads of its own besides the calling one. Not
    /// timed: the first call waits until another thread has called the body, which happens
    /// however slowly the system starts threads, and only if the work is shared; it gives up
    /// after a minute, so that a broken sharing fails rather than hangs.
    @Test(arguments: [(0, 4), (1, 4), (7, 1), (7, 2), (2, 2), (64, 3)])
    func concurrentPerformCallsEachIndexOnce(_ iterations: Int, _ threads: Int) {
        // pthread mutexes, which ThreadSanitizer follows (it does not see Mutex's futex waits).
        let calls = PthreadLocked<[Int: Int]>([:])
        let threadIDs = PthreadLocked<Set<UInt>>([])
        let firstTaken = Atomic<Bool>(false)
        let shares = iterations > 1 && threads > 1
        WorkerThread.concurrentPerform(iterations: iterations, threads: threads) { index in
            calls.withLock { $0[index, default: 0] += 1 }
            threadIDs.withLock { _ = $0.insert(UInt(pthread_self())) }
            guard shares, firstTaken.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
            else { return }
            var waited = 0
            while threadIDs.withLock({ $0.count }) < 2 && waited < 60_000 { usleep(1000); waited += 1 }
        }
        let counts = calls.withLock { $0 }
        #expect(counts.keys.sorted() == Array(0..<iterations), "indices called: \(counts.keys.sorted())")
        #expect(counts.values.allSatisfy { $0 == 1 }, "each index once: \(counts)")
        let used = threadIDs.withLock { $0.count }
        #expect(used <= max(1, threads), "\(used) threads for at most \(threads)")
        if shares { #expect(used > 1, "the work was shared") }
    }
}

/// A value behind a `pthread_mutex_t`, for tests that ThreadSanitizer checks.
final class PthreadLocked<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}
