import Foundation
import PetCore
import Testing

/// The one loader of `stages.json` the daemon and `petctl simulate` share: a missing file is the
/// built-in table, an unusable one is the built-in table with a sentence naming the file, and a
/// file named on purpose that cannot be used is an error.
@Suite struct StageOverrideTests {
    static let path = "/home/u/.config/petprogress/stages.json"
    static let valid = Array(
        #"{"stages":[{"i":0,"name":"Egg","threshold":4,"asset":"pet_egg.png"},{"i":1,"name":"Hen","threshold":0,"asset":"pet_hen.png"}]}"#
            .utf8)

    @Test func inForce() {
        #expect(StageTable.inForce(.missing, path: Self.path) == (.builtIn, nil))
        let custom = StageTable.inForce(.contents(Self.valid), path: Self.path)
        #expect(custom.table.stages.map(\.name) == ["Egg", "Hen"] && custom.problem == nil)
        let unreadable = StageTable.inForce(.unreadable(reason: "Permission denied"), path: Self.path)
        #expect(unreadable.table == .builtIn)
        #expect(
            unreadable.problem
                == "The stage file \(Self.path) cannot be read (Permission denied); using the built-in stages.")
        let invalid = StageTable.inForce(.contents(Array(#"{"stages":[]}"#.utf8)), path: Self.path)
        #expect(invalid.table == .builtIn)
        #expect(
            invalid.problem
                == "The stage file \(Self.path) is invalid (it needs at least 2 stages, found 0); using the built-in stages."
        )
    }

    @Test func loadOnPurpose() throws {
        #expect(try StageTable.load(.contents(Self.valid), path: "t.json").count == 2)
        #expect(throws: StageTableError("The stage file t.json cannot be read (it does not exist)")) {
            try StageTable.load(.missing, path: "t.json")
        }
        #expect(throws: StageTableError.self) { try StageTable.load(.contents(Array("{".utf8)), path: "t.json") }
    }
}
