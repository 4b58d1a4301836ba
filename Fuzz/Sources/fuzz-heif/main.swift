import FramedRaster
import FuzzSupport

// HEIF: header and decode (libheif through the C shim, with libde265 for HEIC and dav1d or aom
// for AVIF, which this target's seeds also hold: the same code reads both; transformations,
// thumbnails, nclx and ICC colour, alpha, 10 and 12 bits).
fuzzMain { DecoderFuzz.run($0, HEIFDecoder()) }
