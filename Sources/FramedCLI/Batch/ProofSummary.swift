import Framed
import FramedSystem

/// What `--proof` says when it is done: the proof files written, and how much of the pictures
/// the press cannot print.
enum ProofSummary {
    /// One picture's part of a soft proof.
    struct File: Sendable {
        /// The proof file the picture is in.
        var path: String
        /// The picture, as messages name it.
        var picture: String
        /// The picture's pixels in the proof, and those out of gamut (`pixels` 0: the share alone
        /// is known).
        var pixels = 0
        var outOfGamut = 0
        /// The share of the picture's pixels out of gamut, from 0 to 1.
        var share: Double

        init(path: String, picture: String, share: Double) { self.path = path; self.picture = picture; self.share = share }

        init(path: String, picture: String, pixels: Int, outOfGamut: Int) {
            self.init(path: path, picture: picture, share: pixels == 0 ? 0 : Double(outOfGamut) / Double(pixels))
            self.pixels = pixels
            self.outOfGamut = outOfGamut
        }
    }

    /// `soft proof p.png: 12.3 % of the picture is out of the press's gamut`; for several
    /// pictures the files' range, the share of all their pixels, and the picture with the most.
    static func line(_ files: [File]) -> String? {
        guard let first = files.first else { return nil }
        func percent(_ share: Double) -> String { String(printf: "%.1f %%", share * 100) }
        guard files.count > 1 else {
            return "soft proof \(first.path): \(percent(first.share)) of the picture is out of the press's gamut"
        }
        let paths = files.map(\.path).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        let pixels = files.reduce(0) { $0 + $1.pixels }, out = files.reduce(0) { $0 + $1.outOfGamut }
        let share = pixels > 0 ? Double(out) / Double(pixels) : files.reduce(0) { $0 + $1.share } / Double(files.count)
        var text = "soft proof " + (paths.count == 1 ? paths[0] : "\(paths[0]) to \(paths[paths.count - 1])")
            + ": \(percent(share)) of the pictures' pixels are out of the press's gamut"
        if let most = files.max(by: { $0.share < $1.share }), most.share > 0 {
            text += "; most in \(most.picture) (\(percent(most.share)))"
        }
        return text
    }
}
