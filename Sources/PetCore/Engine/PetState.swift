/// The pet: which stage it is in and the stage XP gathered there (petprogress(7) §2.1).
public struct PetState: Hashable, Sendable, CustomStringConvertible {
    public var stageIndex: Int
    public var stageXP: Int

    public init(stageIndex: Int, stageXP: Int) {
        self.stageIndex = stageIndex
        self.stageXP = stageXP
    }

    /// A new pet: a tadpole with no XP.
    public static let hatchling = PetState(stageIndex: 0, stageXP: 0)

    public var description: String { "(\(stageIndex), \(stageXP))" }
}
