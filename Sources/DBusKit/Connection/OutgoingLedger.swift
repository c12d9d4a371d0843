/// Whose bytes wait in a connection's outgoing queue: each message queued, in order, with its
/// destination and the bytes it added to the queue; as libdbus writes the queue to the socket
/// (`dbus_connection_get_outgoing_size` falls), the oldest entries are written off.
///
/// It serves ``Connection/limitQueuedBytesPerDestination(_:)``: a service has one connection to
/// the bus for every caller, and the queue is written in order, so a caller that sends calls and
/// never reads the replies would otherwise fill it and make every other caller's answer wait
/// behind its own.
struct OutgoingLedger {
    private var entries: [(destination: String, bytes: Int)] = []
    private var head = 0
    private var total = 0
    private var byDestination: [String: Int] = [:]

    /// The bytes of messages to `destination` still in the queue.
    func queued(to destination: String) -> Int { byDestination[destination] ?? 0 }

    /// Writes off what libdbus has sent: the queue now holds `outgoing` bytes.
    mutating func settle(outgoing: Int) {
        var written = total - outgoing
        while written > 0, head < entries.count {
            let taken = min(written, entries[head].bytes)
            entries[head].bytes -= taken
            written -= taken
            total -= taken
            let destination = entries[head].destination
            let left = (byDestination[destination] ?? 0) - taken
            byDestination[destination] = left > 0 ? left : nil
            if entries[head].bytes == 0 { head += 1 }
        }
        if head == entries.count {
            entries.removeAll(keepingCapacity: entries.count <= 1024)
            head = 0
            total = max(0, outgoing)
        } else if head > 4096, head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }

    /// Records a message to `destination` that left `outgoing` bytes in the queue after it was
    /// queued (libdbus may have written older messages, or this one, meanwhile).
    mutating func record(_ destination: String, outgoing: Int) {
        let added = outgoing - total
        guard added > 0 else {
            settle(outgoing: outgoing)
            return
        }
        entries.append((destination, added))
        total += added
        byDestination[destination, default: 0] += added
    }
}
