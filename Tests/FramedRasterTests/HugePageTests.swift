import CCodecs
import Foundation
import Testing

/// `ccodecs_huge_alloc`: the buffers that a decode writes whole (the picture a resize follows,
/// the second decoder thread's records) on 2 MB pages from their first byte to their last.
struct HugePageTests {
    /// The kernel's setting for transparent huge pages, e.g. "madvise" ("[madvise]" in the file).
    static var transparentHugePages: String? {
        guard let text = try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8),
              let open = text.firstIndex(of: "["), let close = text.firstIndex(of: "]") else { return nil }
        return String(text[text.index(after: open)..<close])
    }

    /// The `THPeligible` line of the mapping in /proc/self/smaps that holds `address`.
    static func hugePageEligible(_ address: UInt) throws -> Int? {
        // Read to the end: /proc files give no size to read by.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? file.close() }
        let smaps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside && fields.first == "THPeligible:" {
                return fields.count > 1 ? Int(fields[1]) : nil
            }
        }
        return nil
    }

    @Test(arguments: [1, 2 << 20, 3 << 20, (24 << 20) + 4096])
    func memoryIsAlignedZeroedAndWholePages(size: Int) throws {
        let memory = try #require(ccodecs_huge_alloc(size))
        defer { ccodecs_huge_free(memory, size) }
        let huge = Int(CCODECS_HUGE_PAGE)
        #expect(UInt(bitPattern: memory) % UInt(huge) == 0, "begins on a 2 MB boundary")
        // Mapped up to the next whole huge page: every byte of it can be read and written.
        let rounded = (size + huge - 1) / huge * huge
        let bytes = memory.bindMemory(to: UInt8.self, capacity: rounded)
        #expect((0..<rounded).allSatisfy { bytes[$0] == 0 }, "fresh memory is zeroed")
        bytes.update(repeating: 0xA5, count: rounded)
        #expect(bytes[rounded - 1] == 0xA5)
        if let mode = Self.transparentHugePages, mode == "always" || mode == "madvise" {
            #expect(try Self.hugePageEligible(UInt(bitPattern: memory)) == 1, "advised onto 2 MB pages (THP \(mode))")
        }
    }

    @Test func nothingAskedOrTooMuchIsNull() {
        #expect(ccodecs_huge_alloc(0) == nil)
        #expect(ccodecs_huge_alloc(Int.max) == nil)
        ccodecs_huge_free(nil, 1 << 20) // nothing to free: no effect
    }
}
