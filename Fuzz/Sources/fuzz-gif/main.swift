import FramedRaster
import FuzzSupport

// GIF: header and decode (giflib through the C shim: the first frame on its logical screen,
// interlacing, transparency, animations).
fuzzMain { DecoderFuzz.run($0, GIFDecoder()) }
