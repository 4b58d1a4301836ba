import Foundation
import FramedTestSupport
import FramedRaster
import Testing

/// Issue 7 at the command line: option values out of range and outputs too large to render are
/// usage errors (exit 2, one line, nothing written, decided before decoding); decompression
/// bombs are refused from the header; and no failure to write (a full disk, a file size limit,
/// a device, permissions) leaves a partial or temporary file behind or harms an existing output.
/// Extends `CLITests` (its workspace, runner and checks).
@Suite struct HostileCLITests {
    /// Runs `executable` with `arguments` in `folder` (for `sh -c` and `setpriv`).
    static func run(_ executable: String, _ arguments: [String], in folder: URL) throws -> CLITests.Result {
        let r = try Tool.run(URL(fileURLWithPath: executable), arguments, in: folder)
        return CLITests.Result(status: r.status, stdout: r.output, stderr: r.stderr)
    }

    static var isRoot: Bool { getuid() == 0 }

    /// Temporary files would be named `.NAME.framed-XXXXXX`.
    static func expectNoTemporaryFiles(in folder: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".framed-") }
        #expect(left.isEmpty, "temporary files left: \(left)", sourceLocation: sourceLocation)
    }

    // MARK: Options out of range: exit 2 before anything is decoded

    @Test(arguments: [
        (["--dpi", "0"], ["--dpi", "not a positive number"]),
        (["--dpi", "1e9"], ["--dpi", "too large"]),
        (["--scale", "nan"], ["--scale"]),
        (["--shadow", "0 0 -1px"], ["--shadow", "must not be negative"]),
        (["--size", "20000x20000", "--scale", "2"], ["photo.jpg", "40060x40060", "32767 per side"]),
        (["--size", "100x20000", "--scale", "2"], ["photo.jpg", "260x40060", "32767 per side"]),
        (["--size", "20000x100", "--scale", "2"], ["photo.jpg", "40060x260", "32767 per side"]),
        (["--size", "30000x30000"], ["photo.jpg", "30030x30030", "over the limit of 256 megapixels (--max-pixels)"]),
        (["--size", "2000x2000", "--max-pixels", "1000000"], ["photo.jpg", "2030x2030", "over the limit of 1 megapixels"]),
        (["--size", "1e20x1e20", "--format", "svg"], ["photo.jpg", "1000000 pt per side"]),
        (["--margin", "1e300"], ["photo.jpg", "1000000 pt per side"]),
        (["--shadow", "0 0 1e30px", "--format", "pdf"], ["photo.jpg", "1000000 pt per side"]),
    ])
    func outOfRangeIsAUsageError(_ options: [String], _ words: [String]) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ContinuousClock(), start = clock.now
        let r = try CLITests.framed(["photo.jpg", "-o", "out.png"] + options, in: folder)
        CLITests.expectOneLineError(r, status: 2, mentioning: words)
        #expect(clock.now - start < .seconds(10), "refused from the header, without decoding or allocating")
        #expect(try CLITests.files(in: folder) == ["photo.jpg", "shot.png"], "nothing written")
    }

    // MARK: Decompression bombs

    /// `shot.png` with IHDR patched to claim `width` x `height`.
    static func pngClaiming(_ width: UInt32, _ height: UInt32, in folder: URL) throws -> [UInt8] {
        var bytes = Array(try Data(contentsOf: folder.appendingPathComponent("shot.png")))
        bytes.replaceSubrange(16..<24, with: PictureBytes.be32(width) + PictureBytes.be32(height))
        bytes.replaceSubrange(29..<33, with: PictureBytes.be32(PictureBytes.crc32(bytes[12..<29])))
        return bytes
    }

    @Test func decompressionBombsAreRefusedFromTheHeader() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(try Self.pngClaiming(100_000, 100_000, in: folder)).write(to: folder.appendingPathComponent("huge.png"))
        var r = try CLITests.framed(["huge.png", "-o", "out.png"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["huge.png", "100000x100000", "over the limit of 256 megapixels"])
        // Within --max-pixels, but a few kilobytes cannot inflate to a gigabyte.
        try Data(try Self.pngClaiming(16000, 16000, in: folder)).write(to: folder.appendingPathComponent("bomb.png"))
        r = try CLITests.framed(["bomb.png", "-o", "out.svg", "--size", "600x400"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["bomb.png", "cannot hold a 16000x16000 picture"])
        #expect(try CLITests.files(in: folder) == ["bomb.png", "huge.png", "photo.jpg", "shot.png"])
    }

    /// Issue 32: a HEIC or AVIF whose header claims 100000x100000 or 4294967295x4294967295 is
    /// over the limit, in framing and in `framed layout` alike, not "out of memory" (libheif's
    /// own limit, 32768 a side, called itself an allocation failure); and one whose ispe says
    /// 64x64 over a flat 2048x2048 picture is over `--max-pixels 10000` as 2048x2048, refused
    /// before the decoder runs: under `ulimit -v` 1 GB, in less memory than decoding it takes.
    @Test func aHEIFIsOverTheLimitForWhatItCodesEvenInLayout() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(PictureEncoder.png(RasterImage(width: 2048, height: 2048, pixels: [UInt8](repeating: 90, count: 2048 * 2048 * 4),
                                                hasAlpha: false), dropAlpha: true)).write(to: folder.appendingPathComponent("flat.png"))
        let encoded = try Self.run("/bin/sh", ["-c", "heif-enc -q 50 -o flat.heic flat.png && avifenc -s 10 flat.png flat.avif >/dev/null"],
                                   in: folder)
        try #require(encoded.status == 0, "heif-enc, avifenc: \(encoded.stdout)")
        for type in ["heic", "avif"] {
            let coded = try #require(HEIFBytes.coded(from: [UInt8](Data(contentsOf: folder.appendingPathComponent("flat.\(type)")))))
            for side in [100_000, 4_294_967_295] {
                let name = "claims-\(side).\(type)"
                try Data(HEIFBytes.single(coded, ispe: (side, side))).write(to: folder.appendingPathComponent(name))
                for arguments in [[name, "-o", "out.png"], ["layout", name]] {
                    let r = try CLITests.framed(arguments, in: folder)
                    CLITests.expectOneLineError(r, status: 1, mentioning: [name, "picture is \(side)x\(side) pixels, over the limit of 256 megapixels"])
                }
            }
            let name = "lies.\(type)"
            try Data(HEIFBytes.single(coded, ispe: (64, 64))).write(to: folder.appendingPathComponent(name))
            let r = try Self.run("/bin/sh", ["-c", "ulimit -v 1000000; /usr/bin/time -f '%M' \"$0\" \(name) -o out.png --max-pixels 10000 2>&1",
                                             CLITests.binary.path], in: folder)
            let lines = r.stdout.split(separator: "\n")
            #expect(lines.first == "framed: \(name): picture is 2048x2048 pixels, over the limit of 10000 pixels", "\(r.stdout)")
            // Decoding it takes libheif's planes and the RGBA copy: 2048 x 2048 x 4 is 16 MB alone.
            let kilobytes = Int(lines.last ?? "") ?? .max
            #expect(kilobytes < 40_000, "\(name): peak \(kilobytes) KB")
            // framed layout reads no pixels, and refuses the same file for the same size.
            let layout = try CLITests.framed(["layout", name, "--max-pixels", "10000"], in: folder)
            CLITests.expectOneLineError(layout, status: 1, mentioning: ["\(name): picture is 2048x2048 pixels, over the limit of 10000 pixels"])
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
    }

    // MARK: Writing fails: nothing partial, nothing temporary, the old output kept

    /// A device as output is written in place: renaming over it would replace the device node
    /// (as root, `-o /dev/full` used to turn /dev/full into a regular file). As root, a private
    /// node of /dev/full (root may write in /dev, and the test must not risk /dev/full itself);
    /// /dev/full otherwise. Neither missing is a reason to pass: it fails.
    @Test func aFullDeviceGivesAClearErrorAndStaysADevice() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var device = "/dev/full"
        if Self.isRoot {
            device = folder.appendingPathComponent("full").path
            let made = try Self.run("/bin/sh", ["-c", "mknod -m 666 full c 1 7 2>&1"], in: folder)
            try #require(made.status == 0, "root cannot make a device node here: \(made.stdout)")
        }
        try #require(FileManager.default.fileExists(atPath: device), "no \(device)")
        let r = try CLITests.framed(["photo.jpg", "-o", device, "--format", "png", "--overwrite"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: [device, "cannot write", "No space left on device"])
        var info = stat()
        #expect(stat(device, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "still a character device")
        try Self.expectNoTemporaryFiles(in: folder)
        try Self.expectNoTemporaryFiles(in: URL(fileURLWithPath: "/dev"))
    }

    /// Runs `body` with a workspace (`CLITests.workspace`) and its folder `disk`, a 64 KB tmpfs
    /// mounted for the test (root only; as root, a mount that fails fails the test).
    static func withSmallDisk(_ body: (_ folder: URL, _ disk: URL) throws -> Void) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mount = try Self.run("/bin/sh", ["-c", "mount -t tmpfs -o size=64k tmpfs disk 2>&1"], in: folder)
        try #require(mount.status == 0, "root cannot mount a tmpfs here: \(mount.stdout)")
        defer { _ = try? Self.run("/bin/umount", [disk.path], in: folder) }
        try body(folder, disk)
    }

    /// A file system that fills up while the output is written: a 64 KB tmpfs, which only root
    /// can mount (CI runs as root). The existing output is kept, nothing else is left.
    @Test(.enabled(if: getuid() == 0, "needs root (CI runs as root): mounts a 64 KB tmpfs"))
    func aFullDiskLeavesTheOldOutputAndNothingElseAsRoot() throws {
        try Self.withSmallDisk { folder, disk in
            try Data("keep me".utf8).write(to: disk.appendingPathComponent("out.png"))
            // About 1 MB of PNG: the photo at 4x with a shadow.
            let r = try CLITests.framed(["photo.jpg", "-o", "disk/out.png", "--scale", "4", "--overwrite"], in: folder)
            CLITests.expectOneLineError(r, status: 1, mentioning: ["disk/out.png", "cannot write", "No space left on device"])
            #expect(try difference(Data(contentsOf: disk.appendingPathComponent("out.png")), Data("keep me".utf8)) == nil)
            #expect(try CLITests.files(in: disk) == ["out.png"], "no partial or temporary file")
        }
    }

    /// `r` without its warnings: a 4x file of the 320x200 photo is enlarged, and says so.
    static func errorsOnly(_ r: CLITests.Result) -> CLITests.Result {
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("framed: warning: ") }
        return CLITests.Result(status: r.status, stdout: r.stdout, stderr: lines.joined(separator: "\n"))
    }

    /// A set (`--scale 0.25,0.5,4`) on a file system that fills up at its last file: written
    /// whole or not at all. New, none of its files is left; over an earlier set with `-f`, the
    /// earlier files stay as they were. With anonymous temporary files and named ones. Root only
    /// (it mounts a 64 KB tmpfs); `aSetPastAFileSizeLimitLeavesNothing` runs the same for anyone.
    @Test(.enabled(if: getuid() == 0, "needs root (CI runs as root): mounts a 64 KB tmpfs"), arguments: [false, true])
    func aSetOnAFullDiskIsWrittenWholeOrNotAtAllAsRoot(named: Bool) throws {
        try Self.withSmallDisk { folder, disk in
            let environment = named ? ["FRAMED_TEMPORARY_FILES": "named"] : [:]
            func framed(_ arguments: [String]) throws -> CLITests.Result {
                let r = try Tool.run(CLITests.binary, ["photo.jpg", "-o", "disk/out.png"] + arguments, in: folder,
                                     environment: environment)
                return Self.errorsOnly(CLITests.Result(status: r.status, stdout: r.output, stderr: r.stderr))
            }
            // The 4x file (about 1 MB) cannot fit; the two small ones could.
            var r = try framed(["--scale", "0.25,0.5,4"])
            CLITests.expectOneLineError(r, status: 1, mentioning: ["disk/out@4x.png", "cannot write", "No space left on device"])
            #expect(try CLITests.files(in: disk) == [], "no file of the set, nor a temporary one")
            r = try framed(["--scale", "0.25,0.5"])
            #expect(r.status == 0, "\(r.stderr)")
            let names = ["out@0.25x.png", "out@0.5x.png"]
            let earlier = try names.map { try Data(contentsOf: disk.appendingPathComponent($0)) }
            // Again with another border and the 4x: the earlier files would all be replaced.
            r = try framed(["--scale", "0.25,0.5,4", "--border", "3px", "--overwrite"])
            CLITests.expectOneLineError(r, status: 1, mentioning: ["disk/", "cannot write", "No space left on device"])
            #expect(try CLITests.files(in: disk) == names)
            for (name, bytes) in zip(names, earlier) {
                #expect(try Data(contentsOf: disk.appendingPathComponent(name)) == bytes, "\(name) as it was")
            }
        }
    }

    /// A set whose last file is over `ulimit -f`: none of its files is left, with anonymous
    /// temporary files and with named ones. Any user can run this one.
    @Test(arguments: [false, true])
    func aSetPastAFileSizeLimitLeavesNothing(named: Bool) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let variable = named ? "FRAMED_TEMPORARY_FILES=named " : ""
        // 64 blocks of 512 bytes: the 0.25x file fits, the 4x file (about 1 MB) does not.
        let command = "ulimit -f 64; \(variable)exec \"$0\" photo.jpg -o out.png --scale 0.25,4"
        let r = Self.errorsOnly(try Self.run("/bin/sh", ["-c", command, CLITests.binary.path], in: folder))
        CLITests.expectOneLineError(r, status: 1, mentioning: ["out@4x.png", "cannot write", "File too large"])
        #expect(try CLITests.files(in: folder) == ["photo.jpg", "shot.png"], "no file of the set, nor a temporary one")
    }

    /// `ulimit -f`: the write fails with EFBIG (framed ignores SIGXFSZ, which would kill it with
    /// the temporary file in place). Any user can run this one. With anonymous temporary files and
    /// with named ones (`FRAMED_TEMPORARY_FILES=named`, as where there is no `O_TMPFILE`), which
    /// must be removed.
    @Test(arguments: [false, true])
    func aFileSizeLimitLeavesTheOldOutputAndNothingElse(named: Bool) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("keep me".utf8).write(to: folder.appendingPathComponent("out.png"))
        let variable = named ? "FRAMED_TEMPORARY_FILES=named " : ""
        let command = "ulimit -f 16; \(variable)exec \"$0\" photo.jpg -o out.png --scale 4 --overwrite"  // 16 blocks of 512 bytes
        let r = try Self.run("/bin/sh", ["-c", command, CLITests.binary.path], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["out.png", "cannot write", "File too large"])
        #expect(try difference(Data(contentsOf: folder.appendingPathComponent("out.png")), Data("keep me".utf8)) == nil)
        #expect(try CLITests.files(in: folder) == ["out.png", "photo.jpg", "shot.png"])
    }

    // MARK: Interrupted while writing: Ctrl-C or kill

    /// SIGINT (Ctrl-C), SIGTERM or SIGHUP (a terminal closed) while a batch is being written:
    /// framed removes its temporary files and ends by the signal (a shell shows 130, 143 or
    /// 129); every output is its old content or a whole new file. Both kinds of temporary file:
    /// anonymous ones (seen as framed's open files in the folder, "(deleted)") and named ones
    /// (`FRAMED_TEMPORARY_FILES=named`, as on a file system without `O_TMPFILE`). framed is
    /// stopped (SIGSTOP) when a temporary file shows up, and signalled only if the file is still
    /// there while it is stopped, so that the signal always lands during a write; a batch that
    /// finishes first is run again twice as long. SIGKILL cannot be taken: anonymous files are
    /// what leaves nothing then (a named one stays, which is why they are the default).
    @Test(arguments: [(SIGINT, false), (SIGTERM, false), (SIGHUP, false), (SIGKILL, false), (SIGUSR1, false),
                      (SIGINT, true), (SIGTERM, true), (SIGHUP, true)])
    func anInterruptLeavesNoTemporaryOrPartialFile(_ signal: Int32, named: Bool) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A JPEG of noise (about 5 MB), embedded as it is in SVG: writing and syncing the output
        // is most of the work.
        let side = 2000
        let noise = try #require(FileHandle(forReadingAtPath: "/dev/urandom")).readData(ofLength: side * side * 4)
        try Data(PictureEncoder.jpeg(RasterImage(width: side, height: side, pixels: [UInt8](noise)), quality: 95))
            .write(to: folder.appendingPathComponent("noise.jpg"))
        let whole = try CLITests.framed(["noise.jpg", "-o", "whole.svg"], in: folder)
        #expect(whole.status == 0, "\(whole.stderr)")
        let complete = try Data(contentsOf: folder.appendingPathComponent("whole.svg"))
        let out = folder.appendingPathComponent("out")
        let old = Data("keep me".utf8)
        /// The temporary files in `out`: named ones, and those framed has open there.
        func temporaryFiles(of pid: Int32? = nil) throws -> [String] {
            let named = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.contains(".framed-") }
            guard let pid, let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else {
                return named
            }
            let open = descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
                .filter { $0.hasPrefix(out.resolvingSymlinksInPath().path + "/") && ($0.hasSuffix("(deleted)") || $0.contains(".framed-")) }
            return named + open
        }

        var pictures = 10
        for _ in 0..<4 {
            try? FileManager.default.removeItem(at: out)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let names = (1...pictures).map { String(format: "%0\(String(pictures).count)d.svg", $0) }
            for name in names { try old.write(to: out.appendingPathComponent(name)) }

            let process = Process()
            process.executableURL = CLITests.binary
            process.arguments = Array(repeating: "noise.jpg", count: pictures) + ["-o", "out/{index}.svg", "--overwrite", "-q", "-j", "2"]
            process.currentDirectoryURL = folder
            if named { process.environment = ProcessInfo.processInfo.environment.merging(["FRAMED_TEMPORARY_FILES": "named"]) { $1 } }
            let err = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = err
            try Self.runWithInterruptsUnblocked(process)
            let errors = PipeReader(err.fileHandleForReading)
            let pid = process.processIdentifier
            var signalled = false, anonymousSeen = false
            while process.isRunning && !signalled {
                let seen = try temporaryFiles(of: pid)
                anonymousSeen = anonymousSeen || seen.contains { $0.hasSuffix("(deleted)") }
                if !seen.isEmpty {
                    kill(pid, SIGSTOP)
                    while process.isRunning && Self.processState(pid) != "T" { usleep(200) }
                    if process.isRunning, try !temporaryFiles(of: pid).isEmpty {
                        kill(pid, signal)
                        signalled = true
                    }
                    kill(pid, SIGCONT)
                } else {
                    usleep(500)
                }
            }
            process.waitUntilExit()
            let stderr = errors.text()
            guard signalled else {
                // The batch ended before a temporary file was seen: twice as many pictures.
                #expect(process.terminationStatus == 0, "\(stderr)")
                pictures *= 2
                continue
            }
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
                    "ended by the signal, as if not caught (status \(process.terminationStatus)): \(stderr)")
            let left = try temporaryFiles()
            #expect(left.isEmpty, "temporary files left: \(left)")
            #expect(try CLITests.files(in: out) == names, "no other file")
            var kept = 0
            for name in names {
                let data = try Data(contentsOf: out.appendingPathComponent(name))
                #expect(difference(data, old) == nil || difference(data, complete) == nil,
                        "\(name): the old output or a whole new one, not \(data.count) bytes")
                if data == old { kept += 1 }
            }
            #expect(kept > 0, "interrupted before the end of the batch")
            #expect(anonymousSeen == !named, "anonymous temporary files are made unless named ones are asked for")
            return
        }
        Issue.record("framed always finished before a temporary file was seen; last batch: \(pictures / 2) pictures")
    }

    /// Starts `process` with SIGINT, SIGTERM, SIGHUP and SIGUSR1 unblocked, as a shell would: Foundation's
    /// Process passes the calling thread's signal mask on, and the threads Swift Testing runs on
    /// may block them (framed takes them either way; a framed without its handling would not die).
    static func runWithInterruptsUnblocked(_ process: Process) throws {
        var signals = sigset_t(), saved = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGHUP)
        sigaddset(&signals, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &signals, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try process.run()
    }

    /// The state letter in /proc/PID/stat ("T" when stopped), or nil.
    static func processState(_ pid: Int32) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].first { $0 != " " }
    }

    // MARK: Permissions (root ignores them: run as nobody through setpriv)

    /// Runs framed as `nobody` when root (setpriv, util-linux), as the current user otherwise;
    /// root that cannot drop its privileges here fails the test.
    static func framedUnprivileged(_ arguments: [String], in folder: URL) throws -> CLITests.Result {
        guard Self.isRoot else { return try CLITests.framed(arguments, in: folder) }
        let probe = try Self.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/true"], in: folder)
        try #require(probe.status == 0, "root cannot run as nobody here: \(probe.stderr)")
        return try Self.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", CLITests.binary.path] + arguments,
                            in: folder)
    }

    @Test func anUnreadableInputIsNamed() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        chmod(folder.path, 0o777)
        chmod(folder.appendingPathComponent("photo.jpg").path, 0)
        let r = try Self.framedUnprivileged(["photo.jpg", "-o", "out.png"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["photo.jpg", "Permission denied"])
        #expect(try CLITests.files(in: folder) == ["photo.jpg", "shot.png"])
    }

    @Test func anUnwritableFolderIsNamed() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        chmod(locked.path, 0o555)
        defer { chmod(locked.path, 0o755) }
        let r = try Self.framedUnprivileged(["photo.jpg", "-o", "locked/out.png"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["locked/out.png", "cannot write", "Permission denied"])
        #expect(try CLITests.files(in: locked) == [])
    }

    // MARK: The output is the input by another name

    /// Through a symbolic link to the folder, and through a hard link (`..` and a link to the
    /// file itself are in CLITests.outputThatIsTheInputIsRefused).
    @Test func anOutputThatResolvesToTheInputIsRefused() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Data(contentsOf: folder.appendingPathComponent("shot.png"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("here").path, withDestinationPath: ".")
        try FileManager.default.linkItem(at: folder.appendingPathComponent("shot.png"), to: folder.appendingPathComponent("hard.png"))
        for output in ["here/shot.png", "here/../\(folder.lastPathComponent)/shot.png", "hard.png"] {
            let r = try CLITests.framed(["shot.png", "-o", output, "--overwrite"], in: folder)
            CLITests.expectOneLineError(r, status: 2, mentioning: ["is the input"])
        }
        #expect(try difference(Data(contentsOf: folder.appendingPathComponent("shot.png")), before) == nil, "input untouched")
        try Self.expectNoTemporaryFiles(in: folder)
    }
}
