// The modules whose public types the library's API speaks in: one `import Framed` brings them.
@_exported import FramedLayout
@_exported import FramedRaster
@_exported import FramedRender
