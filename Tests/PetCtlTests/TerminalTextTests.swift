import PetBus
import PetCore
import Testing

@testable import petctl

/// Each way a string could take the terminal, through the one filter petctl prints with, and the
/// other small renderings these changes made honest.
@Suite struct TerminalTextTests {
    @Test func anOSC52SequenceLosesItsControls() {
        let clean = TerminalText.clean("x\u{1B}]52;c;cHduZWQ=\u{07}y")
        #expect(clean == "x\u{FFFD}]52;c;cHduZWQ=\u{FFFD}y")
    }

    @Test func c1ControlsAndCursorMovesGoToo() {
        #expect(TerminalText.clean("\u{9B}2J\u{1B}[2J\u{7F}") == "\u{FFFD}2J\u{FFFD}[2J\u{FFFD}")
    }

    @Test func petctlsOwnColoursAndLineEndsStay() {
        let styled = Style(on: true).red("overdue") + "\r\n"
        #expect(TerminalText.clean(styled) == styled)
        #expect(TerminalText.clean("a\rb") == "a\u{FFFD}b")
    }

    @Test func bidiControlsInASentenceAreNeutralisedButPetctlsIsolatesStay() {
        #expect(TerminalText.clean("\"\u{202E}12:00\" is not a time") == "\"\u{FFFD}12:00\" is not a time")
        for scalar in [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            let control = Character(Unicode.Scalar(scalar)!)
            #expect(TerminalText.clean("a\(control)b") == "a\u{FFFD}b", "U+\(String(scalar, radix: 16))")
        }
        #expect(TerminalText.clean("x \u{2068}שלום\u{2069} y") == "x \u{2068}שלום\u{2069} y")
        // An isolate left open at a line's end, or closed on the next line, is neutralised.
        #expect(TerminalText.clean("\u{2068}a\n\u{2069}b") == "\u{FFFD}a\n\u{FFFD}b")
    }

    @Test func aTitleCannotCloseItsIsolationOrReverseTheLine() {
        let shown = Titles.forLine("\u{2069}\u{202E}evil שלום", width: 40)
        #expect(!shown.unicodeScalars.contains("\u{202E}"))
        #expect(shown.unicodeScalars.filter { $0 == "\u{2069}" }.count == 1 && shown.hasSuffix("\u{2069}"))
    }

    @Test func unknownCommandsGetASuggestion() {
        #expect(CommandNames.suggestion(for: "todya") == "today")
        #expect(CommandNames.suggestion(for: "hist") == "history")
        #expect(CommandNames.suggestion(for: "remove") == nil)
        #expect(CommandNames.problem(["frobnicate"]) == "there is no command 'frobnicate'; petctl help lists them")
        #expect(CommandNames.problem(["help", "ad"])?.contains("did you mean 'add'?") == true)
        #expect(CommandNames.problem(["help", "add"]) == nil && CommandNames.problem(["--plain"]) == nil)
    }

    @Test func csvTitlesAreNeverFormulas() {
        for title in ["=HYPERLINK(\"http://x\")", "+1", "-2+3", "@SUM(A1)"] {
            #expect(ExportDocument.textCell(title) == "'" + title)
        }
        #expect(ExportDocument.textCell("Write report") == "Write report")
    }

    @Test func xpPastASmallerThresholdSaysWhatHappensNext() throws {
        let stages = try StageTable(stages: [
            Stage(i: 0, name: "Tadpole", threshold: 10, asset: "pet_tadpole.png"),
            Stage(i: 1, name: "Minnow", threshold: 20, asset: "pet_minnow.png"),
            Stage(i: 2, name: "Frog", threshold: 0, asset: "pet_frog.png"),
        ])
        let pet = PetView(PetState(stageIndex: 1, stageXP: 50), stages: stages, iconPath: { _ in "" })
        #expect(PetText.short(PetState(stageIndex: 1, stageXP: 50), stages) == "Minnow 50 XP")
        #expect(PetText.xp(pet) == "50 XP, evolves at the next XP earned")
    }

    @Test func theAddLineQuotesForTheShell() {
        #expect(TaskEcho.shellQuoted("Stretch") == "Stretch")
        #expect(TaskEcho.shellQuoted("Bob's $HOME") == "'Bob'\\''s $HOME'")
        #expect(TaskEcho.shellQuoted("-rf") == "'-rf'")
    }
}
