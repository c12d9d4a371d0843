import Foundation

// The crash test's child: see Runner. Usage: petstore-crashchild run DIR SEED ACKED LIMIT
let args = CommandLine.arguments
guard args.count == 6, args[1] == "run", let seed = UInt64(args[3]), let acked = Int(args[4]), let limit = Int(args[5]) else {
    FileHandle.standardError.write(Data("usage: petstore-crashchild run DIR SEED ACKED LIMIT\n".utf8))
    exit(64)
}
do {
    exit(try Runner(directory: args[2], seed: seed, acked: acked, limit: limit).run())
} catch {
    emit("ERROR \(error)")
    exit(1)
}
