// sni-watcher: a test StatusNotifierWatcher and host, for IntegrationTests' tray suite. Owns
// org.kde.StatusNotifierWatcher on the session bus (or --address), and prints one line per event:
//   READY                                   the name is owned
//   registered SERVICE SENDER               RegisterStatusNotifierItem, answered after reading
//                                           the item back (GetAll, as hosts do while registering)
//   props N                                 that GetAll returned N properties
//   signal MEMBER                           a signal of org.kde.StatusNotifierItem from any item
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
do {
    let connection = try address.map { try Connection(address: $0) } ?? Connection.session()
    let loop = EventLoop()
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
