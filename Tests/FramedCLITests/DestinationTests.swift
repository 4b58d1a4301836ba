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

    /// A folder that cannot be made says why.
    @Test func aFolderThatCannotBeMadeSaysWhy() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("blocker"))
        let r = try CLITests.framed(["photo.jpg", "shot.png", "-o", "blocker/sub/{stem}.png"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["blocker/sub: cannot create the folder (Not a directory)"])
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
