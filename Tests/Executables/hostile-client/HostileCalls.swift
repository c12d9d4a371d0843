import DBusKit

/// Generates the hostile calls: random members, interfaces, paths and argument signatures, and the
/// daemon's own members with the right signature but values that must be refused.
///
/// Every call is built so that it cannot succeed as a change (petprogress(7) §6.1: a rejected call changes
/// nothing), on a daemon whose open day has no pending task: mutating members get an id that does
/// not exist, a time that is not `HH:MM`, a malformed day or a setting out of range. Reads may
/// succeed. A mutation that succeeds anyway is counted, and the test fails on it.
struct HostileCalls {
    static let destination = "io.petprogress.PetProgress1"
    static let path = "/io/petprogress/PetProgress1"
    static let interface = "io.petprogress.PetProgress1"
    static let properties = "org.freedesktop.DBus.Properties"

    /// The daemon's methods and their argument signatures (petprogress(7) §6.1).
    static let members: [(name: String, signature: String)] = [
        ("GetWidgetEntry", ""), ("GetTimeline", ""), ("MarkNextDone", ""), ("SnoozeNext", ""), ("MarkDone", "s"),
        ("Undo", "s"), ("Snooze", "s"), ("AddTask", "ss"), ("AddTaskFor", "ssss"), ("UpdateTask", "sss"),
        ("DeleteTask", "s"), ("ListTasks", "s"), ("ListTemplates", ""), ("GetPet", ""), ("SetRest", "ssb"),
        ("ListRestDays", ""), ("GetHistory", "ss"), ("GetStatus", ""),
    ]
    /// Members whose success changes data.
    static let mutating: Set<String> = [
        "MarkNextDone", "SnoozeNext", "MarkDone", "Undo", "Snooze", "AddTask", "AddTaskFor", "UpdateTask",
        "DeleteTask", "SetRest", "Set",
    ]
    static let otherInterfaces: [(String, [String])] = [
        (properties, ["Get", "GetAll", "Set"]), ("org.freedesktop.DBus.Peer", ["Ping", "GetMachineId"]),
        ("org.freedesktop.DBus.Introspectable", ["Introspect"]),
    ]
    static let settings = ["ResetTime", "GraceMinutes", "SnoozeMinutes", "Rollover", "WidgetEntry"]

    let values: RandomValue
    var text: RandomText { values.text }

    /// The next call.
    func next(_ random: inout SeededRandom) throws -> Message {
        if random.oneIn(2) { return try rightSignature(&random) }
        let path = random.oneIn(4) ? RandomText.path(&random) : Self.path
        let interface: String?
        let member: String
        switch Int.random(in: 0..<10, using: &random) {
        case 0...3:
            interface = Self.interface
            member = random.oneIn(4) ? RandomText.member(&random) : random.pick(Self.members).name
        case 4...5:
            let (name, members) = random.pick(Self.otherInterfaces)
            interface = name
            member = random.oneIn(4) ? RandomText.member(&random) : random.pick(members)
        case 6...7:
            interface = nil
            member = random.oneIn(2) ? RandomText.member(&random) : random.pick(Self.members).name
        default:
            interface = RandomText.interface(&random)
            member = RandomText.member(&random)
        }
        let message = try Message.methodCall(
            destination: Self.destination, path: path, interface: interface, member: member)
        var arguments = (0..<Int.random(in: 0...4, using: &random)).map { _ in values.value(&random) }
        if let known = Self.members.first(where: { $0.name == member }), Self.mutating.contains(member),
            DBusValue.signature(of: arguments) == known.signature
        {
            // Random values that happen to fit a mutating member: one more makes the signature wrong.
            arguments.append(.int32(0))
        }
        if interface == Self.properties, member == "Set", DBusValue.signature(of: arguments) == "ssv" {
            arguments.append(.int32(0))
        }
        guard RandomValue.descriptors(in: arguments) <= Self.maximumDescriptors else { throw Unsendable() }
        try message.append(arguments)
        guard let size = message.wireSize, size <= Self.maximumBytes else { throw Unsendable() }
        return message
    }

    /// Calls over the bus's own limits are not sent: the bus would disconnect this client (its
    /// limit on one message is 32 MiB; descriptors per message, 16) and the daemon never see them.
    static let maximumBytes = 4 << 20
    static let maximumDescriptors = 8

    struct Unsendable: Error {}

    /// A member of the daemon with its own signature and values it must refuse (or a read).
    private func rightSignature(_ random: inout SeededRandom) throws -> Message {
        if random.oneIn(6) { return try propertyCall(&random) }
        let (member, signature) = random.pick(Self.members)
        let message = try Message.methodCall(
            destination: Self.destination, path: Self.path, interface: random.oneIn(5) ? nil : Self.interface,
            member: member)
        var arguments: [DBusValue] = []
        for (index, code) in signature.enumerated() {
            if code == "b" {
                arguments.append(.bool(random.oneIn(2)))
            } else {
                arguments.append(.string(refusedString(member, index, &random)))
            }
        }
        try message.append(arguments)
        return message
    }

    /// A string argument that makes `member` fail: no such id, a bad time, a malformed day.
    private func refusedString(_ member: String, _ index: Int, _ random: inout SeededRandom) -> String {
        switch (member, index) {
        case ("AddTask", 1), ("AddTaskFor", 1): return random.pick(RandomText.badTimes)
        case ("SetRest", 0): return "x" + text.string(&random)
        case ("MarkDone", _), ("Undo", _), ("Snooze", _), ("DeleteTask", _), ("UpdateTask", 0):
            // Ids are day digits or `t-` and a number: an `x` after the number can never be one.
            return random.pick(["20260302-9999x", "t-9999x", "20260303-9999x", "x"]) + text.string(&random)
        default: return text.string(&random)
        }
    }

    /// Properties.Get, GetAll and Set with values no setting accepts.
    private func propertyCall(_ random: inout SeededRandom) throws -> Message {
        let member = random.pick(["Get", "GetAll", "Set"])
        let message = try Message.methodCall(
            destination: Self.destination, path: Self.path, interface: Self.properties, member: member)
        let interface = random.oneIn(4) ? text.string(&random) : Self.interface
        let name = random.oneIn(4) ? text.string(&random) : random.pick(Self.settings)
        switch member {
        case "GetAll": try message.append([.string(interface)])
        case "Get": try message.append([.string(interface), .string(name)])
        default: try message.append([.string(interface), .string(name), .variant(refusedSetting(name, &random))])
        }
        return message
    }

    private func refusedSetting(_ name: String, _ random: inout SeededRandom) -> DBusValue {
        switch name {
        case "GraceMinutes":
            return random.pick([.uint32(721), .uint32(.max), .int32(-1), .int32(721), .int64(30), .string("30")])
        case "SnoozeMinutes":
            return random.pick([.uint32(0), .uint32(241), .int32(-5), .bool(true), .double(15)])
        case "ResetTime":
            return random.oneIn(3) ? .int32(430) : .string(random.pick(RandomText.badTimes))
        case "Rollover":
            return random.pick([.string("true"), .int32(1), .byte(1)])
        default:
            return values.value(&random)
        }
    }
}
