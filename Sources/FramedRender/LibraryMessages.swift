internal import CMessages

/// What the C libraries write on their own, kept off framed's one-line messages: GLib's log is
/// routed by the text and SVG wrappers when they load Pango or librsvg; the C library's stderr
/// stream is the program's to quieten (`quietStandardErrorStream`).
package enum LibraryMessages {
    /// Makes the C library's `stderr` stream drop what libraries write while framed is inside
    /// one of them (fontconfig through Pango and librsvg, dav1d through libheif), and pass on
    /// the rest (the Swift runtime's last words). For the `framed` program, at its start; a
    /// library user's program keeps its stream as it is.
    package static func quietStandardErrorStream() {
        cmessages_quiet_stderr_stream()
    }

    /// Hands every GLib error from now on to `end` (its domain, such as "GLib" or "Pango", and
    /// its message) in place of GLib's abort (`cmessages_on_fatal`). GLib ends the process on an
    /// error, and Pango meets one where no caller can: a thread it cannot start, an allocation
    /// that fails. `end` must not return: it ends the process its own way (framed removes its
    /// temporary files and exits 1). For the `framed` program, at its start; a library user's
    /// program keeps GLib's abort.
    package static func onFatalError(_ end: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void) {
        cmessages_on_fatal(end)
    }
}
