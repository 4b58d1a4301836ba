@testable import FramedCLI
import Testing

/// `-j N` uses at most N cores: N workers at most, and the cores that no worker needs shared
/// among those there are (`BatchRunner.shares`).
@Suite struct WorkerSharesTests {
    @Test(arguments: [
        // jobs, pictures, cores -> workers, threads each
        (nil, 1, 2, 1, 2), (nil, 100, 2, 2, 1), (nil, 100, 8, 8, 1), (nil, 3, 8, 3, 2),
        (1, 1, 2, 1, 1), (1, 100, 2, 1, 1), (2, 1, 2, 1, 2), (2, 100, 2, 2, 1),
        (4, 100, 2, 4, 1), (4, 2, 8, 2, 2), (8, 3, 8, 3, 2), (16, 1, 8, 1, 8),
    ] as [(Int?, Int, Int, Int, Int)])
    func coresAreShared(jobs: Int?, pictures: Int, cores: Int, workers: Int, threads: Int) {
        let shares = BatchRunner.shares(jobs: jobs, pictures: pictures, cores: cores)
        #expect(shares.workers == workers && shares.threadsEach == threads)
    }
}
