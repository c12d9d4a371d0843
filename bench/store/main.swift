import Foundation
import PetCore
import PetStore

// PetStore benchmark (docs/BENCHMARKS.md, "PetStore"). Build with -c release.
// Usage: bench-store [DIR]   (default: a fresh directory under /tmp; it is removed afterwards)
//        bench-store encode ROUNDS   (the state file's encoding alone, one median per round)
//        bench-store encode-bytes    (the bench's state files, to compare two builds' bytes)
//        bench-store decode ROUNDS   (a state file's and a history line's decoding alone)
//        bench-store import-doc YEARS PATH, bench-store import PATH   (an export's reading alone)
if CommandLine.arguments.count > 2, CommandLine.arguments[1].hasPrefix("import") {
    do {
        if CommandLine.arguments[1] == "import-doc", CommandLine.arguments.count > 3 {
            try ImportBench.write(years: Int(CommandLine.arguments[2]) ?? 1, to: CommandLine.arguments[3])
        } else {
            try ImportBench.read(CommandLine.arguments[2])
        }
    } catch {
        FileHandle.standardError.write(Data("bench-store: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "encode-bytes" {
    do { try EncodeBench.dump() } catch {
        FileHandle.standardError.write(Data("bench-store: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "encode" {
    do {
        try EncodeBench.run(rounds: Int(CommandLine.arguments[2]) ?? 30)
    } catch {
        FileHandle.standardError.write(Data("bench-store: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "decode" {
    do {
        try DecodeBench.run(rounds: Int(CommandLine.arguments[2]) ?? 30)
    } catch {
        FileHandle.standardError.write(Data("bench-store: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : Bench.makeTemp()
let rounds = 300
do {
    try Bench.run(root: root, rounds: rounds)
} catch {
    FileHandle.standardError.write(Data("bench-store: \(error)\n".utf8))
    exit(1)
}
if CommandLine.arguments.count <= 1 { try? FileManager.default.removeItem(atPath: root) }
