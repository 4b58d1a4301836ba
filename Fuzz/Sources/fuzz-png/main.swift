import FramedRaster
import FuzzSupport

// PNG: header and decode (libpng through the C shim, colour, orientation).
fuzzMain { DecoderFuzz.run($0, PNGDecoder()) }
