import Foundation
import PetCore
import PetStore

/// `run DIR SEED ACKED LIMIT`: verify the store against the seeded script, then keep writing.
///
/// Write 0 is the initial empty world; write k is the k-th durable change the script makes. At
/// start the stored state must be exactly the script's world at write ACKED or ACKED+1 (the last
/// acknowledged write, or the one in flight when the previous child was killed), and history
/// must hold exactly the records of the closeouts up to it, each day once. Then it continues
/// until write LIMIT, printing `ack K MUTATIONS DIGEST` after each write is durable.
struct Runner {
    let directory: String
    let seed: UInt64
    let acked: Int
    let limit: Int

    func run() throws -> Int32 {
        let store = try PetStore.open(directory: directory)
        let loaded = try store.load(now: Int64(time(nil)))
        var script = Script(seed: seed)
        var world = script.world
        var records: [DayRecord] = []
        var position = -1
        if case .state(let stored) = loaded.start {
            position = 0
            while world.mutations < stored.mutations {
                let write = script.next()
                records += write.records ?? []
                world = write.world
                position += 1
            }
            guard world == stored else {
                return fail(
                    "stored state (mutations \(stored.mutations)) is not the script's world at write \(position)")
            }
        }
        guard position == acked || position == acked + 1 else {
            return fail("stored state is write \(position), but the last acknowledged write was \(acked)")
        }
        let history = try store.recentHistory(days: Int.max)
        guard history == records else {
            return fail(
                "history holds \(history.count) records (\(history.last?.day.key.description ?? "none") last), expected \(records.count)"
            )
        }
        // The stored state is durable: `ready` acknowledges it as well (it may be the write that
        // was in flight when the previous child died, which that child never acknowledged).
        emit("ready \(position) \(world.mutations)")
        if position < 0 {
            try store.save(world)
            position = 0
            emit("ack 0 \(world.mutations) \(digest(world))")
        }
        while position < limit {
            let write = script.next()
            if let records = write.records {
                try store.closeDays(records, world: write.world)
            } else {
                try store.save(write.world)
            }
            position += 1
            emit("ack \(position) \(write.world.mutations) \(digest(write.world))")
        }
        emit("done \(position)")
        return 0
    }

    private func fail(_ why: String) -> Int32 {
        emit("FAIL \(why)")
        return 2
    }
}

/// One line to stdout, unbuffered: the parent reads it the moment it is acknowledged.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// FNV-1a over the state file's bytes for the world: the same world, the same digest.
func digest(_ world: PetWorld) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in PetStore.stateBytes(world) { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
    return String(hash, radix: 16)
}
