/// What the rules need from outside, passed in so PetCore never reads a clock, zone or file.
public struct Context: Sendable {
    /// The current instant.
    public var now: Instant
    /// The local time zone in force now.
    public var zone: Zone
    /// The stage table in force.
    public var stages: StageTable

    public init(now: Instant, zone: Zone, stages: StageTable = .builtIn) {
        self.now = now
        self.zone = zone
        self.stages = stages
    }
}
