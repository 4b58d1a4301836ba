import FuzzSupport

// The style parsers: lengths, sizes, padding, colours, shadows, positions.
fuzzMain(ParserFuzz.run)
