import DBusKit
import Testing

extension DBusKitSuites {
    /// Reading a body is bounded: an array is measured against the budget before any element is
    /// read, and one argument or a variant's type can be read without the rest.
    @Suite("Bounded reads")
    struct BoundedReadTests {
        static func message(_ values: [DBusValue]) throws -> Message {
            let message = try Message.methodCall(
                destination: nil, path: "/org/example/Thing", interface: "org.example.Thing1", member: "Take")
            try message.append(values)
            return message
        }

        @Test func anArrayPastTheBudgetIsRefusedWhole() throws {
            let bytes = DBusValue.array(elementSignature: "y", (0..<100).map { .byte(UInt8($0)) })
            let message = try Self.message([.string("name"), .variant(bytes)])
            #expect(try message.arguments(budget: 200) == [.string("name"), .variant(bytes)])
            #expect(throws: DBusError.self) { try message.arguments(budget: 50) }
            let nested = try Self.message([
                .array(elementSignature: "ay", (0..<10).map { _ in bytes })
            ])
            #expect(throws: DBusError.self) { try nested.arguments(budget: 500) }
            #expect(try nested.arguments(budget: 2_000).count == 1)
        }

        @Test func oneArgumentAndAVariantsTypeAlone() throws {
            let bytes = DBusValue.array(elementSignature: "y", (0..<100).map { .byte(UInt8($0)) })
            let message = try Self.message([.string("interface"), .string("name"), .variant(bytes)])
            #expect(try message.argument(at: 1, budget: 1) == .string("name"))
            #expect(try message.argument(at: 3) == nil)
            #expect(message.variantSignature(at: 2) == "ay")
            #expect(message.variantSignature(at: 0) == nil)
            #expect(throws: DBusError.self) { try message.argument(at: 2, budget: 10) }
        }
    }
}
