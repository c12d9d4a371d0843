import DBusKit
import PetBus
import PetCore

/// The replies that change only when the data does: `GetWidgetEntry`, the
/// `WidgetEntry` property (`Properties.Get`) and `GetPet`, kept encoded and copied into each reply.
///
/// The service drops them whenever its world or zone changes: a mutation (settings and rest days
/// included), a closeout, a tick, a catch-up after a clock jump, a zone change. The entry's only
/// time-dependent parts are each pending task's due and overdue flags, so a kept entry also carries
/// the span of instants over which no flag flips (and its tick), and is rebuilt outside it — after
/// the next flip, or when the clock has jumped back before the last one.
final class ReplyCache {
    /// Calls answered from a kept body since start-up (`GetStatus`' `reply_cache_hits`).
    private(set) var hits: UInt64 = 0
    private var entry: KeptEntry?
    private var pet: EncodedBody?

    private struct KeptEntry {
        /// `GetWidgetEntry`'s body (`a{sv}`).
        let reply: EncodedBody
        /// `Properties.Get`'s body (a `v` holding the entry).
        let property: EncodedBody
        /// The instants at which this entry is still the one computed afresh.
        let valid: ClosedRange<Instant>
    }

    /// Forgets every kept reply.
    func invalidate() {
        entry = nil
        pet = nil
    }

    /// `GetWidgetEntry`'s body.
    func widgetEntry(_ service: PetService) throws -> EncodedBody { try keptEntry(service).reply }

    /// `Properties.Get`'s body for `WidgetEntry`.
    func widgetEntryProperty(_ service: PetService) throws -> EncodedBody { try keptEntry(service).property }

    /// `GetPet`'s body (`a{sv}`): the live pet, which only a change of the world changes.
    func pet(_ service: PetService) throws -> EncodedBody {
        if let pet {
            hits += 1
            return pet
        }
        let view = service.pet()
        let body = try PetBus.Methods.getPet.reply.encoded(view)
        pet = body
        return body
    }

    /// The kept entry when it is still valid at the service's instant, else a fresh one, kept.
    private func keptEntry(_ service: PetService) throws -> KeptEntry {
        if let kept = entry, kept.valid.contains(service.now) {
            hits += 1
            return kept
        }
        let fresh = service.widgetEntry()
        let kept = KeptEntry(
            reply: try PetBus.Methods.getWidgetEntry.reply.encoded(fresh),
            property: try EncodedBody { body in body.variantOfVardict { fresh.encode(into: &$0) } },
            valid: Self.validity(fresh, service.world.tasks, service.world.openDayRule, service.now))
        entry = kept
        return kept
    }

    /// The instants around `now` at which no pending task's due or overdue flag differs from its
    /// value at `now` (each flag is set from its instant in `rule` on), within the entry's tick.
    static func validity(
        _ entry: WidgetEntry, _ tasks: [TaskItem], _ rule: DueRule, _ now: Instant
    ) -> ClosedRange<Instant> {
        var lower = entry.date
        var upper = entry.nextDate - 1
        for task in tasks where !task.isDone {
            for flip in [rule.dueAt(task), rule.overdueAt(task)].compactMap({ $0 }) {
                if flip <= now {
                    lower = max(lower, flip)
                } else {
                    upper = min(upper, flip - 1)
                }
            }
        }
        // An entry computed before its tick (a clock set back) is valid at `now` only.
        return min(lower, now)...max(upper, now)
    }
}
