import Foundation

// The child process of PetStoreTests. Usage:
//   petstore-crashchild run DIR SEED ACKED LIMIT   the crash test's writer (see Runner)
//   petstore-crashchild probe-save DIR             open, load and save once; report the outcome
//                                                  (run as another user for the EACCES test)
let args = CommandLine.arguments
if args.count == 3, args[1] == "probe-save" {
    exit(probeSave(directory: args[2]))
}
guard args.count == 6, args[1] == "run", let seed = UInt64(args[3]), let acked = Int(args[4]), let limit = Int(args[5])
else {
    FileHandle.standardError.write(Data("usage: petstore-crashchild run DIR SEED ACKED LIMIT | probe-save DIR\n".utf8))
    exit(64)
}
do {
    exit(try Runner(directory: args[2], seed: seed, acked: acked, limit: limit).run())
} catch {
    emit("ERROR \(error)")
    exit(1)
}
