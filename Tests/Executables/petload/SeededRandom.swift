import PetCore

/// PetCore's SplitMix64 (the one seeded generator of the project, not the daemon's rules), so a
/// failing run repeats exactly with its seed.
typealias SeededRandom = SplitMix64

extension SplitMix64 {
    /// One of `weights.count` choices, each as likely as its weight.
    mutating func pick(_ weights: [Int]) -> Int {
        var roll = Int.random(in: 0..<weights.reduce(0, +), using: &self)
        for (index, weight) in weights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return weights.count - 1
    }
}
