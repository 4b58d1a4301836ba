import Framed

/// Many pictures at once.
let batchOptions: [Option] = [
    Option(spec: OptionSpec(name: "jobs", short: "j", valueName: "N", help: "pictures framed at once, on at most N cores",
                            defaultText: "the number of cores")) { s, v throws(UsageError) in
        guard let n = Int(v), (1...256).contains(n) else { throw UsageError("--jobs: \"\(excerpt(v))\" is not a whole number from 1 to 256") }
        s.jobs = n
    },
    Option(spec: OptionSpec(name: "recursive", short: "r", valueName: nil,
                            help: "frame the pictures in folders given as inputs, and in their subfolders")) { s, _ throws(UsageError) in
        s.recursive = true
    },
    Option(spec: OptionSpec(name: "overwrite", short: "f", valueName: nil, help: "replace outputs that exist")) { s, _ throws(UsageError) in
        s.overwrite = true
    },
    Option(spec: OptionSpec(name: "fail-fast", valueName: nil, help: "stop at the first picture that fails")) { s, _ throws(UsageError) in
        s.failFast = true
    },
    Option(spec: OptionSpec(name: "quiet", short: "q", valueName: nil,
                            help: "no progress bar and no summary (errors and warnings still show)")) { s, _ throws(UsageError) in
        s.quiet = true
    },
    Option(spec: OptionSpec(name: "dry-run", valueName: nil,
                            help: "print the geometry as JSON instead of writing (as framed layout does)")) { s, _ throws(UsageError) in
        s.dryRun = true
    },
]
