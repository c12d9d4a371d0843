// sni-watcher: a test StatusNotifierWatcher and host, for IntegrationTests' tray suite. Owns
// org.kde.StatusNotifierWatcher on the session bus (or --address), and prints one line per event:
//   READY                                   the name is owned
//   registered SERVICE SENDER               RegisterStatusNotifierItem, answered after reading
//                                           the item back (GetAll, as hosts do while registering)
//   props N                                 that GetAll returned N properties
//   signal MEMBER                           a signal of org.kde.StatusNotifierItem from any item
// With --gnome-shell STATE it plays GNOME Shell instead, without a tray: it owns org.gnome.Shell
// and answers org.gnome.Shell.Extensions.GetExtensionInfo with that extension state (1 active,
// 2 disabled; 0 for an empty answer: not installed), printing READY.
import DBusKit
import Glibc
import LinuxKit

func say(_ line: String) {
    _ = (line + "\n").utf8CString.withUnsafeBufferPointer { write(1, $0.baseAddress, $0.count - 1) }
}

let arguments = CommandLine.arguments
let address = arguments.firstIndex(of: "--address").flatMap {
    arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
let shellState = arguments.firstIndex(of: "--gnome-shell").flatMap {
    arguments.indices.contains($0 + 1) ? Double(arguments[$0 + 1]) : nil
}
do {
    let connection = try address.map { try Connection(address: $0) } ?? Connection.session()
    let loop = EventLoop()
    if let shellState {
        let extensions = ExportedObject.Interface(
            "org.gnome.Shell.Extensions",
            methods: [
                ExportedObject.Method("GetExtensionInfo", in: "s", out: "a{sv}") { call in
                    say("asked \(try call.string(0))")
                    return [.vardict(shellState == 0 ? [] : [("state", .double(shellState))])]
                }
            ])
        try connection.export(
            ExportedObject(path: "/org/gnome/Shell", interfaces: [extensions], introspectionXML: "<node/>"))
        try loop.add(connection)
        try connection.requestName("org.gnome.Shell")
        say("READY")
        _ = loop.run()
        exit(0)
    }
    var items: [String] = []
    let watcher = ExportedObject.Interface(
        "org.kde.StatusNotifierWatcher",
        methods: [
            ExportedObject.Method("RegisterStatusNotifierItem", in: "s") { call in
                let service = try call.string(0)
                let sender = call.sender ?? ""
                items.append(service)
                say("registered \(service) \(sender)")
                // A host reads the item back at once, while the item waits for this reply.
                let get = try Message.methodCall(
                    destination: sender, path: "/StatusNotifierItem", interface: "org.freedesktop.DBus.Properties",
                    member: "GetAll")
                try get.append([.string("org.kde.StatusNotifierItem")])
                try connection.send(get, timeout: .seconds(10)) { reply in
                    let count = (try? reply.arguments())?.first?.dictionaryEntries?.count ?? -1
                    say("props \(count)")
                }
                return []
            },
            ExportedObject.Method("RegisterStatusNotifierHost", in: "s") { _ in [] },
        ],
        properties: [
            ExportedObject.Property("RegisteredStatusNotifierItems", signature: "as") { .stringArray(items) },
            ExportedObject.Property("IsStatusNotifierHostRegistered", signature: "b") { .bool(true) },
            ExportedObject.Property("ProtocolVersion", signature: "i") { .int32(0) },
        ])
    try connection.export(
        ExportedObject(path: "/StatusNotifierWatcher", interfaces: [watcher], introspectionXML: "<node/>"))
    try loop.add(connection)
    _ = try connection.subscribe(MatchRule(interface: "org.kde.StatusNotifierItem")) { message in
        say("signal \(message.member ?? "")")
    }
    try connection.requestName("org.kde.StatusNotifierWatcher")
    say("READY")
    _ = loop.run()
    exit(0)
} catch {
    say("sni-watcher: \(error)")
    exit(1)
}
