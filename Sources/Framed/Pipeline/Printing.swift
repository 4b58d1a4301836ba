import FramedSystem

/// What a PDF/X-4 needs beyond the drawing: its output intent's profile, read and checked, and a
/// title.
extension Framer {
    /// The render options for `format`, and for a PDF/X the output intent's profile (the file
    /// `output.outputIntent`, or nil for sRGB) and the title: `output.metadata.title`, else the
    /// file name of the first of `sources`.
    package func renderOptions(_ format: OutputFormat, printing sources: [PictureSource]) throws(FramingError) -> RenderOptions {
        var options = renderOptions(format)
        guard format == .pdf, output.pdfVariant != nil else { return options }
        options.print.intent = try outputIntentProfile()
        if options.metadata.title == nil {
            if case let .file(path)? = sources.first {
                options.metadata.title = path.split(separator: "/").last.map(String.init) ?? path
            } else {
                options.metadata.title = "framed picture"
            }
        }
        return options
    }

    /// The output intent's ICC profile read from `output.outputIntent` and checked (an RGB or
    /// CMYK output or display profile that lcms2 can convert into); nil when none is set, for
    /// sRGB. A file that cannot be read is `outputIntentUnreadable`, one that is no such profile
    /// `outputIntentInvalid`; either names the file as the picture.
    public func outputIntentProfile() throws(FramingError) -> ICCProfile? {
        guard let path = output.outputIntent else { return nil }
        func fail(_ problem: FramingError.Problem) -> FramingError { FramingError(picture: path, problem: problem) }
        var bytes: [UInt8]
        let limit = ICCProfile.byteLimit
        do {
            let file = try FileDescriptor.openRegularFile(path)
            defer { try? file.close() }
            // The size the profile's header declares is looked at first: a profile that says it
            // is larger than any is refused unread, and a file that goes on past the limit too.
            bytes = try file.read(upTo: 4)
            if (ICCProfile.headerSize(bytes) ?? 0) <= limit {
                bytes += try file.read(upTo: limit + 1 - bytes.count)
            }
        } catch {
            throw fail(.outputIntentUnreadable(path: path, reason: error.description))
        }
        guard bytes.count <= limit, (ICCProfile.headerSize(bytes) ?? 0) <= limit else {
            throw fail(.outputIntentInvalid(path: path, reason: ICCProfile.Problem.tooLarge(limit: limit).description))
        }
        do { return try ICCProfile(checking: bytes) } catch {
            throw fail(.outputIntentInvalid(path: path, reason: error.description))
        }
    }
}
