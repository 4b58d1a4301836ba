import FramedRaster
import FuzzSupport

// WebP: header and decode (libwebp and its demuxer through the C shim, colour, orientation).
fuzzMain { DecoderFuzz.run($0, WebPDecoder()) }
