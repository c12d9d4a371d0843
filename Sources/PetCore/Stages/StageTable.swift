import FoundationEssentials

/// The stage table in force: the built-in 20 forms or a validated `stages.json` override.
public struct StageTable: Hashable, Sendable {
    /// Where the override lives, relative to the user's XDG configuration directory (petprogress(7) §2); the
    /// daemon and petctl both look there.
    public static let overrideFile = "petprogress/stages.json"

    public let stages: [Stage]

    /// Validates a table (petprogress(7) §2): at least 2 stages, `i` running 0…n-1, non-empty names and
    /// assets, every threshold > 0 except the last, which is 0. Never half-used: all or an error.
    public init(stages: [Stage]) throws(StageTableError) {
        guard stages.count >= 2 else { throw StageTableError("it needs at least 2 stages, found \(stages.count)") }
        for (n, stage) in stages.enumerated() {
            let isLast = n == stages.count - 1
            guard stage.i == n else {
                throw StageTableError("stage \(n) has \"i\": \(stage.i); i must run 0…\(stages.count - 1) in order")
            }
            guard !stage.name.trimmingWhitespace.isEmpty else {
                throw StageTableError("stage \(n) has an empty name")
            }
            // A name reaches terminals and panels: no controls, no bidi scopes, one short line.
            guard stage.name.unicodeScalars.count <= Self.maxNameLength,
                !stage.name.unicodeScalars.contains(where: Self.isForbiddenInName)
            else {
                throw StageTableError(
                    "stage \(n)'s name must be at most \(Self.maxNameLength) characters without control characters")
            }
            guard !stage.asset.isEmpty, !stage.asset.contains("/") else {
                throw StageTableError("stage \(n) needs an asset file name such as pet_frog.png")
            }
            if isLast, stage.threshold != 0 {
                throw StageTableError("the last stage (\(n)) must have threshold 0, not \(stage.threshold)")
            }
            if !isLast, stage.threshold <= 0 {
                throw StageTableError("stage \(n) must have a threshold above 0, not \(stage.threshold)")
            }
        }
        self.stages = stages
    }

    /// The longest stage name, in code points (the built-in longest, Floating God, has 12).
    public static let maxNameLength = 40

    /// Control characters (Cc), line and paragraph separators, and the bidi embeddings, overrides
    /// and isolates (U+202A–U+202E, U+2066–U+2069).
    static func isForbiddenInName(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }

    /// Parses and validates the `{"stages":[…]}` override file's contents.
    public static func parse(json: Data) throws(StageTableError) -> StageTable {
        struct File: Decodable { let stages: [Stage] }
        let file: File
        do {
            file = try JSONDocument(Array(json)).decode(File.self)
        } catch {
            throw StageTableError("it is not a {\"stages\":[{\"i\",\"name\",\"threshold\",\"asset\"},…]} JSON document")
        }
        return try StageTable(stages: file.stages)
    }

    public var count: Int { stages.count }
    public var finalIndex: Int { stages.count - 1 }

    /// The stage at `index`, clamped into the table (a stored index past a shorter table's end
    /// reads as the final stage).
    public func stage(_ index: Int) -> Stage { stages[min(max(index, 0), finalIndex)] }

    public func threshold(_ index: Int) -> Int { stage(index).threshold }

    /// A stored state made valid for this table: the index clamped to the final stage.
    public func clamp(_ state: PetState) -> PetState {
        PetState(stageIndex: min(max(state.stageIndex, 0), finalIndex), stageXP: max(state.stageXP, 0))
    }

    /// The 20 built-in forms, Tadpole to Floating God.
    public static let builtIn: StageTable = {
        let rows: [(String, Int, String)] = [
            ("Tadpole", 10, "tadpole"), ("Minnow", 20, "minnow"), ("Frog", 30, "frog"),
            ("Hermit Crab", 40, "hermit"), ("Starfish", 50, "starfish"), ("Jellyfish", 60, "jellyfish"),
            ("Squid", 75, "squid"), ("Seahorse", 90, "seahorse"), ("Dolphin", 110, "dolphin"),
            ("Shark", 135, "shark"), ("Otter", 165, "otter"), ("Fox", 200, "fox"), ("Lynx", 240, "lynx"),
            ("Wolf", 285, "wolf"), ("Bear", 335, "bear"), ("Bison", 390, "bison"),
            ("Elephant", 450, "elephant"), ("Rhino", 515, "rhino"), ("Lion", 585, "lion"),
            ("Floating God", 0, "god"),
        ]
        let stages = rows.enumerated().map { n, row in
            Stage(i: n, name: row.0, threshold: row.1, asset: "pet_\(row.2).png")
        }
        do { return try StageTable(stages: stages) } catch { fatalError("built-in stage table: \(error)") }
    }()
}

/// Why a stage table was refused; the sentence names the problem.
public struct StageTableError: Error, Equatable, CustomStringConvertible {
    public let problem: String
    public init(_ problem: String) { self.problem = problem }
    public var description: String { problem }
}
