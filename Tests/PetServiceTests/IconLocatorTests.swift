import Foundation
import Glibc
import PetCore
import Testing

@testable import PetService

/// `IconLocator` lists each icon directory once (docs/BENCHMARKS.md, "Lean III") and must find what
/// a `stat` per stage and directory found: the first directory, in XDG order, holding a PNG that
/// exists (a dangling link is none), and "" for a stage no directory holds.
@Suite("Icon locator")
struct IconLocatorTests {
    @Test("the first directory with an existing PNG wins; dangling links and missing directories are skipped")
    func firstExisting() throws {
        var template = Array((NSTemporaryDirectory() + "/petservice-icons-XXXXXX").utf8CString)
        let root = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: root) }
        let apps = "icons/hicolor/512x512/apps"
        for dir in ["home", "first", "second"] {
            try FileManager.default.createDirectory(
                atPath: "\(root)/\(dir)/\(apps)", withIntermediateDirectories: true)
        }
        let stages = StageTable.builtIn
        let tadpole = stages.stage(0)
        let frog = stages.stage(1)
        let last = stages.stage(stages.finalIndex)
        // $XDG_DATA_HOME: a dangling link for the first stage, nothing else.
        #expect(symlink("/nonexistent", "\(root)/home/\(apps)/\(tadpole.iconName).png") == 0)
        // First data dir: the first stage's real PNG and an unrelated file.
        #expect(
            FileManager.default.createFile(atPath: "\(root)/first/\(apps)/\(tadpole.iconName).png", contents: Data()))
        #expect(FileManager.default.createFile(atPath: "\(root)/first/\(apps)/other.png", contents: Data()))
        // Second: the second stage's, and the first stage's again (not reached).
        for stage in [tadpole, frog] {
            #expect(
                FileManager.default.createFile(atPath: "\(root)/second/\(apps)/\(stage.iconName).png", contents: Data())
            )
        }
        let locator = IconLocator(
            stages: stages,
            environment: [
                "HOME": root, "XDG_DATA_HOME": root + "/home",
                "XDG_DATA_DIRS": "\(root)/missing:\(root)/first:\(root)/second",
            ],
            executable: root + "/bin/petprogressd")
        #expect(locator.path(for: tadpole) == "\(root)/first/\(apps)/\(tadpole.iconName).png")
        #expect(locator.path(for: frog) == "\(root)/second/\(apps)/\(frog.iconName).png")
        #expect(locator.path(for: last) == "")
    }
}
