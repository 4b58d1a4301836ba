import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// Issue 23, where outputs go: each case an attacker's review found, held by the built binary.
/// Links planted by other users, disks, pipes, the shell's own descriptors, streams that are
/// closed or full, file size limits and names the system cannot take.
@Suite struct DestinationTests {
    static func sh(_ script: String, in folder: URL) throws -> CLITests.Result {
        try RobustnessTests.sh(script, in: folder)
    }

    static func text(_ folder: URL, _ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// The bytes of `name` from `offset` on decode as a picture.
    static func holdsPicture(_ folder: URL, _ name: String, from offset: Int = 0) -> Bool {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)), data.count > offset else { return false }
        return (try? Pictures.decode(data: [UInt8](data.dropFirst(offset)))) != nil
    }

    /// In a folder everyone may write to and only owners delete from (as /tmp), a link that
    /// another user made is not followed, whatever `fs.protected_symlinks` says: it could send
    /// root's output onto any file. A link of root's own there is followed.
    @Test(.enabled(if: getuid() == 0, "needs root (CI runs as root): only root can give a link to another owner"))
    func aLinkAnotherUserPlantedInASharedFolderIsNotFollowedAsRoot() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("""
            mkdir shared && chmod 1777 shared
            echo victim > victim.txt && echo mine > mine.png
            ln -s ../victim.txt shared/planted.png && chown -h 65534 shared/planted.png
            ln -s ../mine.png shared/own.png
            "$FRAMED" photo.jpg -o shared/planted.png -f; echo "planted $?"
            "$FRAMED" photo.jpg -o shared/own.png -f; echo "own $?"
            """, in: folder)
        #expect(r.stdout.contains("planted 1") && r.stdout.contains("own 0"), "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("framed: shared/planted.png: not written: a link that another user owns"), "\(r.stderr)")
        #expect(try Self.text(folder, "victim.txt") == "victim\n", "the file the link names is untouched")
        #expect(Self.holdsPicture(folder, "mine.png"), "root's own link is written through")
    }

    /// A block device (a disk) is never written, even with `-f`: one wrong `-o` would overwrite
    /// a file system. Needs root to make the device node; nothing opens it.
    @Test(.enabled(if: getuid() == 0, "needs root (CI runs as root): only root can make a device node"))
    func aBlockDeviceIsRefusedAsRoot() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("""
            mknod disk b 7 250 || exit 99
            "$FRAMED" photo.jpg -o disk --format png -f
            """, in: folder)
        try #require(r.status != 99, "mknod failed: \(r.stderr)")
        CLITests.expectOneLineError(r, status: 1, mentioning: ["disk", "not written", "block device"])
    }

    /// A named pipe with no reader is an error at once, not a wait for one; with a reader it
    /// gets the picture.
    @Test(.timeLimit(.minutes(1)))
    func aPipeWithoutAReaderIsAnErrorNotAWait() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #require(mkfifo(folder.appendingPathComponent("pipe").path, 0o600) == 0)
        let alone = try CLITests.framed(["photo.jpg", "-o", "pipe", "--format", "png"], in: folder)
        CLITests.expectOneLineError(alone, status: 1, mentioning: ["pipe", "a pipe that nothing reads from"])
        let read = try Self.sh("""
            cat pipe > got.png & reader=$!
            # Until cat has the pipe open, framed is refused as above: tried again.
            status=1
            for i in $(seq 200); do
                if "$FRAMED" photo.jpg -o pipe --format png 2>/dev/null; then status=0; break; fi
                sleep 0.05
            done
            [ $status = 0 ] || kill $reader
            wait $reader; exit $status
            """, in: folder)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(Self.holdsPicture(folder, "got.png"))
    }

    /// `-o /dev/stdout` and `-o /dev/fd/N` write to the descriptor the shell opened, as it
    /// opened it: `>>` appends after what the file held, `3>` lands in that file.
    @Test func theShellsDescriptorsAreWrittenAsOpened() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("""
            printf 'kept\\n' > appended.png
            "$FRAMED" photo.jpg -o /dev/stdout --format png >> appended.png || exit 1
            "$FRAMED" photo.jpg -o /dev/fd/3 --format png 3> three.png || exit 1
            "$FRAMED" photo.jpg -o /proc/self/fd/1 --format png | cat > piped.png
            """, in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("appended.png")).prefix(5) == Data("kept\n".utf8))
        #expect(Self.holdsPicture(folder, "appended.png", from: 5), "the picture follows what the file held")
        #expect(Self.holdsPicture(folder, "three.png"))
        #expect(Self.holdsPicture(folder, "piped.png"))
    }

    /// Standard output closed (`>&-`): what framed would write there is an error, not lost in
    /// /dev/null, for a picture and for text alike.
    @Test func aClosedStandardOutputIsAnError() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in ["\"$FRAMED\" photo.jpg -o - --format png >&-", "\"$FRAMED\" --version >&-",
                        "\"$FRAMED\" layout photo.jpg >&-"] {
            let r = try Self.sh(command, in: folder)
            CLITests.expectOneLineError(r, status: 1, mentioning: ["standard output", "Bad file descriptor"])
        }
    }

    /// Text framed prints (help, presets, the settings, layouts) that cannot be written (a full
    /// disk: /dev/full) is an error, as a picture is.
    @Test(arguments: ["--help", "--version", "presets", "--print-config", "layout photo.jpg", "--generate-manual"])
    func printedTextThatCannotBeWrittenIsAnError(_ command: String) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("\"$FRAMED\" \(command) > /dev/full", in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["standard output", "No space left on device"])
    }

    /// Past the file size limit (`ulimit -f`) a write fails with a message, for a file and for
    /// standard output; the signal that would end framed there (SIGXFSZ) is not let through,
    /// and nothing is left.
    @Test func aFileSizeLimitIsAnErrorNotAKill() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("""
            ulimit -f 4
            "$FRAMED" photo.jpg -o big.png --scale 4; echo "file $?"
            "$FRAMED" photo.jpg -o - --format png --scale 4 > piped.png; echo "stdout $?"
            """, in: folder)
        #expect(r.stdout == "file 1\nstdout 1\n", "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("framed: big.png: cannot write: File too large"), "\(r.stderr)")
        #expect(r.stderr.contains("framed: standard output: cannot write: File too large"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("big.png").path))
        try HostileCLITests.expectNoTemporaryFiles(in: folder)
    }

    /// A file name over the system's 255 bytes is refused before any picture is decoded.
    @Test func aNameTooLongIsRefusedFirst() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = String(repeating: "n", count: 300) + ".png"
        let r = try CLITests.framed(["photo.jpg", "-o", "out/" + name], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["a name in it is 304 bytes long", "over the 255"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path), "no folder made")
    }

    /// An output's folder that cannot be made is one line naming it, before any work.
    @Test func aFolderThatCannotBeMadeSaysWhy() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("blocker"))
        let r = try CLITests.framed(["photo.jpg", "shot.png", "-o", "blocker/sub/{stem}.png"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["blocker/sub: cannot create the folder (Not a directory)"])
        // Whatever names the output, its folder comes first: before the picture is even read.
        for output in [["-o", "blocker/x.png"], ["-o", "blocker/set.png", "--scale", "1,2"], ["-o", "blocker/", "-r"],
                       ["-o", "blocker/book.pdf", "--pages"]] {
            let e = try CLITests.framed(["missing.jpg"] + output, in: folder)
            CLITests.expectOneLineError(e, status: 1, mentioning: ["blocker: cannot create the folder (Not a directory)"])
        }
    }

    /// `-o out/` without `--format`: each picture in its own format where framed writes it (PNG,
    /// JPEG, TIFF, SVG), told by its bytes, and under its own name when that names the format;
    /// PNG for the others (GIF, WebP) and for an SVG that several scales write; PDF for PDF/X;
    /// `--format` still decides. Each file is what a single run writes.
    @Test func aFolderTakesEachPicturesOwnFormat() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var pixels = [UInt8]()
        for y in 0..<30 { for x in 0..<40 { pixels += [UInt8(x * 6), UInt8(y * 8), 90, 255] } }
        try Data(PictureBytes.tiff([TIFFPage(rgba: pixels, width: 40, height: 30, alpha: false)]))
            .write(to: folder.appendingPathComponent("scan.TIF"))
        try Data(PictureBytes.gif(width: 4, height: 2, palette: [(255, 0, 0), (0, 0, 255)], frames: [[0, 1, 0, 1, 1, 0, 1, 0]]))
            .write(to: folder.appendingPathComponent("anim.gif"))
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="teal"/></svg>"#.utf8)
            .write(to: folder.appendingPathComponent("icon.svg"))
        try FileManager.default.copyItem(at: folder.appendingPathComponent("shot.png"), to: folder.appendingPathComponent("misnamed.jpg"))
        let inputs = ["photo.jpg", "shot.png", "scan.TIF", "anim.gif", "icon.svg", "misnamed.jpg"]
        let r = try CLITests.framed(inputs + ["-o", "out/", "-q"], in: folder)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let magic: [(String, [UInt8])] = [("photo.jpg", [0xFF, 0xD8, 0xFF]), ("shot.png", [0x89, 0x50, 0x4E, 0x47]),
                                          ("scan.TIF", [0x49, 0x49, 0x2A, 0x00]), ("anim.png", [0x89, 0x50, 0x4E, 0x47]),
                                          ("icon.svg", Array("<?xml".utf8)), ("misnamed.png", [0x89, 0x50, 0x4E, 0x47])]
        #expect(try CLITests.files(in: folder.appendingPathComponent("out")) == magic.map(\.0).sorted())
        for (name, head) in magic {
            let bytes = try Data(contentsOf: folder.appendingPathComponent("out/" + name))
            #expect(Array(bytes.prefix(head.count)) == head, "out/\(name) is in its picture's format")
        }
        // The same bytes as a single run into that name.
        for (input, name) in [("photo.jpg", "photo.jpg"), ("scan.TIF", "scan.TIF"), ("anim.gif", "anim.png")] {
            let one = try CLITests.framed([input, "-o", "single-" + name], in: folder)
            #expect(one.status == 0, "\(one.stderr)")
            #expect(try Data(contentsOf: folder.appendingPathComponent("single-" + name))
                    == Data(contentsOf: folder.appendingPathComponent("out/" + name)), "\(name): folder = single")
        }
        // Several scales: an SVG picture gets PNG files; PDF/X: PDF; --format decides over all.
        var s = try CLITests.framed(["icon.svg", "photo.jpg", "-o", "set/", "--scale", "1,2", "-q"], in: folder)
        #expect(s.status == 0, "\(s.stderr)")
        #expect(try CLITests.files(in: folder.appendingPathComponent("set"))
                == ["icon.png", "icon@2x.png", "photo.jpg", "photo@2x.jpg"])
        s = try CLITests.framed(["shot.png", "-o", "x4/", "--pdf-variant", "x-4"], in: folder)
        #expect(s.status == 0, "\(s.stderr)")
        #expect(try CLITests.files(in: folder.appendingPathComponent("x4")) == ["shot.pdf"])
        s = try CLITests.framed(["photo.jpg", "scan.TIF", "-o", "svg/", "--format", "svg", "-q"], in: folder)
        #expect(s.status == 0, "\(s.stderr)")
        #expect(try CLITests.files(in: folder.appendingPathComponent("svg")) == ["photo.svg", "scan.svg"])
        s = try CLITests.framed(["photo.jpg", "-o", "jpeg/", "--format", "jpeg"], in: folder)
        #expect(s.status == 0, "\(s.stderr)")
        #expect(try CLITests.files(in: folder.appendingPathComponent("jpeg")) == ["photo.jpg"], "a name that says the format is kept")
    }

    /// Every output's missing folders are made, as `mkdir -p` makes them (0777 less the umask;
    /// the output 0666 less it), whatever names the output: a file, a set, a template, a
    /// folder, --pages. Existing folders are left as they are; --dry-run and a usage error make
    /// none.
    @Test func everyOutputsFoldersAreMadeAsMkdirDoes() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("""
            umask 027
            mkdir -m 700 kept
            "$FRAMED" photo.jpg -o one/two/x.png
            "$FRAMED" shot.png -o set/term.png --scale 1,2,3
            "$FRAMED" photo.jpg shot.png -o 'tpl/{stem}/f.svg' -q
            "$FRAMED" photo.jpg shot.png -o dir/sub/ -q
            "$FRAMED" photo.jpg shot.png --pages -o pages/book.pdf -q
            "$FRAMED" photo.jpg -o kept/deeper/x.pdf
            "$FRAMED" photo.jpg -o dry/x.png --dry-run > /dev/null
            "$FRAMED" photo.jpg -o bad/x.png --border nonsense 2> /dev/null; echo "usage $?"
            stat -c '%a %n' one one/two one/two/x.png set set/term@3x.png tpl tpl/shot tpl/shot/f.svg dir dir/sub \
                dir/sub/photo.jpg pages pages/book.pdf kept kept/deeper kept/deeper/x.pdf
            ls -d dry bad 2>&1 | sed 's/.*cannot access/missing/'
            """, in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let modes = r.stdout.split(separator: "\n").map(String.init)
        #expect(modes.contains("usage 2"))
        for line in modes where line.contains(" ") && !line.hasPrefix("usage") && !line.hasPrefix("missing") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            let file = parts[1].contains(".")
            let want = parts[1] == "kept" ? "700" : file ? "640" : "750"
            #expect(parts[0] == want, "\(parts[1]): mode \(parts[0]), not \(want)")
        }
        #expect(modes.filter { $0.hasPrefix("missing") }.count == 2, "\(r.stdout)")
        #expect(modes.filter { !$0.hasPrefix("missing") && !$0.hasPrefix("usage") }.count == 16, "every output made: \(r.stdout)")
    }

    /// Two output names for one file (a folder and a link to it) are found before anything is
    /// written, as two equal names are.
    @Test func twoNamesForOneFileAreOneOutput() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("""
            mkdir real && ln -s real alias && cp photo.jpg real.jpg && cp photo.jpg alias.jpg
            "$FRAMED" real.jpg alias.jpg -o '{stem}/framed.png'
            """, in: folder)
        CLITests.expectOneLineError(r, status: 2, mentioning: ["would both be written to"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("real/framed.png").path))
    }

    /// When a walk finds no picture because folders could not be read, the warnings naming
    /// them come before "no pictures found".
    @Test func theFoldersLeftOutAreNamedWhenNoPictureIsFound() throws {
        let folder = try CLITests.workspace()
        defer { _ = try? Self.sh("rm -rf deep", in: folder); try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("""
            mkdir deep
            (cd deep && d=$(printf 'd%.0s' {1..200}) && for i in $(seq 25); do mkdir $d && cd $d; done && cp ../photo.jpg . 2>/dev/null)
            "$FRAMED" deep -r -o out/ --format png
            """, in: folder)
        #expect(r.status == 2)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(r.stderr)")
        #expect(lines.first?.contains("warning: ") == true && lines.first?.contains("(File name too long)") == true, "\(r.stderr)")
        #expect(lines.last?.contains("no pictures found in deep") == true, "\(r.stderr)")
    }

    /// Title and author go into the PDF as they are written: text that is not UTF-8 would come
    /// out as other characters, and is refused.
    @Test(arguments: ["title", "author"])
    func metadataThatIsNotUTF8IsRefused(_ setting: String) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.sh("\"$FRAMED\" photo.jpg -o t.pdf --\(setting) $'caf\\xe9'", in: folder)
        CLITests.expectOneLineError(r, status: 2, mentioning: ["--\(setting)", "is not UTF-8 text", "0xE9"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("t.pdf").path))
    }
}
