import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// Issue 23: nothing lost, nothing corrupted, nothing unbounded. Each test reproduces a case
/// that went wrong and holds the guarantee its name says; the README's Guarantees list names
/// them.
@Suite struct RobustnessTests {
    /// Runs a bash script in `folder`, with `$FRAMED` the built binary.
    @discardableResult
    static func sh(_ script: String, in folder: URL) throws -> CLITests.Result {
        let r = try Tool.run("bash", ["-c", script], in: folder, environment: ["FRAMED": CLITests.binary.path])
        return CLITests.Result(status: r.status, stdout: r.output, stderr: r.stderr)
    }

    /// A JPEG cut short: it decodes, with a warning.
    static func warningJPEG(in folder: URL, name: String = "cut.jpg") throws {
        let photo = try Data(contentsOf: folder.appendingPathComponent("photo.jpg"))
        try photo.prefix(photo.count * 2 / 3).write(to: folder.appendingPathComponent(name))
    }

    static func isPNG(_ url: URL) -> Bool {
        guard let data = try? Data(contentsOf: url) else { return false }
        return (try? Pictures.decode(data: [UInt8](data))) != nil
    }

    // MARK: Outputs that are silently wrong

    /// `2>&-`: with standard error closed, a warning must not land in an output file that took
    /// its number.
    @Test func aClosedStandardErrorCorruptsNoOutput() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for i in 1...4 { try Self.warningJPEG(in: folder, name: "cut\(i).jpg") }
        let r = try Self.sh("\"$FRAMED\" cut1.jpg cut2.jpg cut3.jpg cut4.jpg -o out/ --format png -j 2 2>&-", in: folder)
        #expect(r.status == 0)
        for i in 1...4 {
            #expect(Self.isPNG(folder.appendingPathComponent("out/cut\(i).png")), "out/cut\(i).png decodes")
        }
    }

    /// An output that is a symbolic link is written through: the file it names gets the picture
    /// (made when it does not exist), the link stays a link. Standard output through a link to
    /// /proc/self/fd/1 lands where the shell sent it.
    @Test func aLinkedOutputIsWrittenThrough() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("new.png").path, withDestinationPath: "target-new.png")
        try Data("old".utf8).write(to: folder.appendingPathComponent("target-old.png"))
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("old.png").path, withDestinationPath: "target-old.png")
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("stdout").path, withDestinationPath: "/proc/self/fd/1")
        var r = try CLITests.framed(["photo.jpg", "-o", "new.png"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLITests.framed(["photo.jpg", "-o", "old.png", "-f"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        r = try Self.sh("\"$FRAMED\" photo.jpg -o stdout -f --format png > real.png", in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        for (link, target) in [("new.png", "target-new.png"), ("old.png", "target-old.png"), ("stdout", "/proc/self/fd/1")] {
            #expect(try fm.destinationOfSymbolicLink(atPath: folder.appendingPathComponent(link).path) == target, "\(link) is a link")
        }
        for name in ["target-new.png", "target-old.png", "real.png"] {
            #expect(Self.isPNG(folder.appendingPathComponent(name)), "\(name) holds the picture")
        }
        try HostileCLITests.expectNoTemporaryFiles(in: folder)
    }

    /// A file replaced with `-f` keeps its permissions.
    @Test func aReplacedFileKeepsItsMode() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("private.png").path
        for mode in [0o600, 0o640, 0o755] {
            try Data("old".utf8).write(to: URL(fileURLWithPath: out))
            #expect(chmod(out, mode_t(mode)) == 0)
            let r = try CLITests.framed(["photo.jpg", "-o", "private.png", "-f"], in: folder)
            #expect(r.status == 0, "\(r.stderr)")
            let attributes = try FileManager.default.attributesOfItem(atPath: out)
            #expect((attributes[.posixPermissions] as? Int) == mode, "mode \(String(mode, radix: 8)) kept")
        }
    }

    /// A new output has the mode any program's new file has: 0666 less the umask (the temporary
    /// file it starts as is 0600), with anonymous and named temporary files, alone, in a set and
    /// as the PDF of `--pages`.
    @Test(arguments: [false, true])
    func aNewFileHasTheModeTheUmaskLeaves(named: Bool) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let variable = named ? "FRAMED_TEMPORARY_FILES=named " : ""
        for (umask, mode) in [("022", 0o644), ("027", 0o640), ("002", 0o664), ("000", 0o666), ("077", 0o600)] {
            let r = try Self.sh("""
                rm -rf u && mkdir u && umask \(umask)
                \(variable)"$FRAMED" photo.jpg -o u/one.png && \(variable)"$FRAMED" photo.jpg -o u/set.png --scale 1,2 \
                  && \(variable)"$FRAMED" photo.jpg shot.png --pages -o u/pages.pdf
                """, in: folder)
            #expect(r.status == 0, "\(r.stderr)")
            for name in ["one.png", "set.png", "set@2x.png", "pages.pdf"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("u/\(name)").path)
                #expect((attributes[.posixPermissions] as? Int) == mode,
                        "umask \(umask), \(name): \(String((attributes[.posixPermissions] as? Int) ?? -1, radix: 8))")
            }
        }
    }

    /// As root, a file replaced with `-f` keeps its owner and group too.
    @Test(.enabled(if: getuid() == 0, "needs root (CI runs as root): only root can give a file to another owner"))
    func aReplacedFileKeepsItsOwnerAsRoot() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("theirs.png").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        #expect(chown(out, 65534, 65534) == 0)
        let r = try CLITests.framed(["photo.jpg", "-o", "theirs.png", "-f"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: out)
        #expect((attributes[.ownerAccountID] as? Int) == 65534 && (attributes[.groupOwnerAccountID] as? Int) == 65534)
        #expect(Self.isPNG(URL(fileURLWithPath: out)))
    }

    /// Without `-f`, an output that appears while framed works is not replaced: the last step
    /// fails. The picture comes through a pipe. The shell's opening it for writing waits until
    /// framed opens it to read, which is after framed's first look for the output; only then
    /// does the output appear, and only then is the picture written. So the order is certain
    /// however slowly framed starts (a fixed sleep let a loaded machine's framed look after the
    /// file appeared, and the first look refused it, passing for the last step).
    @Test func anOutputThatAppearsMeanwhileIsKept() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("""
            mkfifo picture
            "$FRAMED" picture -o out.png 2>err.txt & pid=$!
            exec 3>picture
            echo theirs > out.png
            cat photo.jpg >&3; exec 3>&-
            wait $pid; echo "status $?"; cat err.txt
            """, in: folder)
        #expect(r.stdout.contains("status 1"), "\(r.stdout)")
        #expect(r.stdout.contains("framed: out.png: exists; add --overwrite (-f) to replace it"), "\(r.stdout)")
        #expect(try String(contentsOf: folder.appendingPathComponent("out.png"), encoding: .utf8) == "theirs\n")
        try HostileCLITests.expectNoTemporaryFiles(in: folder)
    }

    /// Without `-f`, the last step itself refuses an output that appeared after framed's every
    /// earlier look: between writing its temporary file and moving it into place. framed looks
    /// before it makes the temporary file, so the output is made as soon as that file shows
    /// (`FRAMED_TEMPORARY_FILES=named`), while framed is still writing 20 MB of noise into it.
    /// A round where the shell came too late (framed had put its file in place, and the shell
    /// wrote over it) shows nothing either way and is run again.
    @Test func anOutputThatAppearsAtTheLastStepIsKept() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<(2600 * 2600 * 4)).map { i -> UInt8 in
            if i % 4 == 3 { return 255 }
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        try Data(PictureEncoder.png(RasterImage(width: 2600, height: 2600, pixels: noise, hasAlpha: false), dropAlpha: true))
            .write(to: folder.appendingPathComponent("noise.png"))
        var refused = 0
        for round in 0..<12 where refused < 2 {
            let r = try Self.sh("""
                rm -f out.png .out.png.framed-*
                FRAMED_TEMPORARY_FILES=named "$FRAMED" noise.png -o out.png --shadow none 2>err.txt & pid=$!
                while kill -0 $pid 2>/dev/null; do
                    for f in .out.png.framed-*; do [ -e "$f" ] && break 2; done
                done
                echo theirs > out.png
                wait $pid; echo "status $?"; cat err.txt
                """, in: folder)
            let kept = (try? String(contentsOf: folder.appendingPathComponent("out.png"), encoding: .utf8)) == "theirs\n"
            #expect(kept || !r.stdout.contains("status 0"), "round \(round): framed replaced the file that appeared: \(r.stdout)")
            if r.stdout.contains("status 1") {
                refused += 1
                #expect(r.stdout.contains("framed: out.png: exists; add --overwrite (-f) to replace it"), "\(r.stdout)")
                #expect(kept, "round \(round): \(r.stdout)")
            }
            try HostileCLITests.expectNoTemporaryFiles(in: folder)
        }
        #expect(refused > 0, "the output never appeared before framed placed its own")
    }

    /// The same for the one PDF of `--pages`, written after every page is made. The shell opens
    /// the pipe for writing before the PDF appears, which waits until framed opens it to read a
    /// page: after framed's first look for the PDF, so that only the last step can refuse it.
    @Test func aPagesPDFThatAppearsMeanwhileIsKept() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("""
            mkfifo picture
            "$FRAMED" photo.jpg picture shot.png --pages -o out.pdf 2>err.txt & pid=$!
            exec 3>picture
            echo theirs > out.pdf
            cat photo.jpg >&3; exec 3>&-
            wait $pid; echo "status $?"; cat err.txt
            """, in: folder)
        #expect(r.stdout.contains("status 1"), "\(r.stdout)")
        #expect(r.stdout.contains("framed: out.pdf: exists; add --overwrite (-f) to replace it"), "\(r.stdout)")
        #expect(try String(contentsOf: folder.appendingPathComponent("out.pdf"), encoding: .utf8) == "theirs\n")
        try HostileCLITests.expectNoTemporaryFiles(in: folder)
    }

    /// Two runs without `-f` started together: one writes, the other is refused; never both.
    @Test func twoRunsDoNotReplaceEachOther() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for round in 0..<3 {
            let r = try Self.sh("""
                rm -f out.png
                "$FRAMED" photo.jpg -o out.png 2>a.txt & a=$!
                "$FRAMED" shot.png -o out.png 2>b.txt & b=$!
                wait $a; sa=$?; wait $b; sb=$?
                echo "$sa $sb"
                """, in: folder)
            let statuses = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
            #expect(statuses == "0 1" || statuses == "1 0", "round \(round): exit statuses \(statuses)")
        }
    }

    /// `-o /dev/null` needs no `-f`: a device is written in place, never replaced.
    @Test func aDeviceNeedsNoOverwrite() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try CLITests.framed(["photo.jpg", "-o", "/dev/null", "--format", "png"], in: folder)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    }

    /// A JPEG passed through byte for byte stops at its end marker: what follows (a motion
    /// photo's video) stays out of the PDF.
    @Test func aPassedThroughJPEGStopsAtItsEnd() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Data(contentsOf: folder.appendingPathComponent("photo.jpg"))
        var trailer = Data(count: 3 << 20)
        for i in stride(from: 0, to: trailer.count, by: 7) { trailer[i] = UInt8(truncatingIfNeeded: i) }
        try (photo + trailer).write(to: folder.appendingPathComponent("motion.jpg"))
        let r = try CLITests.framed(["motion.jpg", "-o", "motion.pdf", "--dpi", "96"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let pdf = try Data(contentsOf: folder.appendingPathComponent("motion.pdf"))
        #expect(pdf.count < photo.count + 100_000, "PDF of \(pdf.count) bytes for a \(photo.count)-byte picture")
        #expect(pdf.range(of: photo) != nil, "the JPEG itself, byte for byte")
    }

    // MARK: Work and memory bounded

    /// Issue 32: a JPEG without its end marker, followed by 64 MB of zeros (a sparse file), is
    /// decoded with a warning and never passed through: the PDF holds the picture re-encoded,
    /// not the 64 MB that ran to the file's end (with 1 GB of zeros, the pass-through took
    /// 228 s and 2.1 GB before it ran out of memory).
    @Test func aJPEGWithoutItsEndIsNotPassedThrough() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = [UInt8](try Data(contentsOf: folder.appendingPathComponent("photo.jpg")))
        try #require(photo.suffix(2) == [0xFF, 0xD9])
        try Data(photo.dropLast(2)).write(to: folder.appendingPathComponent("endless.jpg"))
        #expect(truncate(folder.appendingPathComponent("endless.jpg").path, 64 << 20) == 0)
        let r = try CLITests.framed(["endless.jpg", "-o", "endless.pdf", "--dpi", "96"], in: folder)
        #expect(r.status == 0 && r.stderr.contains("warning: endless.jpg: Premature end of JPEG file"), "\(r.stderr)")
        let pdf = try Data(contentsOf: folder.appendingPathComponent("endless.pdf"))
        #expect(pdf.count < 1 << 20, "a PDF of \(pdf.count) bytes")
    }


    /// `/dev/zero`, standard input from it, and a config from it: refused at once.
    @Test func endlessInputsAreRefused() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var r = try CLITests.framed(["/dev/zero", "-o", "z.png"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["/dev/zero", "not a picture"])
        r = try Self.sh("\"$FRAMED\" - -o z.png < /dev/zero", in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["standard input", "not a picture"])
        r = try CLITests.framed(["photo.jpg", "-o", "z.png", "--config", "/dev/zero"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["/dev/zero", "config file", "more than 1 MB"])
        // A stream that starts as a TIFF (which has no end of its own) and never ends: refused
        // past what the pixel limit allows. One that starts as a PNG is read to the first bytes
        // that are no chunk, and found corrupt.
        r = try Self.sh("(printf 'II*\\0\\x08\\0\\0\\0'; cat /dev/zero 2>/dev/null) | \"$FRAMED\" - -o z.png --max-pixels 1000",
                        in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["standard input", "goes on past 1 MB"])
        r = try Self.sh("(printf '\\x89PNG\\r\\n\\x1a\\n\\0\\0\\0\\x0dIHDR'; cat /dev/zero 2>/dev/null) | \"$FRAMED\" - -o z.png",
                        in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["standard input", "corrupt PNG"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("z.png").path))
    }

    /// A stream (a pipe) of a picture without an end of its own (a TIFF) may be as long as a
    /// picture within `--max-pixels` can be, 8 bytes a pixel and a megabyte, and no longer: a
    /// small TIFF padded with zeros to exactly that frames, one byte more is refused.
    @Test func aStreamMayHoldWhatThePixelLimitAllowsAndNoMore() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiff = PictureBytes.tiff([TIFFPage(rgba: Support.busyPicture(width: 40, height: 30, alpha: false).pixels,
                                               width: 40, height: 30, alpha: false)])
        let limit = 8 * 100_000 + (1 << 20)
        for (name, length) in [("exact.tif", limit), ("over.tif", limit + 1)] {
            try Data(tiff + [UInt8](repeating: 0, count: length - tiff.count)).write(to: folder.appendingPathComponent(name))
        }
        var r = try Self.sh("cat exact.tif | \"$FRAMED\" - -o exact-out.png --preset none --max-pixels 100000", in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        r = try Self.sh("cat over.tif | \"$FRAMED\" - -o over-out.png --preset none --max-pixels 100000", in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["standard input", "goes on past"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("over-out.png").path))
    }

    /// Issue 32: a picture on standard input or through a FIFO is read to its own end (a PNG's
    /// IEND, a JPEG's EOI or the most a scan can hold, a GIF's trailer, a WebP's RIFF size, a
    /// HEIC's last box) and not a byte further: each followed by endless zeros frames, within a pixel limit whose stream
    /// bound (9 MB) the zeros would pass at once; two such FIFOs at once with `-j 2` too; and a
    /// PNG followed by 100 MB (standard input, the default limit) takes what a small PNG takes,
    /// not the 207 MB it took to read them.
    @Test func aStreamIsReadToThePicturesOwnEnd() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = Support.busyPicture(width: 40, height: 30, alpha: false)
        try Data(PictureEncoder.webp(picture, quality: 80)).write(to: folder.appendingPathComponent("p.webp"))
        try Data(PictureEncoder.png(picture)).write(to: folder.appendingPathComponent("p.png"))
        try Data(PictureBytes.gif(width: 4, height: 2, palette: [(255, 0, 0), (0, 0, 255)], frames: [[0, 1, 0, 1, 1, 0, 1, 0]]))
            .write(to: folder.appendingPathComponent("p.gif"))
        let encoded = try Self.sh("heif-enc -q 50 -o p.heic p.png", in: folder)
        try #require(encoded.status == 0, "heif-enc (libheif-examples): \(encoded.stderr)")
        for name in ["photo.jpg", "p.png", "p.gif", "p.webp", "p.heic"] {
            let r = try Self.sh("(cat \(name); cat /dev/zero 2>/dev/null) | \"$FRAMED\" - -o out.png -f --max-pixels 1000000", in: folder)
            #expect(r.status == 0, "\(name) then zeros: \(r.stderr)")
        }
        // A JPEG without its end marker: its last scan's data runs on into the zeros, as far as
        // a scan can hold for its 320x200 picture (512 bytes a block), where the picture ends.
        let jpeg = try Self.sh("(head -c -2 photo.jpg; cat /dev/zero 2>/dev/null) | \"$FRAMED\" - -o out.png -f --max-pixels 1000000",
                               in: folder)
        #expect(jpeg.status == 0 && jpeg.stderr.contains("Premature end of JPEG file"), "\(jpeg.stderr)")
        var r = try Self.sh("""
            mkfifo a.fifo b.fifo
            (cat photo.jpg; cat /dev/zero 2>/dev/null) > a.fifo & (cat p.png; cat /dev/zero 2>/dev/null) > b.fifo &
            "$FRAMED" a.fifo b.fifo -o fifos/ -j 2 --format png --max-pixels 1000000; echo "status $?"
            """, in: folder)
        #expect(r.stdout.contains("status 0"), "\(r.stdout) \(r.stderr)")
        #expect(try CLITests.files(in: folder.appendingPathComponent("fifos")) == ["a.png", "b.png"])
        r = try Self.sh("(cat p.png; head -c 100000000 /dev/zero) | /usr/bin/time -f '%M' \"$FRAMED\" - -o trailer.png 2>&1", in: folder)
        let kilobytes = Int(r.stdout.split(separator: "\n").last ?? "") ?? .max
        #expect(kilobytes < 150_000, "peak \(kilobytes) KB: \(r.stdout)")
    }

    /// Issue 32: a stream without an end of its own (a TIFF, then zeros) is read into one buffer
    /// that grows to the bound and no further: its peak is the bound (101 MB at 12.5 megapixels)
    /// above what framing a small TIFF from a pipe takes, and a few megabytes, where reading
    /// into a second buffer and doubling took twice the bound. A part of a picture that claims
    /// more than the bound is refused at its header.
    @Test func aStreamWithoutAnEndTakesNoMoreThanItsBound() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiff = PictureBytes.tiff([TIFFPage(rgba: Support.busyPicture(width: 40, height: 30, alpha: false).pixels,
                                               width: 40, height: 30, alpha: false)])
        try Data(tiff).write(to: folder.appendingPathComponent("p.tif"))
        func peak(_ script: String) throws -> (status: Int32, kilobytes: Int) {
            let r = try Self.sh("ulimit -v 2000000; " + script, in: folder)
            // time's last two lines (before them, "Command exited with non-zero status" when so).
            let lines = r.stdout.split(separator: "\n").suffix(2)
            return (Int32(lines.first ?? "") ?? -1, Int(lines.last ?? "") ?? .max)
        }
        let small = try peak("cat p.tif | /usr/bin/time -f '%x\\n%M' -o time.txt \"$FRAMED\" - -o small.png; cat time.txt")
        #expect(small.status == 0)
        let endless = try peak("(cat p.tif; cat /dev/zero 2>/dev/null) | /usr/bin/time -f '%x\\n%M' -o time.txt "
                               + "\"$FRAMED\" - -o endless.png --max-pixels 12500000; cat time.txt")
        #expect(endless.status == 1)
        let bound = (8 * 12_500_000 + (1 << 20)) / 1024
        #expect(endless.kilobytes <= small.kilobytes + bound + 16 * 1024,
                "peak \(endless.kilobytes) KB, \(small.kilobytes) KB for a small TIFF and \(bound) KB of bound")
        // A PNG whose image data chunk claims 2 GB goes on past the default bound (1954 MB): it is
        // refused at that chunk's header, unread (under 500 MB of address space, which reading
        // towards the bound would exhaust).
        var png = [UInt8](try Data(contentsOf: folder.appendingPathComponent("shot.png")).prefix(33))
        png += [0x7F, 0xFF, 0xFF, 0xFF] + Array("IDAT".utf8)
        try Data(png).write(to: folder.appendingPathComponent("claims.bin"))
        let r = try Self.sh("ulimit -v 500000; (cat claims.bin; cat /dev/zero 2>/dev/null) | \"$FRAMED\" - -o claims.png", in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["standard input", "goes on past 1954 MB"])
    }

    /// A WebP is read as far as its RIFF header says: a 3 GB file (sparse) frames in a few MB.
    @Test func aWebPIsReadAsFarAsItsHeaderSays() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(PictureEncoder.webp(Support.busyPicture(width: 64, height: 48, alpha: false), quality: 80))
            .write(to: folder.appendingPathComponent("long.webp"))
        #expect(truncate(folder.appendingPathComponent("long.webp").path, 3 << 30) == 0)
        let r = try Self.sh("/usr/bin/time -f '%M' \"$FRAMED\" long.webp -o long.png 2>&1", in: folder)
        let kilobytes = Int(r.stdout.split(separator: "\n").last ?? "") ?? .max
        #expect(r.status == 0 && kilobytes < 200_000, "peak \(kilobytes) KB: \(r.stdout)")
    }

    /// Issue 32: a WebP is read a chunk at a time, each chunk as far as its own size says, and
    /// only the chunks decoding needs: a RIFF header that claims 1.8 GB in a file that long
    /// (sparse), within the default pixel limit's bound, frames in a few megabytes where the
    /// whole file was read (1.86 GB); a VP8 chunk that claims 1.8 GB is more than its 64x48
    /// picture can take, and refused unread. Under `ulimit -v` (1 GB), which reading either
    /// whole would pass.
    @Test func aWebPIsReadAsFarAsItsChunksSay() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let webp = try PictureEncoder.webp(Support.busyPicture(width: 64, height: 48, alpha: false), quality: 80,
                                           exif: Array("II*\0".utf8))
        let claimed = 1800 << 20
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var riff = webp
        riff.replaceSubrange(4..<8, with: le32(claimed - 8))
        var chunk = riff
        let vp8 = try #require((12..<chunk.count - 4).first { chunk[$0..<$0 + 4].elementsEqual("VP8 ".utf8) })
        chunk.replaceSubrange(vp8 + 4..<vp8 + 8, with: le32(claimed - 100))
        for (name, bytes) in [("riff.webp", riff), ("chunk.webp", chunk)] {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
            #expect(truncate(folder.appendingPathComponent(name).path, off_t(claimed)) == 0)
        }
        var r = try Self.sh("ulimit -v 1000000; /usr/bin/time -f '%M' \"$FRAMED\" riff.webp -o riff.png 2>&1", in: folder)
        let kilobytes = Int(r.stdout.split(separator: "\n").last ?? "") ?? .max
        #expect(r.status == 0 && kilobytes < 100_000, "peak \(kilobytes) KB: \(r.stdout)")
        r = try Self.sh("ulimit -v 1000000; \"$FRAMED\" chunk.webp -o chunk.png", in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["chunk.webp", "its VP8 chunk claims \(claimed - 100) bytes, more than a 64x48 picture takes"])
    }

    /// A WebP whose RIFF header claims a gigabyte is not read for it: more than a picture within
    /// the pixel limit can take (8 bytes a pixel, and a megabyte) is refused unread.
    @Test func aWebPClaimingMoreThanThePixelLimitTakesIsRefused() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var webp = try PictureEncoder.webp(Support.busyPicture(width: 64, height: 48, alpha: false), quality: 80)
        let claimed = 1 << 30
        for i in 0..<4 { webp[4 + i] = UInt8(truncatingIfNeeded: (claimed - 8) >> (8 * i)) }
        try Data(webp).write(to: folder.appendingPathComponent("claims.webp"))
        #expect(truncate(folder.appendingPathComponent("claims.webp").path, off_t(claimed)) == 0)
        let r = try Self.sh("/usr/bin/time -f '%M' \"$FRAMED\" claims.webp -o c.png --max-pixels 1000000", in: folder)
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n")
        let kilobytes = Int(lines.last ?? "") ?? .max
        // 1 000 000 pixels: 8 000 000 bytes and a megabyte, in whole megabytes.
        #expect(lines.first == "framed: claims.webp: the data goes on past \((8_000_000 + (1 << 20)) >> 20) MB, more than a picture within the pixel limit takes",
                "\(r.stderr)")
        #expect(kilobytes < 100_000, "peak \(kilobytes) KB")
    }

    /// Issue 32: the canvas of an animation, of which framed shows the first frame, is bounded
    /// by that frame: a canvas over 4 megapixels may be at most 64 times the frame. A WebP of
    /// 140 bytes whose canvas is 16000x16000 around a 16x16 frame took 1.03 GB and 6.9 s as a PDF
    /// at its natural size; here 4096x4096 (which would cost 64 MB if the bound failed) around
    /// the same frame is refused from its header, in framing and in `framed layout`, and so is a
    /// GIF whose logical screen is 4096x4096 around a 1x1 image. A canvas within the bound costs
    /// what the output needs: 8000x8000 around a 1000x1000 first frame, decoded at 1/8 for
    /// 600x400, takes a few megabytes.
    @Test func anAnimationsCanvasIsBoundedByItsFirstFrame() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(PictureEncoder.webp(Support.busyPicture(width: 16, height: 16, alpha: false), quality: nil))
            .write(to: folder.appendingPathComponent("frame.webp"))
        try Data(PictureEncoder.webp(RasterImage(width: 1000, height: 1000, pixels: [UInt8](repeating: 200, count: 4_000_000)),
                                     quality: nil)).write(to: folder.appendingPathComponent("big-frame.webp"))
        var r = try Self.sh("webpmux -frame frame.webp +100+0+0 -frame frame.webp +100+0+0 -loop 0 -o small.webp && "
                            + "webpmux -frame big-frame.webp +100+0+0 -frame frame.webp +100+0+0 -loop 0 -o big.webp", in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        // The canvas's size is in the VP8X chunk (bytes 24-29: width - 1, height - 1, 24 bits each).
        func canvas(_ name: String, _ side: Int, to output: String) throws {
            var bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            try #require(String(decoding: bytes[12..<16], as: UTF8.self) == "VP8X")
            for offset in [24, 27] {
                for k in 0..<3 { bytes[offset + k] = UInt8(truncatingIfNeeded: (side - 1) >> (8 * k)) }
            }
            try Data(bytes).write(to: folder.appendingPathComponent(output))
        }
        try canvas("small.webp", 4096, to: "huge.webp")
        try canvas("big.webp", 8000, to: "wide.webp")
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8)] }
        // A GIF: a 4096x4096 screen, a two-colour table, one 1x1 image (LZW: clear, 0, end).
        let gif = Array("GIF89a".utf8) + le16(4096) + le16(4096) + [0x80, 0, 0, 255, 0, 0, 0, 0, 255]
            + [0x2C] + le16(0) + le16(0) + le16(1) + le16(1) + [0, 2, 2, 0x44, 0x01, 0, 0x3B]
        try Data(gif).write(to: folder.appendingPathComponent("screen.gif"))
        for (name, words) in [("huge.webp", "its 4096x4096 canvas is more than 64 times the 256 pixels of its first frame"),
                              ("screen.gif", "its 4096x4096 canvas is more than 64 times the 1 pixel of its first frame")] {
            for arguments in [[name, "-o", "out.pdf"], ["layout", name]] {
                r = try CLITests.framed(arguments, in: folder)
                CLITests.expectOneLineError(r, status: 1, mentioning: [name, words])
            }
        }
        r = try Self.sh("\"$FRAMED\" layout wide.webp --size 600x400 | grep -A0 sourcePixels; "
                        + "/usr/bin/time -f '%M' \"$FRAMED\" wide.webp -o wide.png --size 600x400 2>&1", in: folder)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first?.contains("{\"width\": 8000, \"height\": 8000}") == true, "\(r.stdout)")
        let kilobytes = Int(lines.last ?? "") ?? .max
        #expect(r.status == 0 && kilobytes < 200_000, "peak \(kilobytes) KB: \(r.stdout)")
    }

    /// Bytes after a PNG's IEND are not walked as chunks: a 2 GB trailer (sparse) costs a few
    /// reads, not half a billion. Only the reads of the picture's own file are counted
    /// (`strace -y` names each descriptor's file): the process's others (shared libraries, a
    /// sanitizer's runtime) vary from build to build.
    @Test func aPNGEndsAtItsEnd() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(truncate(folder.appendingPathComponent("shot.png").path, 2 << 30) == 0)
        let r = try Self.sh("strace -f -y -e trace=pread64,read -o trace.txt \"$FRAMED\" shot.png -o shot-out.png >/dev/null 2>&1; "
                            + "grep -c '/shot.png>' trace.txt", in: folder)
        let calls = Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
        #expect(calls > 0 && calls < 100, "\(calls) reads of shot.png: \(r.stdout) \(r.stderr)")
        #expect(Self.isPNG(folder.appendingPathComponent("shot-out.png")))
    }

    @Test func shadowsAreLimited() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let many = Array(repeating: "0 0 2px red", count: 101).joined(separator: ", ")
        let r = try CLITests.framed(["photo.jpg", "-o", "s.png", "--shadow", many], in: folder)
        CLITests.expectOneLineError(r, status: 2, mentioning: ["--shadow", "101 shadows; at most 100"])
        #expect(r.stderr.count < 400, "the list is not echoed whole: \(r.stderr.count) characters")
        let hundred = Array(repeating: "0 0 2px red", count: 100).joined(separator: ", ")
        #expect(try CLITests.framed(["photo.jpg", "-o", "s.png", "--shadow", hundred], in: folder).status == 0)
    }

    /// Out of memory (`ulimit -v`) is a one-line error at every step, never an abort: the limit
    /// is swept across a picture's decode, resample, draw and encode. (Not under the sanitizers:
    /// AddressSanitizer cannot start within such a limit; Tests/sanitize.sh leaves this suite out.)
    ///
    /// SVG is in the sweep because of a mended crash: Cairo 1.16 crashes in
    /// `cairo_surface_destroy` of the picture's surface when the small allocation its snapshot
    /// needs then fails, and framed used to end that surface after the SVG and its copy had
    /// filled the memory (with the debug build and this picture, at 132, 140, 142 and 144 MB).
    @Test(arguments: ["png", "pdf", "svg"])
    func runningOutOfMemoryIsAnError(_ format: String) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(PictureEncoder.png(Support.busyPicture(width: 3000, height: 2000, alpha: true)))
            .write(to: folder.appendingPathComponent("big.png"))
        var outcomes: Set<Int32> = []
        // SVG: 2 MB steps where the crash was (132-144 MB with this picture), then as the others.
        let fine = format == "svg" ? Array(stride(from: 120, to: 160, by: 2)) : Array(stride(from: 120, to: 160, by: 40))
        for megabytes in fine + Array(stride(from: 160, through: 720, by: 40)) {
            let r = try Self.sh("ulimit -v \(megabytes * 1024); \"$FRAMED\" big.png -o out.\(format) -f --scale 2 --dpi 300",
                                in: folder)
            outcomes.insert(r.status)
            #expect(r.status == 0 || r.status == 1, "\(megabytes) MB: exit \(r.status): \(r.stderr.prefix(300))")
            if r.status == 1 {
                CLITests.expectOneLineError(r, status: 1, mentioning: ["out of memory"])
            }
            try HostileCLITests.expectNoTemporaryFiles(in: folder)
        }
        #expect(outcomes.contains(1), "some limit was too small")
    }

    /// Issue 32, item 4: text and SVG pictures short of memory end with one line and exit 0 or
    /// 1, never a signal. Pango starts threads (GLib aborts when one cannot start, fontconfig
    /// crashes when its first reading runs short): framed prepares them first, asking for the
    /// room they take; librsvg runs in a child of framed, whose crash is one line. The limit is
    /// swept from where framed barely starts to where the text is drawn. (Not under the
    /// sanitizers, as `runningOutOfMemoryIsAnError`.)
    @Test(arguments: ["caption", "title", "svg-png", "svg-pdf"])
    func textAndSVGShortOfMemoryEndWithOneLine(_ kind: String) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="200" height="100" fill="red"/><text x="20" y="200" font-size="30">Hello</text></svg>"#.utf8)
            .write(to: folder.appendingPathComponent("text.svg"))
        let command = switch kind {
        case "caption": "shot.png --caption hi -o out.png"
        case "title": "shot.png --chrome macos --chrome-title hi -o out.png"
        case "svg-png": "text.svg -o out.png"
        default: "text.svg -o out.pdf"
        }
        var outcomes: [Int32: Int] = [:]
        // Into PDF, framed draws the SVG itself after its child did, asking first for the
        // address space the child's drawing took (librsvg's libraries, its threads' heaps): it
        // needs more room to succeed.
        for megabytes in stride(from: 60, through: kind == "svg-pdf" ? 764 : 444, by: 32) {
            let r = try Self.sh("ulimit -v \(megabytes * 1024); SWIFT_BACKTRACE=enable=no \"$FRAMED\" \(command) -f", in: folder)
            outcomes[r.status, default: 0] += 1
            #expect(r.status == 0 || r.status == 1, "\(megabytes) MB: exit \(r.status): \(r.stderr.prefix(300))")
            if r.status == 1 { CLITests.expectOneLineError(r, status: 1, mentioning: []) }
            if r.status == 0 { #expect(r.stderr.isEmpty, "\(megabytes) MB: \(r.stderr.prefix(300))") }
            try HostileCLITests.expectNoTemporaryFiles(in: folder)
        }
        #expect(outcomes[1, default: 0] > 0 && outcomes[0, default: 0] > 0, "both ends of the sweep: \(outcomes)")
    }

    /// Issue 32, item 4, at the point no preparation reaches: Pango starts a thread for each
    /// new font it looks up, while the text is drawn, and GLib ends the process when one cannot
    /// start. framed takes GLib's error instead: one line, its temporary files removed, exit 1.
    /// A thread asks for the stack limit (`ulimit -s`) in address space, so a stack limit near
    /// the memory limit (`ulimit -v`) makes Pango's threads fail every time, where a memory
    /// limit alone does so rarely and at no limit one can name. The stack limit is swept: at the
    /// small end everything starts, then Pango's threads fail, then framed's own worker. (Not
    /// under the sanitizers, as `runningOutOfMemoryIsAnError`.)
    @Test(arguments: ["caption-png", "title-png", "caption-pdf", "caption-svg"])
    func aThreadTheTextLibraryCannotStartEndsWithOneLine(_ kind: String) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (option, format) = (kind.hasPrefix("title") ? "--chrome macos --chrome-title hi" : "--caption hi",
                                String(kind.split(separator: "-")[1]))
        var stopped = 0, written = 0
        for megabytes in stride(from: 256, through: 1280, by: 128) {
            let r = try Self.sh("mkdir -p out; ulimit -s \(megabytes * 1024); ulimit -v 2600000; SWIFT_BACKTRACE=enable=no "
                                + "FRAMED_TEMPORARY_FILES=named \"$FRAMED\" shot.png \(option) -o out/shot.\(format) -f", in: folder)
            #expect(r.status == 0 || r.status == 1, "stack \(megabytes) MB: exit \(r.status): \(r.stderr.prefix(300))")
            let output = folder.appendingPathComponent("out/shot.\(format)")
            if r.status == 1 {
                CLITests.expectOneLineError(r, status: 1, mentioning: [])
                #expect(!FileManager.default.fileExists(atPath: output.path), "stack \(megabytes) MB: an output after a failure")
                if r.stderr.contains("stopped: out of memory") && r.stderr.contains("creating thread") { stopped += 1 }
            } else if r.status == 0 {
                #expect(r.stderr.isEmpty, "stack \(megabytes) MB: \(r.stderr.prefix(300))")
                written += 1
                try FileManager.default.removeItem(at: output)
            }
            try HostileCLITests.expectNoTemporaryFiles(in: folder.appendingPathComponent("out"))
        }
        #expect(written > 0, "no stack limit was small enough for the threads to start")
        #expect(stopped > 0, "no stack limit made Pango's thread fail")
    }

    /// A HEIC decoded short of memory ends with one line and exit 1, never a hang or an abort.
    /// libheif's HEVC decoder (libde265) waits forever for a worker thread it could not start,
    /// and throws std::bad_alloc through libheif's C API; framed starts the threads first and
    /// stops the exception at the C boundary. Its message is "out of memory" where framed can
    /// tell (libheif reports some allocation failures as a decoder error), so only the status,
    /// the single line and the absence of a C++ `terminate` are checked at every limit.
    @Test func decodingAHEICShortOfMemoryIsAnError() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(PictureEncoder.png(Support.busyPicture(width: 3000, height: 2000, alpha: false)))
            .write(to: folder.appendingPathComponent("big.png"))
        let encoded = try Self.sh("heif-enc -q 60 -o big.heic big.png", in: folder)
        try #require(encoded.status == 0, "heif-enc (Debian: libheif-examples): \(encoded.stderr)")
        var outMemory = 0
        for megabytes in stride(from: 90, through: 210, by: 4) {
            let r = try Self.sh("ulimit -v \(megabytes * 1024); timeout 60 \"$FRAMED\" big.heic -o out.png -f --scale 2 --dpi 300",
                                in: folder)
            #expect(r.status == 0 || r.status == 1, "\(megabytes) MB: exit \(r.status) (124: a hang): \(r.stderr.prefix(300))")
            #expect(!r.stderr.contains("terminate"), "\(megabytes) MB: \(r.stderr.prefix(300))")
            if r.status == 1 {
                CLITests.expectOneLineError(r, status: 1, mentioning: [])
                #expect(r.stderr.contains("big.heic") || r.stderr.contains("out.png"), "names the file: \(r.stderr)")
                if r.stderr.contains("out of memory") { outMemory += 1 }
            }
            try HostileCLITests.expectNoTemporaryFiles(in: folder)
        }
        #expect(outMemory > 0, "no limit was small enough to run out of memory")
    }

    /// A HEIC asks for four times its decoded size (16 bytes a pixel) before decoding starts, so
    /// that libheif's HEVC decoder starts only with room to spare: short of that, framing is
    /// "out of memory" before a pixel is decoded. Seen from outside: take the smallest
    /// address-space limit at which a 64x64 HEIC frames (found by bisection); at every limit
    /// from 8 MiB above it to three quarters of the request above it, a 3000x2000 HEIC is
    /// refused with "out of memory". Without the request the decoder gets by in some of those
    /// limits, the drawing after it runs short in others, and the decoder's worker thread
    /// sometimes aborts (measured with the debug build: the small picture frames in 138 MiB;
    /// the large one framed at 154, 166 and 202 MiB and above, and a plasma picture's HEIC
    /// aborted at 178; with the request both are refused up to 256 MiB).
    @Test func aHEICAsksForItsMemoryBeforeDecoding() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (width, height) = (3000, 2000)
        try Data(PictureEncoder.png(Support.busyPicture(width: width, height: height, alpha: false)))
            .write(to: folder.appendingPathComponent("big.png"))
        try Data(PictureEncoder.png(Support.busyPicture(width: 64, height: 64, alpha: false)))
            .write(to: folder.appendingPathComponent("small.png"))
        for name in ["big", "small"] {
            let encoded = try Self.sh("heif-enc -q 60 -o \(name).heic \(name).png", in: folder)
            try #require(encoded.status == 0, "heif-enc (Debian: libheif-examples): \(encoded.stderr)")
        }
        func frame(_ name: String, in megabytes: Int) throws -> CLITests.Result {
            try Self.sh("ulimit -v \(megabytes * 1024); timeout 60 \"$FRAMED\" \(name).heic -o out.png -f --size 300x200",
                        in: folder)
        }
        // The smallest limit, to 2 MiB, at which the small picture frames.
        var (low, high) = (16, 4000)
        try #require(try frame("small", in: high).status == 0, "the 64x64 HEIC does not frame in \(high) MiB")
        while high - low > 2 {
            let middle = (low + high) / 2
            if try frame("small", in: middle).status == 0 { high = middle } else { low = middle }
        }
        let asked = (16 * width * height) >> 20  // MiB
        let limits = Array(stride(from: high + 8, through: high + asked * 3 / 4, by: 4))
        #expect(limits.count >= 10, "\(limits)")
        for megabytes in limits {
            let r = try frame("big", in: megabytes)
            #expect(r.status == 1 && r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("big.heic")
                        && r.stderr.contains("out of memory"),
                    "the small picture frames in \(high) MiB; the large one in \(megabytes) MiB: exit \(r.status), \(r.stderr.prefix(300))")
        }
    }

    // MARK: Names, signals and edges

    /// `-o - | head -c 10`: the reader goes away; framed stops quietly with 141 (as a program
    /// that SIGPIPE ends), leaving nothing. And a batch whose messages go to a pipe that closes
    /// leaves no temporary file.
    @Test func aBrokenPipeEndsQuietly() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("\"$FRAMED\" photo.jpg -o - --format png --scale 4 2>err.txt | head -c 10 >/dev/null; "
                            + "echo \"${PIPESTATUS[0]}\"; cat err.txt", in: folder)
        #expect(r.stdout == "141\n", "\(r.stdout)")
        for i in 1...6 { try Self.warningJPEG(in: folder, name: "cut\(i).jpg") }
        for _ in 0..<3 {
            try Self.sh("\"$FRAMED\" cut*.jpg -o out/ --format png -f -j 2 2>&1 | head -1", in: folder)
            try HostileCLITests.expectNoTemporaryFiles(in: folder.appendingPathComponent("out"))
        }
    }

    /// A `SOURCE_DATE_EPOCH` out of range: a warning and the time of framing, never a crash.
    @Test(arguments: ["67768036191676799", "99999999999999999999", "-5", "soon"])
    func anUnusableSourceDateEpochIsWarnedAbout(_ value: String) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("SOURCE_DATE_EPOCH='\(value)' \"$FRAMED\" photo.jpg -o p.pdf", in: folder)
        #expect(r.status == 0)
        #expect(r.stderr == "framed: warning: SOURCE_DATE_EPOCH \"\(value)\" is not a number of seconds from 1970 to 9999; "
                    + "the time of framing is used\n", "\(r.stderr)")
        let info = try PrintTests.PDFObjects(folder.appendingPathComponent("p.pdf")).info
        let date = PDFDateTests.pdfDate(PrintTests.text(info["/CreationDate"]))
        #expect(date.map { abs($0.timeIntervalSinceNow) < 60 } == true, "\(String(describing: info["/CreationDate"]))")
        let last = try Self.sh("SOURCE_DATE_EPOCH=253402300799 \"$FRAMED\" photo.jpg -o q.pdf", in: folder)
        #expect(last.status == 0 && last.stderr.isEmpty)
        #expect(try String(decoding: Data(contentsOf: folder.appendingPathComponent("q.pdf")), as: UTF8.self)
                    .contains("/CreationDate (D:99991231235959+00'00')"))
    }

    /// `-r` walks past pipes and links to them (opening one would wait for a writer forever).
    @Test(.timeLimit(.minutes(1)))
    func aWalkSkipsPipes() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("""
            mkdir -p in && cp photo.jpg in/a.jpg && mkfifo in/pipe.jpg && ln -s pipe.jpg in/link.jpg
            timeout 20 "$FRAMED" in -r -o out/ --format png; echo "status $?"; ls out
            """, in: folder)
        #expect(r.stdout == "status 0\na.png\n", "\(r.stdout) \(r.stderr)")
    }

    /// File names are bytes: a name that is not UTF-8 is read, walked and written as it is.
    @Test func namesThatAreNotUTF8AreKept() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("""
            mkdir in && cp photo.jpg $'in/\\xff\\xfe.jpg'
            "$FRAMED" $'in/\\xff\\xfe.jpg' -o $'one-\\xff.png' && test -f $'one-\\xff.png' && echo one
            "$FRAMED" in -r -o out/ --format png && test -f $'out/\\xff\\xfe.png' && echo walked
            "$FRAMED" $'in/\\xff\\xfe.jpg' -o 'tpl/{stem}.svg' && test -f $'tpl/\\xff\\xfe.svg' && echo template
            "$FRAMED" $'missing-\\xff.jpg' -o x.png 2>&1
            """, in: folder)
        #expect(r.stdout.hasPrefix("one\nwalked\ntemplate\n"), "\(r.stdout) \(r.stderr)")
        #expect(r.stdout.contains("framed: missing-\\xff.jpg: cannot read (No such file or directory)"), "\(r.stdout)")
    }

    /// Control characters in a name are shown escaped: the message stays one line and cannot
    /// command the terminal.
    @Test func controlCharactersAreEscapedInMessages() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("printf 'no picture' > $'evil\\e]0;pwned\\a\\nline.png'; \"$FRAMED\" evil* -o x.png", in: folder)
        #expect(r.status == 1)
        #expect(r.stderr == "framed: evil\\x1b]0;pwned\\x07\\nline.png: not a picture (unsupported format)\n", "\(r.stderr)")
    }

    /// Output names up to the system's 255 bytes work (the temporary name is shortened).
    @Test func longOutputNamesWork() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for length in [240, 251, 255] {
            let name = String(repeating: "n", count: length - 4) + ".png"
            let r = try CLITests.framed(["photo.jpg", "-o", name], in: folder)
            #expect(r.status == 0, "\(length) bytes: \(r.stderr)")
            #expect(Self.isPNG(folder.appendingPathComponent(name)))
        }
    }

    /// `-r` with a template that writes into the walked folder, run twice: the first run's
    /// outputs are not framed again but replaced (with `-f`), in every format the walk reads
    /// back. framed knows them by its mark, which exiftool reads as any tool would (PNG and
    /// TIFF `Software`, the JPEG comment) and which is the line after an SVG's XML declaration.
    @Test(arguments: ["png", "jpg", "tif", "svg"])
    func aTemplateInsideTheWalkedFolderSkipsItsOwnOutputs(_ format: String) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("""
            mkdir in && cp photo.jpg in/a.jpg && cp shot.png in/b.png
            "$FRAMED" in -r -o 'in/{stem}-framed.\(format)' -q && cp in/a-framed.\(format) first
            "$FRAMED" in -r -o 'in/{stem}-framed.\(format)' -q -f --border 9px --padding 11px && ls in
            """, in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "a-framed.\(format)\na.jpg\nb-framed.\(format)\nb.png\n", "\(r.stdout)")
        let again = try Data(contentsOf: folder.appendingPathComponent("in/a-framed.\(format)"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("first")) != again, "the first run's output replaced")
        if format == "svg" {
            #expect(String(decoding: again, as: UTF8.self).split(separator: "\n").dropFirst().first == "<!-- framed -->")
        } else {
            let tag = format == "jpg" ? "Comment" : "Software"
            let read = try Tool.run("exiftool", ["-s3", "-\(tag)", folder.appendingPathComponent("in/a-framed.\(format)").path])
            #expect(read.output == "framed\n", "exiftool -\(tag): \(read.output) \(read.stderr)")
        }
    }

    /// A picture the walk finds is never replaced by another's output unless framed wrote it:
    /// a user's `a-framed.png` beside `a.png` stays an input, and the template that would write
    /// over it is refused (exit 2, nothing written). A template whose outputs have their input's
    /// name (`tw/framed/{stem}.png`) runs again over its own outputs, but not over a user's
    /// picture there.
    @Test func aTemplateNeverReplacesAPictureTheWalkFound() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var r = try Self.sh("""
            mkdir in && cp photo.jpg in/a.jpg && cp shot.png in/a-framed.png
            "$FRAMED" in -r -f -o 'in/{stem}-framed.png'
            """, in: folder)
        CLITests.expectOneLineError(r, status: 2, mentioning: ["in/a-framed.png", "of in/a.jpg", "another picture of this run"])
        #expect(try CLITests.files(in: folder.appendingPathComponent("in")) == ["a-framed.png", "a.jpg"])
        #expect(try Data(contentsOf: folder.appendingPathComponent("in/a-framed.png"))
                == Data(contentsOf: folder.appendingPathComponent("shot.png")), "the user's picture as it was")

        r = try Self.sh("""
            mkdir tw && cp shot.png tw/x.png
            "$FRAMED" tw -r -o 'tw/framed/{stem}.png' -f -q && "$FRAMED" tw -r -o 'tw/framed/{stem}.png' -f -q && find tw | sort
            """, in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "tw\ntw/framed\ntw/framed/x.png\ntw/x.png\n", "\(r.stdout)")

        r = try Self.sh("""
            mkdir mine mine/framed && cp shot.png mine/x.png && cp photo.jpg mine/framed/x.png
            "$FRAMED" mine -r -o 'mine/framed/{stem}.png' -f
            """, in: folder)
        CLITests.expectOneLineError(r, status: 2, mentioning: ["mine/framed/x.png", "it would be overwritten"])
        #expect(try Data(contentsOf: folder.appendingPathComponent("mine/framed/x.png"))
                == Data(contentsOf: folder.appendingPathComponent("photo.jpg")))
    }

    /// A folder that cannot be read while walking (here: deeper than PATH_MAX) is named in a
    /// warning, not skipped silently.
    @Test func anUnreadableFolderIsWarnedAbout() throws {
        let folder = try CLITests.workspace()
        defer { _ = try? Self.sh("rm -rf deep", in: folder); try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("""
            mkdir deep && cp photo.jpg deep/
            (cd deep && d=$(printf 'd%.0s' {1..200}) && for i in $(seq 25); do mkdir $d && cd $d; done)
            "$FRAMED" deep -r -o out/ --format png
            """, in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning: ") && r.stderr.contains("(File name too long)"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/photo.png").path))
    }

    /// Scales and resolutions too small to draw are usage errors that say why; a picture too
    /// long for an image surface still goes into a PDF and an SVG.
    @Test func absurdScalesAreUsageErrors() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (options, words) in [(["--scale", "0.00001"], ["--scale", "too small (at least 0.01)"]),
                                 (["--dpi", "1e-9"], ["--dpi", "too small (at least 1)"]),
                                 (["--image-dpi", "0.5"], ["--image-dpi", "too small (at least 1)"])] {
            let r = try CLITests.framed(["photo.jpg", "-o", "s.png"] + options, in: folder)
            CLITests.expectOneLineError(r, status: 2, mentioning: words)
        }
        let tall = RasterImage(width: 1, height: 40_000, pixels: [UInt8](repeating: 128, count: 160_000))
        try Data(PictureEncoder.png(tall)).write(to: folder.appendingPathComponent("tall.png"))
        for output in ["tall.pdf", "tall.svg"] {
            let r = try CLITests.framed(["tall.png", "-o", output], in: folder)
            #expect(r.status == 0, "\(output): \(r.stderr)")
        }
    }

    /// `--print-config` writes numbers exactly: what it prints loads back to the same settings.
    @Test func printedConfigsKeepEveryDigit() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try CLITests.framed(["--print-config", "--scale", "1.2345678", "--dpi", "123.4567891"], in: folder)
        #expect(r.stdout.contains("\"scale\": 1.2345678,") && r.stdout.contains("\"dpi\": 123.4567891,"), "\(r.stdout)")
        try Data(r.stdout.utf8).write(to: folder.appendingPathComponent("c.json"))
        let again = try CLITests.framed(["--print-config", "--config", "c.json"], in: folder)
        #expect(again.stdout == r.stdout)
    }

    /// A megabyte of digits in a config file makes a short one-line error.
    @Test func hugeValuesAreNotEchoedWhole() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let digits = String(repeating: "9", count: 900_000)
        // A value in a string, a bare number (JSON's own syntax error), a key before a missing
        // colon, and a number of the wrong type.
        let configs: [(String, [String])] = [
            ("{\"border\": \"\(digits)\"}", ["--border", "…"]),
            ("{\"dpi\": \(digits)}", ["the number 99999", "…", "too large"]),
            ("{\"dpi\": 1\(String(repeating: "0", count: 900_000)).5}", ["the number 10000", "…"]),
            ("{\"\(String(repeating: "k", count: 900_000))\" 1}", ["expected ':'", "kkkk", "…"]),
            ("{\"overwrite\": 1e308}", ["overwrite", "the number 1e+308"]),
        ]
        for (index, (text, words)) in configs.enumerated() {
            try Data(text.utf8).write(to: folder.appendingPathComponent("c\(index).json"))
            let r = try CLITests.framed(["photo.jpg", "-o", "x.png", "--config", "c\(index).json"], in: folder)
            CLITests.expectOneLineError(r, status: 2, mentioning: words)
            #expect(r.stderr.count < 300, "config \(index): \(r.stderr.count) characters")
        }
        // An output template's unknown placeholder (a command-line argument holds up to 128 KB).
        let long = String(repeating: "x", count: 100_000)
        let r = try CLITests.framed(["photo.jpg", "shot.png", "-o", "out/{\(long)}.png"], in: folder)
        CLITests.expectOneLineError(r, status: 2, mentioning: ["unknown placeholder {xxxx", "…"])
        #expect(r.stderr.count < 400, "\(r.stderr.count) characters")
        // A value in the environment: a warning, and the picture is framed.
        let engines = try Tool.run(CLITests.binary, ["photo.jpg", "-o", "e.png"], in: folder, environment: ["FRAMED_ENGINES": long])
        #expect(engines.status == 0 && engines.stderr.hasPrefix("framed: FRAMED_ENGINES: xxxx") && engines.stderr.contains("…"),
                "\(engines.stderr.prefix(200))")
        #expect(engines.stderr.count < 400, "\(engines.stderr.count) characters")
    }
}
