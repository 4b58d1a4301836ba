import FramedRaster
import FuzzSupport

// JPEG: header and decode (libjpeg-turbo through the C shim, colour, orientation).
fuzzMain { DecoderFuzz.run($0, JPEGDecoder()) }
