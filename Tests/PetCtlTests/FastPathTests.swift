import ArgumentParser
import Testing

@testable import petctl

/// The fast path takes only the lines it claims, and makes for each exactly the command
/// argument-parser makes, defaults included — so the two ways in cannot drift apart.
@Suite struct FastPathTests {
    static let taken: [[String]] =
        [[], ["today"], ["done"], ["snooze"], ["widget"], ["widget", "--format=polybar"]]
        + PanelFormat.allCases.map { ["widget", "--format", $0.rawValue] }

    static let left: [[String]] = [
        ["today", "--plain"], ["today", "--color", "always"], ["done", "3"], ["snooze", "t-1"], ["widget", "--format"],
        ["widget", "--format", "nope"], ["widget", "--template", "{glyph}"],
        ["widget", "--format", "text", "--title-width", "9"],
        ["watch"], ["--help"], ["--version"], ["todays"],
    ]

    static func dumped(_ command: any ParsableCommand) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }

    @Test(arguments: taken) func takesWhatArgumentParserWouldMake(_ line: [String]) throws {
        let fast = try #require(try FastPath.command(line))
        let parsed = try PetCtl.parseAsRoot(line)
        #expect(type(of: fast) == type(of: parsed))
        #expect(Self.dumped(fast) == Self.dumped(parsed))
    }

    @Test(arguments: left) func leavesEveryOtherLineToArgumentParser(_ line: [String]) throws {
        #expect(try FastPath.command(line) == nil)
    }

    @Test func errorsReadAsOneLine() {
        #expect(
            PetCtl.oneLine(
                """
                Error: The value 'nope' is invalid for '--format <format>'. Please provide one of the following:
                  - text
                  - json
                Usage: petctl widget [--format <format>]
                  See 'petctl widget --help' for more information.
                """)
                == "The value 'nope' is invalid for '--format <format>'. Please provide one of the following: text, json"
        )
        #expect(
            PetCtl.oneLine("Error: Unexpected argument 'frob'\nUsage: petctl <subcommand>")
                == "Unexpected argument 'frob'")
    }
}
