import PetCore
import PropertyBased
import Testing

/// The visible-snapshot rule against a model: a user acting at random moments (adding, doing and
/// undoing tasks), the daemon sometimes stopped for hours or days, time moving forward in one
/// zone. Every snapshot must be the live pet as of its tick: after every closeout dated at or
/// before the tick and every action strictly before it, and nothing later.
@Suite struct SnapshotPropertyTests {
    /// Something that changed the live pet, in the order it happened.
    struct Change {
        let time: Instant
        let isCloseout: Bool
        let pet: PetState
    }

    static func pet(asOf tick: Instant, changes: [Change], initial: PetState) -> PetState {
        changes.last { $0.isCloseout ? $0.time <= tick : $0.time < tick }?.pet ?? initial
    }

    struct Step: Sendable {
        let minutes: Int
        let action: Int
        let startingUp: Bool
        let hhmm: Int
    }

    /// One step from one integer: minutes to advance (mostly under 3 hours, sometimes days), an
    /// action, a restart now and then, and a task time.
    static let stepGen = Gen.int(in: 0...(1801 * 10 * 20 * 1440 - 1)).map { code -> Step in
        let raw = code % 1801
        let action = code / 1801 % 10
        let startup = code / 18010 % 20
        let hhmm = code / 360_200
        let minutes = raw < 1500 ? raw % 180 : raw - 1500 + (raw % 7) * 1440
        return Step(minutes: minutes, action: action, startingUp: startup == 0, hhmm: hhmm)
    }

    @Test func everySnapshotIsTheLivePetAsOfItsTick() async {
        let zones = ["UTC", "Asia/Kathmandu", "Europe/Berlin", "Australia/Lord_Howe", "America/St_Johns"]
        let resets = ["00:00", "04:30", "23:15", "02:30"]
        await propertyCheck(
            count: 120, input: Gen.int(in: 0...(zones.count - 1)), Gen.int(in: 0...(resets.count - 1)),
            Gen.int64(in: 1_767_225_600...1_798_761_600), Self.stepGen.array(of: 1...60)
        ) { z, r, start, steps in
            guard let zone = SystemZones.zone(zones[z]) else { return }
            var settings = Settings()
            settings.resetTime = WallTime(parsing: resets[r]) ?? .midnight
            var ctx = Context(now: start, zone: zone)
            var world = PetWorld(now: start, zone: zone, settings: settings)
            world.openingPet = PetState(stageIndex: 1, stageXP: 15)
            let initial = world.openingPet
            var changes: [Change] = []
            var previousTick: Instant?
            for (n, step) in steps.enumerated() {
                ctx.now += Instant(step.minutes * 60)
                let startingUp = n == 0 || step.startingUp
                let result = world.catchUp(ctx, startingUp: startingUp)
                changes += result.closeouts.map { Change(time: $0.date, isCloseout: true, pet: $0.petAfter) }
                guard let snap = world.snapshot else {
                    Issue.record("no snapshot after catchUp")
                    return
                }
                let label = "\(zones[z]) reset \(resets[r]) step \(n) at \(ctx.now)"
                #expect(snap.tick == Ticks.latest(atOrBefore: ctx.now, zone: zone), "\(label)")
                #expect(snap.pet == Self.pet(asOf: snap.tick, changes: changes, initial: initial), "\(label)")
                let moved = previousTick.map { snap.tick > $0 } ?? false
                #expect(result.emitEntryChanged == (moved && !startingUp), "\(label)")
                #expect(
                    result.nextWake > ctx.now && result.nextWake <= Ticks.next(after: ctx.now, zone: zone), "\(label)")
                previousTick = snap.tick

                act(step, on: &world, ctx)
                let live = world.livePet(.builtIn)
                if live != (changes.last?.pet ?? initial) {
                    changes.append(Change(time: ctx.now, isCloseout: false, pet: live))
                }
            }
        }
    }

    /// One user action; rejected ones change nothing.
    func act(_ step: Step, on world: inout PetWorld, _ ctx: Context) {
        let time =
            "\(step.hhmm / 60 < 10 ? "0" : "")\(step.hhmm / 60):\(step.hhmm % 60 < 10 ? "0" : "")\(step.hhmm % 60)"
        switch step.action {
        case 0, 1: _ = try? world.addTask(title: "t", time: time, ctx)
        case 2: _ = try? world.addTask(title: "t", time: time, day: "tomorrow", ctx)
        case 3, 4, 5: _ = try? world.markNextDone(ctx)
        case 6:
            if let done = world.tasks.filter(\.isDone).last { try? world.undo(id: done.id) }
        default: break
        }
    }
}
