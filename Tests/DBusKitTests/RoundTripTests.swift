import DBusKit
import Foundation
import Testing

extension DBusKitSuites {
    /// Values of every type sent to the test service's `Echo` and back, by DBusKit and by the CLI tools.
    @Suite("Round trips")
    struct RoundTripTests {
        static let basics: [DBusValue] = [
            .byte(0), .byte(255), .bool(true), .bool(false), .int16(.min), .int16(.max), .uint16(.max),
            .int32(.min), .int32(.max), .uint32(.max), .int64(.min), .int64(.max), .uint64(.max),
            .double(-0.5), .double(.greatestFiniteMagnitude), .double(.infinity), .string(""), .string("héllo ✓ 🐸"),
            .objectPath("/"), .objectPath("/a/b_c/D1"), .signature(""), .signature("a{sv}(iaa{ss})"),
        ]

        @Test func everyBasicType() throws {
            let fixture = try BusFixture()
            #expect(try fixture.call("Echo", Self.basics) == Self.basics)
            for value in Self.basics {
                #expect(try fixture.call("Echo", [.variant(value)]) == [.variant(value)])
            }
        }

        @Test func containers() throws {
            let fixture = try BusFixture()
            let values: [DBusValue] = [
                .array(elementSignature: "s", []),
                .array(elementSignature: "a{sv}", []),
                .array(elementSignature: "y", (0...255).map { .byte(UInt8($0)) }),
                .array(
                    elementSignature: "ai",
                    [.array(elementSignature: "i", [.int32(1), .int32(2)]), .array(elementSignature: "i", [])]),
                .dictionary(keySignature: "s", valueSignature: "s", [.init(key: .string("k"), value: .string("v"))]),
                .dictionary(
                    keySignature: "t", valueSignature: "(sb)",
                    [.init(key: .uint64(9), value: .structure([.string("x"), .bool(true)]))]),
                .dictionary(keySignature: "o", valueSignature: "ay", []),
                .structure([.int32(1), .structure([.string("inner"), .variant(.variant(.double(2.5)))])]),
                .vardict([("a", .int32(1)), ("b", .vardictArray([[("c", .string("d"))], []]))]),
                .vardictArray([[("id", .string("t1")), ("done", .bool(false))], [("id", .string("t2"))]]),
            ]
            #expect(try fixture.call("Echo", values) == values)
        }

        @Test func unixFileDescriptors() throws {
            let fixture = try BusFixture()
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            defer { for end in ends { close(end) } }
            // The service receives a duplicate, echoes it, and we receive another duplicate of the write end.
            let received = try #require(try fixture.call("Echo", [.unixFD(ends[1])]).first?.unixFDValue)
            defer { close(received) }
            #expect(received != ends[1])
            #expect(write(received, "fd", 2) == 2)
            var bytes = [UInt8](repeating: 0, count: 2)
            #expect(read(ends[0], &bytes, 2) == 2)
            #expect(bytes == Array("fd".utf8))
        }

        @Test func deepNesting() throws {
            let fixture = try BusFixture()
            var arrays: DBusValue = .int32(42)
            for _ in 0..<32 { arrays = .array(elementSignature: arrays.signature, [arrays]) }
            var structs: DBusValue = .string("deep")
            for _ in 0..<31 { structs = .structure([structs, .byte(1)]) }
            var variants: DBusValue = .bool(true)
            for _ in 0..<60 { variants = .variant(variants) }
            for value in [arrays, structs, variants] {
                #expect(try fixture.call("Echo", [value]) == [value])
            }
        }

        @Test func oneMebibyteStrings() throws {
            let fixture = try BusFixture()
            let big = String(repeating: "ü", count: 512 * 1024)  // 1 MiB of UTF-8
            #expect(try fixture.call("Echo", [.string(big)]) == [.string(big)])
            #expect(try fixture.call("EchoString", [.string(big)]) == [.string(big)])
            let made = try fixture.call("MakeString", [.uint32(1 << 20)])
            #expect(made.first?.stringValue?.utf8.count == 1 << 20)
            let tool = try fixture.busctl(["call"] + fixture.object + ["MakeString", "u", "1048576"])
            #expect(tool.status == 0)
            #expect(tool.output.utf8.count > 1 << 20)
        }

        @Test func vardictWithEveryVariantType() throws {
            let fixture = try BusFixture()
            let record = try fixture.client.getProperty(
                destination: TestServiceProcess.name, path: TestServiceProcess.path,
                interface: TestServiceProcess.interface, name: "Record")
            let dictionary = try #require(record.vardictValue)
            #expect(dictionary["uint64"] == .uint64(.max))
            #expect(dictionary["path"] == .objectPath("/org/example/Thing"))
            #expect(dictionary["variant"] == .variant(.int32(7)))
            #expect(dictionary["nested"]?.vardictValue?["inner"]?.vardictArrayValue?.count == 2)
            #expect(try fixture.call("Echo", [record]) == [record])

            let busctl = try fixture.busctl(["get-property"] + fixture.object + ["Record"])
            #expect(busctl.status == 0)
            for fragment in [
                "\"byte\" y 255", "\"int64\" x -9223372036854775808", "\"double\" d -1.5", "\"signature\" g \"a{sv}\"",
                "\"struct\" (is) 1 \"one\"", "\"inner\" aa{sv} 2",
            ] {
                #expect(busctl.output.contains(fragment), "busctl output lacks \(fragment)")
            }
            let gdbus = try fixture.gdbus(
                "call",
                [
                    "--dest", TestServiceProcess.name, "--object-path", TestServiceProcess.path,
                    "--method", "org.freedesktop.DBus.Properties.Get", TestServiceProcess.interface, "Record",
                ])
            #expect(gdbus.status == 0)
            #expect(gdbus.output.contains("'uint64': <uint64 18446744073709551615>"))
        }

        @Test func cliToolsRoundTrip() throws {
            let fixture = try BusFixture()
            let busctl = try fixture.busctl(
                ["call", "--"] + fixture.object + [
                    "Echo", "ynqiuxtdsogb(sv)", "7", "-3", "4", "-5", "6", "-7", "8", "0.25", "s p", "/p", "as", "true",
                    "x", "u", "9",
                ])
            #expect(busctl.status == 0)
            #expect(
                busctl.output.trimmingCharacters(in: .whitespacesAndNewlines)
                    == "ynqiuxtdsogb(sv) 7 -3 4 -5 6 -7 8 0.25 \"s p\" \"/p\" \"as\" true \"x\" u 9")

            let gdbus = try fixture.gdbus(
                "call",
                [
                    "--dest", TestServiceProcess.name, "--object-path", TestServiceProcess.path,
                    "--method", "\(TestServiceProcess.interface).EchoString", "grüß",
                ])
            #expect(gdbus.status == 0)
            #expect(gdbus.output.contains("('grüß',)"))

            let send = try fixture.dbusSend([
                "--dest=\(TestServiceProcess.name)", TestServiceProcess.path, "\(TestServiceProcess.interface).Add",
                "int32:40", "int32:2",
            ])
            #expect(send.status == 0)
            #expect(send.output.contains("int32 42"))
        }

        @Test func invalidValuesAreRejectedBeforeLibdbus() throws {
            let invalid: [DBusValue] = [
                .string("nul\0inside"), .objectPath("no/leading/slash"), .objectPath("/trailing/"), .signature("a{"),
                .array(elementSignature: "s", [.int32(1)]), .structure([]),
                .dictionary(keySignature: "v", valueSignature: "s", []),
                .unixFD(-1),
            ]
            for value in invalid {
                #expect(throws: DBusError.self) { try value.validate() }
                let message = try Message.methodCall(
                    destination: "org.example.X", path: "/x", interface: nil, member: "M")
                #expect(throws: DBusError.self) { try message.append([value]) }
            }
            var tooDeep: DBusValue = .bool(true)
            for _ in 0..<70 { tooDeep = .variant(tooDeep) }
            #expect(throws: DBusError.self) { try tooDeep.validate() }
            #expect(throws: DBusError.self) {
                try Message.methodCall(destination: "bad..name", path: "/x", interface: nil, member: "M")
            }
            #expect(throws: DBusError.self) {
                try Message.methodCall(destination: nil, path: "//", interface: nil, member: "M")
            }
            #expect(throws: DBusError.self) {
                try Message.methodCall(destination: nil, path: "/x", interface: "noDots", member: "M")
            }
            #expect(throws: DBusError.self) { try Message.signal(path: "/x", interface: "a.b", name: "1bad") }
        }
    }
}
