import FramedRaster
import FuzzSupport

// TIFF: header and decode (libtiff through the C shim: strips, tiles, every compression Debian's
// libtiff reads, pages and reduced-resolution subfiles, CMYK and ICC, orientation).
fuzzMain { DecoderFuzz.run($0, TIFFDecoder()) }
