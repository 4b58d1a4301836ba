import FuzzSupport

// The whole pipeline, Framer.frame, with fuzzed settings and picture.
fuzzMain(FrameFuzz.run)
