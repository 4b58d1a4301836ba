// An SVG picture is not decoded to pixels: librsvg draws it with Cairo calls onto the very context
// that draws the frame, so that in SVG and PDF output it stays paths and text, and a PNG gets it
// rasterised at the canvas's own resolution. That is why it lives here, in FramedRender, the one
// module that holds Cairo, rather than in FramedRaster (which decodes to `RasterImage`s and knows
// no Cairo) or a module of its own (which would need Cairo and FramedRender's context alike).
// FramedRaster still recognises the format (`PictureFormat.svg`) and reads the bytes.
internal import CCairo
internal import CRsvg
internal import Glibc
import FramedLayout
import FramedRaster
import FramedSystem
import Synchronization

/// An SVG document read by librsvg: its natural size, what framed's own check found in it
/// (`SVGCheck`), and the means to draw it.
///
/// Where librsvg runs depends on `sandbox`. Without one, in this process: the document is loaded
/// at once (an `RsvgHandle`, freed with the document), and loading and drawing each run on a
/// thread of their own with a 64 MB stack (librsvg follows references by recursion) and at most
/// `SVGLimits.seconds`: a document that takes longer is refused, and the thread, which nothing
/// can stop, finishes alone and frees what it holds. With a sandbox, librsvg runs in a child
/// process for every step that can fail (`SVGSandbox`): a panic, an abort or a timeout ends
/// the child, not framed, and costs one line for this picture.
package final class SVGDocument: @unchecked Sendable {
    // @unchecked: the handle is used by one thread at a time (`drawing`); the rest is constant.

    /// The natural size in CSS px: the root's `width` and `height` in any CSS unit, or its
    /// `viewBox`'s size (one user unit a px) for a side without one.
    package let width: Double
    package let height: Double
    /// What framed's check found: counts, and the addresses librsvg will not load.
    package let check: SVGCheck
    package let limits: SVGLimits
    /// Where librsvg runs; nil: in this process.
    package let sandbox: SVGSandbox?
    /// The document's bytes (for the sandbox's drawing, and a handle loaded late).
    let bytes: [UInt8]
    /// librsvg's handle in this process: made at once without a sandbox, else only when a
    /// vector output needs the document drawn here (after the sandbox has drawn it).
    private let handle = Mutex<LibraryHandle?>(nil)
    /// Set while a thread draws with the handle.
    private let drawing = Atomic<Bool>(false)

    /// The stack of the threads that run librsvg: 1,000 levels of nesting and references (the
    /// most `SVGLimits.depth` lets through) took some 5 MB of it; only what is touched is memory.
    static let stackSize = 64 << 20

    private init(bytes: [UInt8], handle: LibraryHandle?, width: Double, height: Double, check: SVGCheck, limits: SVGLimits,
                 sandbox: SVGSandbox?) {
        self.bytes = bytes; self.width = width; self.height = height; self.check = check; self.limits = limits
        self.sandbox = sandbox
        self.handle.withLock { $0 = handle }
    }

    /// The natural size in points.
    package var naturalSize: Size { Size(width: width * 0.75, height: height * 0.75) }

    /// Checks the bytes (`SVGCheck`) and loads them with librsvg, in `sandbox` if there is one;
    /// errors are one line (`RasterError`: `.unsupportedContent` for what is refused, `.corrupt`
    /// for what librsvg cannot read, `.outOfMemory`).
    package static func load(_ bytes: [UInt8], limits: SVGLimits, sandbox: SVGSandbox? = nil) throws(RasterError) -> SVGDocument {
        guard !bytes.isEmpty else { throw .empty }
        let check = try SVGCheck.run(bytes, limits: limits)
        return try load(check.sanitized(bytes), checked: check, limits: limits, sandbox: sandbox)
    }

    /// Loads bytes that `check` was made of (and sanitized): a sandbox's child loads what its
    /// parent checked without checking again.
    static func load(_ bytes: [UInt8], checked check: SVGCheck, limits: SVGLimits,
                     sandbox: SVGSandbox?) throws(RasterError) -> SVGDocument {
        if let sandbox {
            let size = try sandbox.naturalSize(of: bytes, check: check, limits: limits)
            return SVGDocument(bytes: bytes, handle: nil, width: size.width, height: size.height, check: check,
                               limits: limits, sandbox: sandbox)
        }
        let loaded = try loadHere(bytes, limits: limits)
        let size = try naturalSize(loaded.dimensions)
        return SVGDocument(bytes: bytes, handle: loaded.handle, width: size.width, height: size.height, check: check,
                           limits: limits, sandbox: nil)
    }

    /// librsvg's handle for `bytes`, made in this process on a thread of its own within the
    /// time limit, and what the root says of its size.
    static func loadHere(_ bytes: [UInt8], limits: SVGLimits) throws(RasterError)
        -> (handle: LibraryHandle, dimensions: crsvg_dimensions) {
        let outcome: Result<(LibraryHandle, crsvg_dimensions), RasterError>?
        do {
            outcome = try WorkerThread.run(stackSize: stackSize, seconds: limits.seconds) {
                Result { () throws(RasterError) in try open(bytes) }
            }
        } catch {
            // A thread that cannot start is short of memory (its stack).
            throw error.reason.code == EAGAIN || error.reason.code == ENOMEM ? .outOfMemory
                : .unsupportedContent(.svg, "cannot read the SVG: \(error)")
        }
        guard let outcome else {
            throw .unsupportedContent(.svg, "SVG refused: librsvg took more than \(seconds(limits.seconds)) to read it")
        }
        let (handle, dimensions) = try outcome.get()
        return (handle, dimensions)
    }

    private static func open(_ bytes: [UInt8]) throws(RasterError) -> (LibraryHandle, crsvg_dimensions) {
        var pointer: OpaquePointer?
        try call { message in bytes.withUnsafeBufferPointer { crsvg_open($0.baseAddress, $0.count, &pointer, message) } }
        guard let pointer else { throw .corrupt(.svg, "librsvg gave no document") }
        let handle = LibraryHandle(pointer)
        var dimensions = crsvg_dimensions()
        crsvg_dimensions_of(pointer, &dimensions)
        return (handle, dimensions)
    }

    /// librsvg's document handle, freed with the last reference to it.
    final class LibraryHandle: @unchecked Sendable {
        // @unchecked: used by one thread at a time (`SVGDocument.drawing`).
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { crsvg_close(pointer) }
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
    /// caller's.
    ///
    /// With a sandbox, the child process draws first: on an image (a PNG, JPEG or TIFF output)
    /// it draws the clip's pixels into memory shared with this process, which paints them, and
    /// librsvg never runs here; on a vector surface (SVG, PDF), which must get librsvg's own
    /// paths and text, the child draws the document on a surface of the same kind that writes
    /// nowhere, and only once it has succeeded is the document drawn here, in this process,
    /// asking first for the memory the child needed.
    ///
    /// In this process the context is used by librsvg's thread while the caller waits; if the
    /// time runs out, that thread keeps the context (and its surface) until it is done, and the
    /// caller must not use them again: the error ends the output.
    func draw(in context: CairoContext, rect: Rect) throws(RenderError) {
        guard rect.width > 0, rect.height > 0 else { return }
        guard drawing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            throw .cairo(operation: "drawing the SVG", message: "its earlier drawing has not ended")
        }
        var handedOn = false
        defer { if !handedOn { drawing.store(false, ordering: .releasing) } }
        guard let area = SVGSandbox.DeviceArea(context) else { return }  // nothing of the picture shows
        try checkFilters(area: area, rect: rect, context: context)
        var need = 0
        if let sandbox {
            if area.isImage {
                try sandbox.drawPixels(bytes, check: check, limits: limits, area: area, rect: rect, size: naturalSize,
                                       onto: context)
                return
            }
            need = try sandbox.rehearse(bytes, check: check, limits: limits, area: area, rect: rect, size: naturalSize)
        } else if check.hasFilters {
            // A filter works on images of the whole picture's size, in device pixels.
            var w = rect.width, h = rect.height
            cairo_user_to_device_distance(context.pointer, &w, &h)
            let pixels = abs(w * h)
            guard pixels < 1e15 else { throw .cairo(operation: "drawing the SVG", message: "out of memory") }
            need = Int(pixels) * 16 + 1
        }
        guard Memory.available(need) else { throw .cairo(operation: "drawing the SVG", message: "out of memory") }
        let handle = try libraryHandle()
        let size = naturalSize
        let job = DrawJob(document: self, handle: handle, context: context)
        let outcome: Result<Void, RenderError>?
        do {
            outcome = try WorkerThread.run(stackSize: Self.stackSize, seconds: limits.seconds) {
                defer { job.document.drawing.store(false, ordering: .releasing) }
                return Result { () throws(RenderError) in
                    try Self.render(job.handle, on: job.context.pointer, rect: rect, size: size)
                    try job.context.checkStatus("drawing the SVG")
                }
            }
        } catch {
            throw .cairo(operation: "drawing the SVG", message: error.description)
        }
        // The thread has the flag now: it clears it when it ends, in time or not.
        handedOn = true
        guard let outcome else {
            throw .cairo(operation: "drawing the SVG", message: "librsvg took more than \(Self.seconds(limits.seconds))")
        }
        try outcome.get()
    }

    /// Refuses filters that would work on more than `limits.filterPixels` pixels when the
    /// document is drawn on `area` device pixels, `scale` of them to a CSS px of the document:
    /// each pass of `check.filterWeight` over the area, and an `feMorphology` over its radius
    /// in device pixels besides. Called when the picture is planned (the area is its place at
    /// the output's resolution) and again when it is drawn (the area the clip leaves).
    package func checkFilters(area: Double, scale: Double) throws(RasterError) {
        guard check.filterWeight > 0 else { return }
        let passes = check.filterWeight + check.filterRadius * (scale.isFinite && scale > 0 ? scale : 1)
        let pixels = passes * area
        guard pixels <= Double(limits.filterPixels) else {
            throw .unsupportedContent(.svg, "SVG refused: its filters would go over \(SVGScannerText.millions(pixels)) "
                                      + "million pixels at this size, more than \(SVGScannerText.millions(Double(limits.filterPixels))) "
                                      + "million (a quarter of the pixel limit)")
        }
    }

    private func checkFilters(area: SVGSandbox.DeviceArea, rect: Rect, context: CairoContext) throws(RenderError) {
        var w = rect.width, h = 0.0
        cairo_user_to_device_distance(context.pointer, &w, &h)
        do {
            try checkFilters(area: Double(area.width) * Double(area.height), scale: (w * w + h * h).squareRoot() / width)
        } catch {
            throw .cairo(operation: "drawing the SVG", message: error.description)
        }
    }

    /// The handle in this process: the one loaded with the document, else one loaded now.
    private func libraryHandle() throws(RenderError) -> LibraryHandle {
        if let handle = handle.withLock({ $0 }) { return handle }
        let loaded: LibraryHandle
        do { loaded = try Self.loadHere(bytes, limits: limits).handle } catch {
            throw .cairo(operation: "drawing the SVG", message: error.description)
        }
        handle.withLock { $0 = loaded }
        return loaded
    }

    /// What the drawing thread holds: the document, its handle and the context (with its
    /// surface and that surface's byte sink), until it ends.
    private struct DrawJob: @unchecked Sendable {
        let document: SVGDocument
        let handle: LibraryHandle
        let context: CairoContext
    }

    /// The document into `rect` of `cr`'s user space, scaled from its natural `size` (points).
    static func render(_ handle: LibraryHandle, on cr: OpaquePointer, rect: Rect, size: Size) throws(RenderError) {
        try CairoNumbers.check("placing the SVG", rect.x, rect.y, rect.width / size.width, rect.height / size.height)
        cairo_save(cr)
        cairo_translate(cr, rect.x, rect.y)
        cairo_scale(cr, rect.width / size.width, rect.height / size.height)
        let (status, message) = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(CRSVG_MESSAGE_SIZE)) {
            $0[0] = 0
            let status = crsvg_render(handle.pointer, UnsafeMutableRawPointer(cr), 0, 0, size.width, size.height,
                                      $0.baseAddress!)
            return (status, String(cString: $0.baseAddress!))
        }
        cairo_restore(cr)
        // librsvg says "rendering error: NoMemory" when Cairo could not make a surface.
        if status != CRSVG_OK { throw .cairo(operation: "drawing the SVG", message: message.containsOccurrence(of: "NoMemory") ? "out of memory" : message) }
    }
}
