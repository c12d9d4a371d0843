import DBusKit
import Glibc

// hostile-client: sends seeded random hostile calls to petprogressd in batches and tallies the
// replies (docs/RELIABILITY.md, "Hostile input"). Usage: hostile-client ADDRESS SEED CALLS BIG_EVERY
let arguments = CommandLine.arguments
guard arguments.count == 5, let seed = UInt64(arguments[2]), let calls = Int(arguments[3]),
    let bigEvery = Int(arguments[4])
else {
    print("usage: hostile-client ADDRESS SEED CALLS BIG_EVERY")
    exit(64)
}
do {
    let connection = try Connection(address: arguments[1])
    let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
    let generator = HostileCalls(values: RandomValue(text: RandomText(bigEvery: bigEvery), descriptor: descriptor))
    var random = SeededRandom(seed: seed)
    var tally = Tally()
    let start = ContinuousClock.now
    while tally.sent < calls {
        var batch: [Message] = []
        while batch.count < 64, tally.sent + batch.count < calls {
            // A call past a limit (a signature over 255 characters, a message over the bus's size)
            // is not sent; it is counted and the next one drawn.
            if let message = try? generator.next(&random) { batch.append(message) } else { tally.unsendable += 1 }
        }
        let replies = try connection.call(all: batch, timeout: .seconds(120))
        tally.sent += batch.count
        for (call, reply) in zip(batch, replies) { tally.record(call: call, reply: reply) }
    }
    let elapsed = ContinuousClock.now - start
    print(tally.report)
    print("seconds \(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)")
} catch {
    print("hostile-client: \(error)")
    exit(1)
}
