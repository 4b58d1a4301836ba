import FuzzSupport

// SVG: the sniffer, framed's own check of the text, librsvg's load and a drawing in a frame.
fuzzMain(SVGFuzz.run)
