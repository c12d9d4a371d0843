import DBusKit

extension PetClient {
    /// Calls of the member table (``PetBus/Methods``) sent together: one round trip where several
    /// would follow each other. The daemon answers a connection's calls in order, so a read placed
    /// before or after a change sees the day just before or just after it.
    ///
    /// ```swift
    /// var batch = PetClient.Batch()
    /// let entry = batch.add(PetBus.Methods.getWidgetEntry)
    /// let done = batch.add(PetBus.Methods.markNextDone)
    /// let replies = try client.send(batch)
    /// let (id, xp) = try replies[done]
    /// ```
    public struct Batch {
        var calls: [(member: String, out: String, arguments: [DBusValue])] = []

        public init() {}

        /// Adds a call of `member` with `arguments`; its reply is read with the ticket returned.
        public mutating func add<Arguments, Reply>(_ member: PetBus.Member<Arguments, Reply>, _ arguments: Arguments)
            -> Ticket<Reply>
        {
            calls.append((member.name, member.outSignature, member.arguments.encode(arguments)))
            return Ticket(index: calls.count - 1, reply: member.reply)
        }

        /// Adds a call of a member without arguments.
        public mutating func add<Reply>(_ member: PetBus.Member<Void, Reply>) -> Ticket<Reply> { add(member, ()) }
    }

    /// Where one call's reply sits in a batch's replies, and how it is decoded.
    public struct Ticket<Reply> {
        let index: Int
        let reply: BusFields<Reply>
    }

    /// The replies of a sent batch, each checked against its member's signature.
    public struct Replies {
        let values: [[DBusValue]]

        /// The decoded reply of the call `ticket` stands for.
        public subscript<Reply>(_ ticket: Ticket<Reply>) -> Reply {
            get throws(PetClientError) {
                do throws(BusDecodingError) { return try ticket.reply.decode(values[ticket.index]) } catch {
                    throw .malformedReply(error)
                }
            }
        }
    }

    /// Sends every call of `batch` at once, then awaits each reply in order; the first error reply,
    /// in the batch's order, is thrown as that call's own.
    public func send(_ batch: Batch) throws(PetClientError) -> Replies {
        Replies(values: try rawCalls(batch.calls))
    }
}
