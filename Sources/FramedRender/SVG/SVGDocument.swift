// An SVG picture is not decoded to pixels: librsvg draws it with Cairo calls onto the very context
// that draws the frame, so that in SVG and PDF output it stays paths and text, and a PNG gets it
// rasterised at the canvas's own resolution. That is why it lives here, in FramedRender, the one
// module that holds Cairo, rather than in FramedRaster (which decodes to `RasterImage`s and knows
// no Cairo) or a module of its own (which would need Cairo and FramedRender's context alike).
// FramedRaster still recognises the format (`PictureFormat.svg`) and reads the bytes.
internal import CCairo
internal import CRsvg
import FramedLayout
import FramedRaster
import FramedSystem
import Synchronization

/// An SVG document loaded by librsvg (an `RsvgHandle`, freed with the document), its natural size,
/// and what framed's own check found in it (`SVGCheck`). Loading and drawing each run on a thread
/// of their own with a 64 MB stack (librsvg follows references by recursion) and at most
/// `SVGLimits.seconds`: a document that takes longer is refused, and the thread, which nothing
/// can stop, finishes alone and frees what it holds.
package final class SVGDocument: @unchecked Sendable {
    // @unchecked: the handle is used by one thread at a time (`drawing`); the rest is constant.

    /// The natural size in CSS px: the root's `width` and `height` in any CSS unit, or its
    /// `viewBox`'s size (one user unit a px) for a side without one.
    package let width: Double
    package let height: Double
    /// What framed's check found: counts, and the addresses librsvg will not load.
    package let check: SVGCheck
    package let limits: SVGLimits
    private let handle: OpaquePointer
    /// Set while a thread draws with the handle.
    private let drawing = Atomic<Bool>(false)

    /// The stack of the threads that run librsvg: 1,000 levels of nesting and references (the
    /// most `SVGLimits.depth` lets through) took some 5 MB of it; only what is touched is memory.
    static let stackSize = 64 << 20

    private init(handle: OpaquePointer, width: Double, height: Double, check: SVGCheck, limits: SVGLimits) {
        self.handle = handle; self.width = width; self.height = height; self.check = check; self.limits = limits
    }

    deinit { crsvg_close(handle) }

    /// The natural size in points.
    package var naturalSize: Size { Size(width: width * 0.75, height: height * 0.75) }

    /// Checks the bytes (`SVGCheck`) and loads them with librsvg; errors are one line
    /// (`RasterError`: `.unsupportedContent` for what is refused, `.corrupt` for what librsvg
    /// cannot read).
    package static func load(_ bytes: [UInt8], limits: SVGLimits) throws(RasterError) -> SVGDocument {
        guard !bytes.isEmpty else { throw .empty }
        let check = try SVGCheck.run(bytes, limits: limits)
        let outcome: Result<SVGDocument, RasterError>?
        do {
            outcome = try WorkerThread.run(stackSize: stackSize, seconds: limits.seconds) {
                Result { () throws(RasterError) in try open(bytes, check: check, limits: limits) }
            }
        } catch {
            throw .unsupportedContent(.svg, "cannot read the SVG: \(error)")
        }
        guard let outcome else {
            throw .unsupportedContent(.svg, "SVG refused: librsvg took more than \(seconds(limits.seconds)) to read it")
        }
        return try outcome.get()
    }

    private static func open(_ bytes: [UInt8], check: SVGCheck, limits: SVGLimits) throws(RasterError) -> SVGDocument {
        var handle: OpaquePointer?
        try call { message in bytes.withUnsafeBufferPointer { crsvg_open($0.baseAddress, $0.count, &handle, message) } }
        guard let handle else { throw .corrupt(.svg, "librsvg gave no document") }
        var dimensions = crsvg_dimensions()
        crsvg_dimensions_of(handle, &dimensions)
        let size: (width: Double, height: Double)
        do { size = try naturalSize(dimensions) } catch {
            crsvg_close(handle)
            throw error
        }
        return SVGDocument(handle: handle, width: size.width, height: size.height, check: check, limits: limits)
    }

    /// Calls a `crsvg_` function with a message buffer and throws what its status means.
    private static func call(_ body: (UnsafeMutablePointer<CChar>) -> Int32) throws(RasterError) {
        let (status, message) = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(CRSVG_MESSAGE_SIZE)) {
            $0[0] = 0
            let status = body($0.baseAddress!)
            return (status, String(cString: $0.baseAddress!))
        }
        switch Int(status) {
        case Int(CRSVG_OK): return
        case Int(CRSVG_MISSING): throw .unsupportedContent(.svg, message)
        default: throw .corrupt(.svg, message)
        }
    }

    /// The largest natural side, in CSS px (some 26 km): any larger is a mistake, and would
    /// not survive the layout's arithmetic.
    package static let maximumSide = 1e8

    /// The natural size from what the root says: both `width` and `height` in absolute (or font)
    /// units, else the `viewBox` for the side in percent (SVG 2's default `auto` is 100%),
    /// keeping its shape when the other side is given.
    static func naturalSize(_ d: crsvg_dimensions) throws(RasterError) -> (width: Double, height: Double) {
        let size: (width: Double, height: Double)
        if d.has_pixels != 0 {
            size = (d.pixel_width, d.pixel_height)
        } else if d.has_viewbox != 0, d.viewbox_width > 0, d.viewbox_height > 0 {
            let w = pixels(d.width, unit: d.width_unit), h = pixels(d.height, unit: d.height_unit)
            switch (w, h) {
            case let (w?, nil): size = (w, w * d.viewbox_height / d.viewbox_width)
            case let (nil, h?): size = (h * d.viewbox_width / d.viewbox_height, h)
            default: size = (d.viewbox_width, d.viewbox_height)
            }
        } else {
            throw .unsupportedContent(.svg, "the SVG has no size: its root has neither a width and a height nor a viewBox")
        }
        guard size.width > 0, size.height > 0 else {
            throw .unsupportedContent(.svg, "the SVG has no area (\(text(size.width))x\(text(size.height)) px)")
        }
        guard size.width <= maximumSide, size.height <= maximumSide else {
            throw .unsupportedContent(.svg, "the SVG's size, \(text(size.width))x\(text(size.height)) px, "
                                      + "is over \(text(maximumSide)) px a side")
        }
        return size
    }

    /// A length in CSS px; nil for a percentage. Font units as librsvg takes them at the root
    /// (its default font size: 12 pt).
    static func pixels(_ length: Double, unit: Int32) -> Double? {
        switch Int(unit) {
        case Int(CRSVG_UNIT_PX): return length
        case Int(CRSVG_UNIT_IN): return length * 96
        case Int(CRSVG_UNIT_CM): return length * 96 / 2.54
        case Int(CRSVG_UNIT_MM): return length * 96 / 25.4
        case Int(CRSVG_UNIT_PT): return length * 96 / 72
        case Int(CRSVG_UNIT_PC): return length * 16
        case Int(CRSVG_UNIT_EM): return length * 16
        case Int(CRSVG_UNIT_EX): return length * 8
        default: return nil
        }
    }

    static func text(_ v: Double) -> String {
        v.isFinite && abs(v) < 1e15 && v == v.rounded() ? String(Int(v)) : String(printf: "%.4g", v)
    }

    static func seconds(_ v: Double) -> String { v == 1 ? "1 second" : "\(text(v)) seconds" }

    // MARK: Drawing

    /// Draws the whole document into `rect` of the context's user space, stretched to it (the
    /// layout gives the rect the document's shape unless `fit` is `fill`). The clip is the
    /// caller's. The context is used by librsvg's thread while the caller waits; if the time runs
    /// out, that thread keeps the context (and its surface) until it is done, and the caller
    /// must not use them again: the error ends the output.
    func draw(in context: CairoContext, rect: Rect) throws(RenderError) {
        guard rect.width > 0, rect.height > 0 else { return }
        guard drawing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            throw .cairo(operation: "drawing the SVG", message: "its earlier drawing has not ended")
        }
        if check.hasFilters {
            // A filter works on images of the whole picture's size, in device pixels.
            var w = rect.width, h = rect.height
            cairo_user_to_device_distance(context.pointer, &w, &h)
            let pixels = abs(w * h)
            guard pixels < 1e15, Memory.available(Int(pixels) * 16 + 1) else {
                drawing.store(false, ordering: .releasing)
                throw .cairo(operation: "drawing the SVG", message: "out of memory")
            }
        }
        let size = naturalSize
        let job = DrawJob(document: self, context: context)
        let outcome: Result<Void, RenderError>?
        do {
            outcome = try WorkerThread.run(stackSize: Self.stackSize, seconds: limits.seconds) {
                defer { job.document.drawing.store(false, ordering: .releasing) }
                return Result { () throws(RenderError) in
                    try job.document.render(on: job.context, rect: rect, size: size)
                }
            }
        } catch {
            drawing.store(false, ordering: .releasing)
            throw .cairo(operation: "drawing the SVG", message: error.description)
        }
        guard let outcome else {
            throw .cairo(operation: "drawing the SVG", message: "librsvg took more than \(Self.seconds(limits.seconds))")
        }
        try outcome.get()
    }

    /// What the drawing thread holds: the document and the context (with its surface and that
    /// surface's byte sink), until it ends.
    private struct DrawJob: @unchecked Sendable {
        let document: SVGDocument
        let context: CairoContext
    }

    /// On librsvg's thread: the document into `rect`, scaled from its natural `size` (points).
    private func render(on context: CairoContext, rect: Rect, size: Size) throws(RenderError) {
        try CairoNumbers.check("placing the SVG", rect.x, rect.y, rect.width / size.width, rect.height / size.height)
        let cr = context.pointer
        cairo_save(cr)
        cairo_translate(cr, rect.x, rect.y)
        cairo_scale(cr, rect.width / size.width, rect.height / size.height)
        let (status, message) = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(CRSVG_MESSAGE_SIZE)) {
            $0[0] = 0
            let status = crsvg_render(handle, UnsafeMutableRawPointer(cr), 0, 0, size.width, size.height, $0.baseAddress!)
            return (status, String(cString: $0.baseAddress!))
        }
        cairo_restore(cr)
        if status != CRSVG_OK { throw .cairo(operation: "drawing the SVG", message: message) }
        try context.checkStatus("drawing the SVG")
    }
}
