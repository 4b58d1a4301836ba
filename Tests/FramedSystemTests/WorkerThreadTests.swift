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
