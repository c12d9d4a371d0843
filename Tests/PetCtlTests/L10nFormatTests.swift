import Testing

@testable import petctl

/// How petctl fills a catalogue's placeholders (C's, filled by petctl itself, never by printf):
/// in order, by position, `%%`, and whatever a translation gets wrong left visible, never a crash.
@Suite struct L10nFormatTests {
    @Test func placeholdersAreFilledInOrder() {
        #expect(
            L10n.format("Done: %s %s, +%d XP (%s).", ["3", "Yoga", "2", "on time"]) == "Done: 3 Yoga, +2 XP (on time).")
        #expect(L10n.format("no placeholder", ["ignored"]) == "no placeholder")
        #expect(L10n.format("%s%s", ["a", "b"]) == "ab")
    }

    @Test func positionsReorderTheArguments() {
        #expect(L10n.format("%2$s, %1$s", ["first", "second"]) == "second, first")
        #expect(
            L10n.format("%1$s is ambiguous: write %2$s:00 or %2$spm", ["'7'", "7"])
                == "'7' is ambiguous: write 7:00 or 7pm")
        #expect(L10n.format("%1$d × %1$d", ["4"]) == "4 × 4")
    }

    @Test func aDoublePercentIsAPercentSign() {
        #expect(L10n.format("80 %% or more", []) == "80 % or more")
        #expect(L10n.format("%d %%", ["40"]) == "40 %")
        #expect(L10n.format("%%s", ["x"]) == "%s")
    }

    @Test func aHugeWidthOrPositionIsPrintedAsWritten() {
        #expect(L10n.format("%99999999999999999999d", ["1"]) == "%99999999999999999999d")
        #expect(L10n.format("%99999999999999999999$s!", ["1"]) == "%99999999999999999999$s!")
        #expect(L10n.format("%0$s %s", ["a"]) == "%0$s a")
    }

    @Test func aMissingArgumentLeavesThePlaceholderAsWritten() {
        #expect(L10n.format("%s and %s", ["one"]) == "one and %s")
        #expect(L10n.format("%3$s", ["a", "b"]) == "%3$s")
        #expect(L10n.format("%s", []) == "%s")
    }

    @Test func aPercentSignAtTheEndOrBeforeAnythingElseStays() {
        #expect(L10n.format("100%", []) == "100%")
        #expect(L10n.format("50%s%", ["x"]) == "50x%")
        #expect(L10n.format("%u and %x", ["1"]) == "%u and %x")
        #expect(L10n.format("%1$", ["a"]) == "%1$")
    }

    @Test func textAroundPlaceholdersMayBeAnyUnicode() {
        #expect(L10n.format("Erledigt: %s – „%s“", ["3", "Yoga"]) == "Erledigt: 3 – „Yoga“")
        #expect(L10n.format("« %s » à %s", ["Café", "9:00"]) == "« Café » à 9:00")
        #expect(L10n.format("%s🐸%s", ["é", "ß"]) == "é🐸ß")
        #expect(L10n.format("ⓘ %1$s → %2$s", ["Kaulquappe", "Frosch"]) == "ⓘ Kaulquappe → Frosch")
    }

    /// Without a catalogue (the tests run under no textdomain), a msgid comes back as written and
    /// is filled the same way: C output is the English it always was.
    @Test func untranslatedStringsAreTheirMsgid() {
        #expect(tr("Snoozed %s %s to %s.", "3", "Yoga", "09:30") == "Snoozed 3 Yoga to 09:30.")
        #expect(trn("%d task", "%d tasks", 1) == "1 task")
        #expect(trn("%d task", "%d tasks", 0) == "0 tasks")
        #expect(Done.judgement("early") == "early")
        #expect(Done.judgement("unknown") == "unknown")
    }
}
