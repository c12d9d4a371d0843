import Testing

@testable import petctl

/// How a person names a task on the command line (petprogress(7) §7): today's number, tomorrow's
/// `+N`, a template's `t-N`, or a full id; anything else is usage.
@Suite struct HandleTests {
    @Test func theFormsAPersonTypes() {
        #expect(Handle(argument: "3") == .today(3))
        #expect(Handle(argument: "+2") == .tomorrow(2))
        #expect(Handle(argument: "r4") == .template("t-4"))
        // The older form is still taken, and shown back as petctl shows templates now.
        #expect(Handle(argument: "t-4") == .template("t-4"))
        #expect(Handle(argument: "R4") == .template("t-4"))
        #expect(Handle(argument: "t-4")?.typed == "r4")
        #expect(Handle.template("t-12") == "r12" && Handle.template("20260302-3") == "20260302-3")
        #expect(Handle(argument: "20260302-14") == .id("20260302-14"))
        for form in ["3", "+2", "r4", "20260302-14"] { #expect(Handle(argument: form)?.typed == form) }
    }

    @Test func anythingElseIsRefused() {
        for bad in [
            "", "0", "+0", "-1", "+", "t-", "t-0", "r", "r0", "r-1", "rx", "r 1", "r+1", "3a", "+2x", "++2", " 3", "３", "+３", "1234567890", "2026030-1",
            "20260302-", "tomorrow", "T-4",
        ] {
            #expect(Handle(argument: bad) == nil, "\(bad)")
        }
    }
}
