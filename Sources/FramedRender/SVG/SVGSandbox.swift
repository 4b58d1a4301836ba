internal import CCairo
internal import CRsvg
import FramedLayout
import FramedRaster
import FramedSystem
internal import Glibc

/// librsvg run in a child process: framed itself, started with `argument` first. librsvg 2.54
/// ends the process that runs it on a Rust panic (a `font-size` of 1e7 is one: "assertion
/// failed: h >= 0.0") and when an allocation fails, GLib when it cannot start a thread, and no
/// thread can be stopped when a drawing runs past its time. In a child, each of these ends the
/// child: the picture gets one line, a batch goes on, and a drawing that runs out of time is
/// killed, its memory given back at once.
///
/// Each step is a child of its own that ends with it: learning the natural size (`load`),
/// drawing on an image (the pixels come back through memory both processes map: the parent
/// never loads librsvg), and rehearsing a drawing on a vector surface of the kind the output
/// is, before the parent draws the same document on its own (SVG and PDF keep librsvg's paths
/// and text, which only a drawing on the output's own surface gives). A child's private memory
/// is held to `memoryLimit` (`RLIMIT_DATA`), its time to `SVGLimits.seconds`.
package struct SVGSandbox: Sendable, Equatable {
    /// The framed executable to run (`/proc/self/exe` for framed itself).
    package var executable: String

    /// A sandbox that runs `executable`.
    package init(executable: String) { self.executable = executable }

    /// The first argument that makes framed a sandbox: `framed --svg-sandbox STEP...` serves
    /// one step (`serve`) and ends.
    package static let argument = "--svg-sandbox"

    /// The most private memory a child may take for a document with these pictures drawn on
    /// `devicePixels` pixels: 1 GiB for librsvg and its libraries, the document's tree and
    /// text, 8 bytes for each pixel of its embedded pictures (librsvg holds each as a pixbuf and
    /// a Cairo surface), and 16 for each pixel drawn (the groups and filters that librsvg draws
    /// off screen, four layers as large as the picture).
    static func memoryLimit(check: SVGCheck, devicePixels: Int) -> Int {
        let (pictures, o1) = check.embeddedPixels.multipliedReportingOverflow(by: 8)
        let (drawn, o2) = devicePixels.multipliedReportingOverflow(by: 16)
        let (sum, o3) = pictures.addingReportingOverflow(drawn)
        let (total, o4) = sum.addingReportingOverflow(1 << 30)
        return o1 || o2 || o3 || o4 ? Int.max : total
    }

    // MARK: The parent's side

    /// The part of a context's target that the clip leaves, in whole device pixels (or points,
    /// on a vector surface), and the user-to-device matrix that a child's surface of that size
    /// draws with.
    struct DeviceArea {
        var x: Int, y: Int, width: Int, height: Int
        /// The context's user-to-device matrix, moved so that the area's corner is the origin.
        var matrix: cairo_matrix_t
        /// Whether the target is an image surface (a PNG, JPEG or TIFF output).
        var isImage: Bool
        /// The kind of surface, as the child names it: image, pdf or svg.
        var kind: String

        /// nil when the clip leaves nothing.
        init?(_ context: CairoContext) {
            let cr = context.pointer
            let target = cairo_get_target(cr)
            switch cairo_surface_get_type(target) {
            case CAIRO_SURFACE_TYPE_IMAGE: kind = "image"
            case CAIRO_SURFACE_TYPE_SVG: kind = "svg"
            default: kind = "pdf"
            }
            isImage = kind == "image"
            var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
            cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
            var m = cairo_matrix_t()
            cairo_get_matrix(cr, &m)
            var xs: [Double] = [], ys: [Double] = []
            for (u, v) in [(x1, y1), (x2, y1), (x1, y2), (x2, y2)] {
                var dx = u, dy = v
                cairo_matrix_transform_point(&m, &dx, &dy)
                xs.append(dx); ys.append(dy)
            }
            var left = xs.min()!.rounded(.down), top = ys.min()!.rounded(.down)
            var right = xs.max()!.rounded(.up), bottom = ys.max()!.rounded(.up)
            if isImage {
                left = max(0, left); top = max(0, top)
                right = min(Double(cairo_image_surface_get_width(target)), right)
                bottom = min(Double(cairo_image_surface_get_height(target)), bottom)
            }
            let limit = Double(CairoImageSurface.maximumSide)
            guard left.isFinite, top.isFinite, right.isFinite, bottom.isFinite, right > left, bottom > top,
                  abs(left) < 1e9, abs(top) < 1e9, right - left <= limit, bottom - top <= limit else { return nil }
            x = Int(left); y = Int(top); width = Int(right - left); height = Int(bottom - top)
            m.x0 -= left
            m.y0 -= top
            matrix = m
        }

        /// The arguments that describe the area to a child.
        var arguments: [String] {
            [kind, String(width), String(height)] + [matrix.xx, matrix.yx, matrix.xy, matrix.yy, matrix.x0, matrix.y0].map(\.description)
        }
    }

    /// The natural size in CSS px, as librsvg reads the root in a child.
    func naturalSize(of bytes: [UInt8], check: SVGCheck, limits: SVGLimits) throws(RasterError) -> (width: Double, height: Double) {
        let reply = try run(["load"], bytes: bytes, check: check, limits: limits, devicePixels: 0)
        let words = reply.first { $0.first == "size" } ?? []
        guard words.count == 3, let width = Double(words[1]), let height = Double(words[2]) else {
            throw .corrupt(.svg, "framed's SVG sandbox answered without a size")
        }
        return (width, height)
    }

    /// The child draws the document into `rect` within `area` of an image in shared memory;
    /// the pixels are painted at the area's place on `context` (through its clip).
    func drawPixels(_ bytes: [UInt8], check: SVGCheck, limits: SVGLimits, area: DeviceArea, rect: Rect, size: Size,
                    onto context: CairoContext) throws(RenderError) {
        let count = area.width * area.height * 4
        guard Memory.available(count) else { throw .cairo(operation: "drawing the SVG", message: "out of memory") }
        let memory: SharedMemory
        do { memory = try SharedMemory(count: count, name: "framed-svg") } catch {
            throw .cairo(operation: "drawing the SVG", message: error.code == ENOMEM ? "out of memory" : "\(error)")
        }
        do {
            _ = try run(["draw"] + area.arguments + Self.words(rect, size), bytes: bytes, check: check, limits: limits,
                        devicePixels: area.width * area.height, shared: memory)
        } catch {
            throw .cairo(operation: "drawing the SVG", message: error.description)
        }
        let surface = try CairoSurface(
            taking: cairo_image_surface_create_for_data(memory.address.assumingMemoryBound(to: UInt8.self),
                                                        CAIRO_FORMAT_ARGB32, Int32(area.width), Int32(area.height),
                                                        Int32(area.width * 4)),
            "reading the SVG's pixels")
        let cr = context.pointer
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, surface.pointer, Double(area.x), Double(area.y))
        cairo_paint(cr)
        cairo_restore(cr)
        // The pattern that held the surface is gone with the restore; the pixels are painted.
        cairo_surface_finish(surface.pointer)
        try context.checkStatus("drawing the SVG")
        withExtendedLifetime(memory) {}
    }

    /// The child draws the document on a vector surface of `area`'s kind and size that writes
    /// nowhere; the bytes of address space the drawing added to the child (what this process
    /// will need to draw it too), or an error if it failed.
    func rehearse(_ bytes: [UInt8], check: SVGCheck, limits: SVGLimits, area: DeviceArea, rect: Rect,
                  size: Size) throws(RenderError) -> Int {
        let reply: [[Substring]]
        do {
            reply = try run(["draw"] + area.arguments + Self.words(rect, size), bytes: bytes, check: check, limits: limits,
                            devicePixels: area.width * area.height)
        } catch {
            throw .cairo(operation: "drawing the SVG", message: error.description)
        }
        let words = reply.first { $0.first == "memory" } ?? []
        return words.count == 2 ? Int(words[1]) ?? 0 : 0
    }

    private static func words(_ rect: Rect, _ size: Size) -> [String] {
        [rect.x, rect.y, rect.width, rect.height, size.width, size.height].map(\.description)
    }

    /// Runs one step in a child with the document in shared memory (its descriptor 3) and
    /// `shared` as descriptor 4; the reply's lines split into words, or the error that says how
    /// the child failed, in one line.
    private func run(_ step: [String], bytes: [UInt8], check: SVGCheck, limits: SVGLimits, devicePixels: Int,
                     shared: SharedMemory? = nil) throws(RasterError) -> [[Substring]] {
        let document: SharedMemory
        do { document = try SharedMemory(count: max(1, bytes.count), name: "framed-svg-document") } catch {
            throw error.code == ENOMEM ? .outOfMemory : .unsupportedContent(.svg, "cannot start framed's SVG sandbox: \(error)")
        }
        bytes.withUnsafeBytes { document.address.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        let limit = limits.childMemory ?? Self.memoryLimit(check: check, devicePixels: devicePixels)
        let arguments = ["framed", Self.argument, String(getpid()), String(bytes.count), String(limits.embeddedPixels),
                         String(limit)] + step
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(executable, arguments: arguments,
                                           environment: ["SWIFT_BACKTRACE": "enable=no", "RUST_BACKTRACE": "0"],
                                           descriptors: [document.descriptor] + (shared.map { [$0.descriptor] } ?? []),
                                           seconds: limits.seconds)
        } catch {
            throw error.code == ENOMEM || error.code == EAGAIN ? .outOfMemory
                : .unsupportedContent(.svg, "cannot start framed's SVG sandbox: \(error)")
        }
        let lines = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n")
            .map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        if outcome.termination == .exited(0), let last = lines.last, last.first == "ok" { return lines }
        if outcome.termination == .exited(0), let error = lines.first(where: { $0.first == "error" }), error.count >= 2 {
            let message = error.dropFirst(2).joined(separator: " ")
            switch error[1] {
            case "memory": throw .outOfMemory
            case "corrupt": throw .corrupt(.svg, message)
            default: throw .unsupportedContent(.svg, message)
            }
        }
        throw Self.failure(outcome, step: step.first == "load" ? "read" : "draw", limits: limits, memoryLimit: limit)
    }

    /// One line for a child that ended without a reply: the time it ran out of, the memory it
    /// ran out of, librsvg's panic, or the signal that ended it.
    static func failure(_ outcome: ChildProcess.Outcome, step: String, limits: SVGLimits, memoryLimit: Int) -> RasterError {
        let errors = String(decoding: outcome.errors, as: UTF8.self)
        if outcome.termination == .timedOut {
            return .unsupportedContent(.svg, "SVG refused: librsvg took more than \(SVGDocument.seconds(limits.seconds)) to \(step) it")
        }
        let memory = ["memory allocation of", "out of memory", "Cannot allocate memory", "failed to allocate",
                      "Resource temporarily unavailable", "failed to map segment"]
        if memory.contains(where: { errors.containsOccurrence(of: $0) }) { return .outOfMemory }
        if let panic = panicMessage(errors) {
            return .unsupportedContent(.svg, "librsvg failed on the SVG and stopped (\(panic))")
        }
        switch outcome.termination {
        case .signalled:
            // Under an address-space limit (ulimit -v) the libraries crash where an allocation
            // fails: that is what ended the child, far more often than the document.
            var limit = rlimit()
            if getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
                return .outOfMemory
            }
            if case let .signalled(signal) = outcome.termination {
                return .unsupportedContent(.svg, "librsvg failed on the SVG and stopped (\(signalName(signal)))")
            }
            return .unsupportedContent(.svg, "framed's SVG sandbox stopped without an answer")
        default:
            return .unsupportedContent(.svg, "framed's SVG sandbox stopped without an answer")
        }
    }

    /// What a Rust panic said, from its report on standard error: `panicked at 'MESSAGE',
    /// FILE:LINE:COLUMN` (Rust before 1.73) or `panicked at FILE:LINE:COLUMN:` then the message
    /// on the next line; cut to 120 characters.
    static func panicMessage(_ errors: String) -> String? {
        let lines = errors.split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.firstIndex(where: { $0.containsOccurrence(of: "panicked at ") }) else { return nil }
        let line = lines[index]
        var text = String(line[line.firstOccurrence(of: "panicked at ")!.upperBound...])
        if text.hasPrefix("'"), let start = text.indices.reversed().first(where: { text[$0...].hasPrefix("', ") }) {
            let end = start..<text.index(start, offsetBy: 3)
            text = String(text[text.index(after: text.startIndex)..<end.lowerBound]) + " at " + text[end.upperBound...]
        } else if text.hasSuffix(":"), index + 1 < lines.count {
            text = lines[index + 1] + " at " + text.dropLast()
        }
        let cleaned = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        return cleaned.count > 120 ? String(cleaned.prefix(120)) + "..." : cleaned
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGABRT: "SIGABRT, an abort"
        case SIGSEGV: "SIGSEGV, a bad memory access"
        case SIGBUS: "SIGBUS, a bad memory access"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        default: "signal \(signal)"
        }
    }
}

// MARK: The child's side

extension SVGSandbox {
    /// Serves one step as the child (`framed --svg-sandbox PARENT BYTES MAX-PIXELS MEMORY
    /// STEP...`, the document's bytes in descriptor 3): `load` answers `size WIDTH HEIGHT`;
    /// `draw KIND WIDTH HEIGHT XX YX XY YY X0 Y0 X Y W H NATURAL-WIDTH NATURAL-HEIGHT` draws the
    /// document into the rect X Y W H of a surface of that kind and size with that matrix (an
    /// image: the pixels in descriptor 4, premultiplied ARGB32 rows without padding) and
    /// answers `memory BYTES`, the address space the drawing added. Every answer ends with
    /// `ok`; a failure is `error corrupt|unsupported|memory MESSAGE`. The exit status is 0 when
    /// an answer was written.
    package static func serve(_ arguments: [String]) -> Int32 {
        func answer(_ lines: [String]) -> Int32 {
            let text = lines.map { line in
                String(line.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
            }.joined(separator: "\n") + "\n"
            return (try? FileDescriptor.standardOutput.write(text)) == nil ? 1 : 0
        }
        func refuse(_ error: RasterError) -> Int32 {
            switch error {
            case .outOfMemory: answer(["error memory out of memory"])
            case let .corrupt(_, message): answer(["error corrupt " + message])
            case let .unsupportedContent(_, message): answer(["error unsupported " + message])
            default: answer(["error unsupported \(error)"])
            }
        }
        guard arguments.count >= 5, let parent = Int(arguments[0]), let count = Int(arguments[1]), count > 0,
              let maxPixels = Int(arguments[2]), let memoryLimit = UInt64(arguments[3]) else {
            return answer(["error unsupported framed's SVG sandbox was started without its arguments"])
        }
        guard crsvg_sandbox_setup(parent, memoryLimit) == 0 else {
            return answer(["error unsupported framed's SVG sandbox cannot set its limits: \(SystemError.last)"])
        }
        let start = addressSpace("VmSize:")
        let bytes: [UInt8]
        do {
            let shared = try SharedMemory(descriptor: 3, count: count)
            bytes = Array(UnsafeRawBufferPointer(start: shared.address, count: count))
        } catch {
            return answer(["error unsupported framed's SVG sandbox cannot read the document: \(error)"])
        }
        var limits = SVGLimits(maxPixels: maxPixels)
        limits.seconds = 1e9  // the parent keeps the time
        let document: SVGDocument
        // The parent checked the document (and sanitized it): its filters' work, which the
        // parent weighed against the area, is not weighed again here.
        do { document = try SVGDocument.load(bytes, checked: SVGCheck(), limits: limits, sandbox: nil) } catch {
            return refuse(error)
        }
        let step = Array(arguments[4...])
        switch step.first {
        case "load":
            return answer(["size \(document.width) \(document.height)", "ok"])
        case "draw":
            let numbers = step.dropFirst(2).compactMap(Double.init)
            guard step.count == 16, numbers.count == 14, let width = Int(step[2]), let height = Int(step[3]),
                  width > 0, height > 0 else {
                return answer(["error unsupported framed's SVG sandbox was asked to draw without a place"])
            }
            let matrix = Array(numbers[2..<8])
            let rect = Rect(x: numbers[8], y: numbers[9], width: numbers[10], height: numbers[11])
            do {
                try drawHere(document, kind: step[1], width: width, height: height, matrix: matrix, rect: rect)
            } catch {
                if case let .cairo(_, message) = error {
                    return answer([message == "out of memory" ? "error memory out of memory" : "error unsupported " + message])
                }
                return answer(["error unsupported \(error)"])
            }
            return answer(["memory \(max(0, addressSpace("VmPeak:") - start))", "ok"])
        default:
            return answer(["error unsupported framed's SVG sandbox has no step \(step.first ?? "")"])
        }
    }

    /// The child's drawing: on an image in descriptor 4, or on a vector surface that writes
    /// nowhere, with the parent's matrix.
    private static func drawHere(_ document: SVGDocument, kind: String, width: Int, height: Int, matrix: [Double],
                                 rect: Rect) throws(RenderError) {
        let surface: CairoSurface
        var shared: SharedMemory?
        let discard: cairo_write_func_t = { _, _, _ in CAIRO_STATUS_SUCCESS }
        switch kind {
        case "image":
            do { shared = try SharedMemory(descriptor: 4, count: width * height * 4) } catch {
                throw .cairo(operation: "drawing the SVG", message: "framed's SVG sandbox cannot map the pixels: \(error)")
            }
            surface = try CairoSurface(
                taking: cairo_image_surface_create_for_data(shared!.address.assumingMemoryBound(to: UInt8.self),
                                                            CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(width * 4)),
                "creating the picture's image")
        case "svg":
            surface = try CairoSurface(taking: cairo_svg_surface_create_for_stream(discard, nil, Double(width), Double(height)),
                                       "creating the SVG")
            cairo_svg_surface_set_document_unit(surface.pointer, CAIRO_SVG_UNIT_PT)
        default:
            surface = try CairoSurface(taking: cairo_pdf_surface_create_for_stream(discard, nil, Double(width), Double(height)),
                                       "creating the PDF")
        }
        let context = try CairoContext(surface)
        var m = cairo_matrix_t(xx: matrix[0], yx: matrix[1], xy: matrix[2], yy: matrix[3], x0: matrix[4], y0: matrix[5])
        cairo_set_matrix(context.pointer, &m)
        try context.checkStatus("placing the SVG")
        try document.draw(in: context, rect: rect)
        cairo_surface_flush(surface.pointer)
        try surface.finish()
        withExtendedLifetime(shared) {}
    }

    /// The process's address space in bytes, now (`VmSize:`) or at its largest (`VmPeak:`), as
    /// /proc/self/status says; 0 when unknown.
    static func addressSpace(_ key: String) -> Int {
        guard let file = try? FileDescriptor.openForReading("/proc/self/status") else { return 0 }
        defer { try? file.close() }
        let text = String(decoding: (try? file.read(upTo: 1 << 16)) ?? [], as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            let digits = line.dropFirst(key.count).filter { $0.isNumber }
            return (Int(String(digits)) ?? 0) * 1024
        }
        return 0
    }
}
