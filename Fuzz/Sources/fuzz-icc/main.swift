import FuzzSupport

// ICC profiles to sRGB (lcms2 through the C shim), with a fuzzed profile.
fuzzMain(ICCFuzz.run)
