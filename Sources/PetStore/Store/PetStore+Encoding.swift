import PetCore

extension PetStore {
    /// The bytes `save` writes to `state.json` for `world` (without history's tail): what
    /// bench-store times, apart from the disk.
    public static func stateBytes(_ world: PetWorld) -> [UInt8] {
        StateFile.encode(world)
    }

    /// The world a current `state.json` holds, or nil: what a load decodes, for bench-store.
    public static func world(fromStateBytes bytes: [UInt8]) -> PetWorld? {
        guard case .world(let world, _, _) = StateFile.decode(bytes) else { return nil }
        return world
    }

    /// A history line's bytes for `record`, and the record read back from such bytes: what
    /// appending and a history page cost apart from the disk, for bench-store.
    public static func historyLineBytes(_ record: DayRecord) throws(StoreError) -> [UInt8] {
        try HistoryLine.encode(record)
    }

    public static func record(fromHistoryLine bytes: [UInt8]) -> DayRecord? {
        let line = bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...]
        guard case .record(let record) = HistoryLine.decode(line) else { return nil }
        return record
    }
}
