import FuzzSupport

// EXIF orientation and resolution (libexif through the C shim).
fuzzMain(ExifFuzz.run)
