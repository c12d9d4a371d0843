import DBusKit
import LinuxKit

/// The daemon's answer to a flood (petprogress(7) §6): each caller's unwritten answers are
/// bounded in the connection's outgoing queue, and the memory a burst of answers took is given
/// back once the queue has emptied (docs/DECISIONS.md, "Floods").
struct OutgoingBurst {
    /// The bytes of answers to one caller that may wait to be written before its further calls
    /// wait for them: four timelines of 150 tasks. A caller that reads its replies sees them
    /// written at once and never waits; the bus reads the daemon's queue at about 2 MB/s while it
    /// forwards a flood, so a well-behaved caller's answer waits a few milliseconds behind a
    /// flooding caller's, not seconds.
    static let queuedBytesPerCaller = 64 << 10
    /// A queue this long counts as a burst, after which freed memory is given back.
    static let burstBytes = 1 << 18

    private var burst = false

    /// Sets the limit on `connection` and gives memory back after each burst.
    static func install(on connection: Connection) {
        connection.limitQueuedBytesPerDestination(queuedBytesPerCaller)
        var tracker = OutgoingBurst()
        connection.onDrained { [unowned connection] in tracker.observe(queued: connection.outgoingBytes) }
    }

    /// Called each time the incoming queue is drained, with the outgoing queue's length.
    mutating func observe(queued: Int) {
        if queued >= Self.burstBytes {
            burst = true
        } else if queued == 0, burst {
            burst = false
            ProcessMemory.returnFreedMemory()
        }
    }
}
