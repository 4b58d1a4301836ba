import Dispatch
import Framed
import FramedSystem
import Synchronization

/// What happened to one picture.
struct JobResult: Sendable {
    /// Warnings, in order.
    var warnings: [String] = []
    /// The error, if the picture failed: its message and whether it is a usage error (exit 2
    /// when it is the only picture).
    var error: String?
    var usageError = false
    /// `--dry-run`: the geometry.
    var layout: JSON?
    /// `--pages`: the picture ready to draw.
    var prepared: PreparedPicture?

    var failed: Bool { error != nil }
}

/// Runs a batch: pictures on `jobs` workers at once, messages in input order.
enum BatchRunner {
    /// Shared between the workers and the thread that reports: the progress under a lock, and a
    /// semaphore that wakes the reporter when a worker has news.
    final class State: Sendable {
        struct Progress {
            var next = 0
            /// Results not yet taken by the reporter, by job index.
            var results: [JobResult?]
            var finished = 0
            var failed = 0
            var stop = false
            var workersDone = 0
        }
        let progress: Mutex<Progress>
        let wake = DispatchSemaphore(value: 0)
        init(count: Int) { progress = Mutex(Progress(results: Array(repeating: nil, count: count))) }
    }

    /// How many pictures are framed at once, and on how many threads each: `-j N` (default:
    /// one per core) uses at most N cores, as `make -j` runs at most N jobs. Workers take one
    /// picture each; cores that no worker needs (fewer pictures than N) are shared out, so one
    /// picture alone has every core N allows, and `-j 1` keeps to one.
    static func shares(jobs: Int?, pictures: Int, cores: Int) -> (workers: Int, threadsEach: Int) {
        let allowed = max(1, jobs ?? cores)
        let workers = max(1, min(allowed, pictures))
        return (workers, max(1, min(allowed, cores) / workers))
    }

    static func run(_ plan: BatchPlan, settings: Settings) throws -> Int32 {
        let jobs = plan.jobs
        let console = Console(total: jobs.count, quiet: settings.quiet || settings.dryRun)
        if case let .file(path)? = plan.pagesOutput, !settings.overwrite, !settings.dryRun, FileSystem.exists(path) {
            throw FileError(path: path, reason: "exists; add --overwrite (-f) to replace it")
        }
        var stdin: [UInt8] = []
        if jobs.contains(where: { $0.input == "-" }) {
            do { stdin = try FileDescriptor.standardInput.readToEnd() } catch {
                throw FileError(path: "standard input", reason: "cannot read (\(error))")
            }
        }
        if !settings.dryRun {
            TemporaryFiles.shared.removeOnInterrupt()
            for folder in plan.folders where !FileSystem.isDirectory(folder) {
                do { try FileSystem.createDirectory(folder) } catch {
                    throw FileError(path: folder, reason: "cannot create the folder")
                }
            }
        }

        let state = State(count: jobs.count)
        let (workerCount, threadsEach) = Self.shares(jobs: settings.jobs, pictures: jobs.count,
                                                     cores: Resampler.processorCount)
        let context = JobContext(settings: settings, stdin: stdin, threads: threadsEach)
        /// One worker: the next job, until none is left or `--fail-fast` stopped the batch.
        let work: @Sendable () -> Void = {
            while true {
                let next: Int? = state.progress.withLock { progress in
                    guard !progress.stop, progress.next < jobs.count else {
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
                let result = context.run(jobs[index])
                state.progress.withLock { progress in
                    progress.results[index] = result
                    progress.finished += 1
                    if result.failed {
                        progress.failed += 1
                        if settings.failFast { progress.stop = true }
                    }
                }
                state.wake.signal()
            }
        }
        // Joined before returning (see `WorkerThread`), also when reporting throws.
        var threads: [WorkerThread] = []
        defer { for thread in threads { thread.join() } }
        for _ in 0..<workerCount {
            do {
                threads.append(try WorkerThread(work))
            } catch {
                // A thread the system refuses: the workers already started share the jobs.
                if threads.isEmpty { throw error }
                break
            }
        }
        let workers = threads.count

        // Report in input order as results come in.
        var reported = 0, finished = 0, failed = 0, framed = 0
        var layouts: [JSON] = []
        var prepared: [PreparedPicture] = []
        var firstError: JobResult?
        while true {
            _ = state.wake.wait(timeout: .now() + .milliseconds(200))
            // Take the results that are next in input order out of the shared state (no copy of
            // the whole list under the lock, which the workers also take).
            var ready: [JobResult] = []
            let allDone = state.progress.withLock { progress in
                var index = reported
                while index < jobs.count, let result = progress.results[index] {
                    ready.append(result)
                    progress.results[index] = nil
                    index += 1
                }
                finished = progress.finished
                failed = progress.failed
                return progress.workersDone == workers
            }
            for result in ready {
                for warning in result.warnings { console.report("warning: " + warning) }
                if let error = result.error {
                    console.report(error)
                    if firstError == nil { firstError = result }
                } else {
                    framed += 1
                    if let layout = result.layout { layouts.append(layout) }
                    if let picture = result.prepared { prepared.append(picture) }
                }
                reported += 1
            }
            console.progress(done: finished, failed: failed)
            if allDone && reported == finished { break }
        }
        let skipped = jobs.count - finished

        if settings.dryRun {
            if !layouts.isEmpty {
                let json = jobs.count == 1 && !settings.pages ? layouts[0] : .array(layouts)
                try writeOut(Array((json.text() + "\n").utf8), to: .stdout)
            }
        } else if let destination = plan.pagesOutput {
            if failed == 0 && skipped == 0 {
                let bytes: [UInt8]
                do { bytes = try context.framer.document(prepared, label: destination.text ?? "-") } catch {
                    throw FileError(path: destination.text ?? "-", reason: error.problem.description)
                }
                try writeOut(bytes, to: destination)
            } else {
                console.report("\(destination.text ?? "-"): not written: \(failed + skipped) of \(jobs.count) pages could not be made")
            }
        }
        console.finish()

        if jobs.count >= 2 && !settings.quiet && !settings.dryRun {
            var summary = "framed \(framed) of \(jobs.count) pictures"
            if failed == 0 && skipped == 0 { summary = "framed \(jobs.count) pictures" }
            if let destination = plan.pagesOutput?.text, failed == 0 && skipped == 0 {
                summary += " into \(jobs.count) pages of \(destination)"
            }
            summary += String(printf: " in %.1f s", console.elapsed)
            if failed > 0 { summary += ", \(failed) failed" }
            if skipped > 0 { summary += ", \(skipped) skipped (--fail-fast)" }
            console.report(summary)
        }
        if let firstError {
            return jobs.count == 1 && firstError.usageError ? 2 : 1
        }
        return skipped > 0 ? 1 : 0
    }

    /// Writes bytes to a file (atomically) or to standard output.
    static func writeOut(_ bytes: [UInt8], to destination: Destination) throws {
        switch destination {
        case let .file(path):
            do { try OutputFile.write(bytes, to: path) } catch {
                throw FileError(path: error.path, reason: "cannot write: \(error.reason)")
            }
        case .stdout:
            do { try FileDescriptor.standardOutput.write(bytes) } catch {
                throw FileError(path: "standard output", reason: "cannot write: \(error)")
            }
        case .none: break
        }
    }
}

