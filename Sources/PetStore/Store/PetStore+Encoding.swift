import PetCore

extension PetStore {
    /// The bytes `save` writes to `state.json` for `world` (without history's tail): what
    /// bench-store times, apart from the disk.
    public static func stateBytes(_ world: PetWorld) -> [UInt8] {
        StateFile.encode(world)
    }
}
