import PetCore

/// PetCore's SplitMix64 (the one seeded generator of the project, not the daemon's rules): a whole
/// sequence follows from its seed, so a failing run is repeated exactly with `--seed`.
typealias SeededRandom = SplitMix64

extension SplitMix64 {
    /// True with probability 1/`n`.
    mutating func oneIn(_ n: Int) -> Bool { Int.random(in: 0..<max(n, 1), using: &self) == 0 }

    /// A random element of a non-empty array.
    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self)] }
}
