import PetCore
import Testing

@testable import petctl

/// A rejection's sentence where no catalogue translates it (C, English): the daemon's own, byte
/// for byte, whatever the error's name — petctl's sentence for the name appears only translated.
@Suite struct SessionSentenceTests {
    @Test(arguments: PetError.Kind.allCases)
    func untranslatedIsTheDaemonsSentence(_ kind: PetError.Kind) {
        let message = "Task \"20260302-1\" is 100 % odd; it says %s and %d."
        #expect(Session.sentence(PetError(kind, message)) == message)
    }

    @Test func aBusHintBecomesPetctlsCommands() {
        let rejection = PetError(.notFound, "There is no task or template with id \"x\"; list them with ListTasks.")
        #expect(
            Session.sentence(rejection)
                == "There is no task or template with id \"x\"; petctl today and petctl templates list them.")
    }
}
