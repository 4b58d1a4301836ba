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
        // A deep recursion fits the stack asked for.
        @Sendable func depth(_ n: Int) -> Int { n == 0 ? 0 : 1 + depth(n - 1) + (n & 0) }
        #expect(try WorkerThread.run(stackSize: 64 << 20, seconds: 30) { depth(150_000) } == 150_000)
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
}
