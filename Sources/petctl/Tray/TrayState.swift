import PetCore

/// What the tray item shows, from the daemon's replies and signals (petprogress(7) §8).
///
/// The pet part changes only through ``showPet(_:)``, which the tray calls on `EntryChanged` (the
/// hourly tick) and when the daemon appears; the task part follows every `TasksChanged` at once.
struct TrayState: Equatable {
    /// How the locale writes a task's time.
    let clock: ClockStyle
    /// The pet of the last tick; nil before the daemon was first seen.
    var pet: PetView?
    /// The daemon's name has an owner.
    var running = false
    /// The GNOME Shell extension shows the pet already: the item asks hosts to hide it.
    var hidden = false
    /// The Plasma widget sits in one of this Plasma session's panels (``PlasmaLayout``): hidden too.
    var widgetInPanel = false
    var tasksDone = 0
    var tasksTotal = 0
    /// Up to three not-done tasks, in order, the next first.
    var upcoming: [TrayTask] = []
    /// The most recent completion of the open day, which Undo undoes.
    var lastDone: TrayTask?
    /// One line while the clock reads more than an hour before the open day (`clock_behind`,
    /// petprogress(7) §3.1), as the Today screen says it; nil otherwise.
    var clockLine: String?

    /// The daemon went away: the pet sleeps, its tasks are not known.
    mutating func stop() {
        running = false
        tasksDone = 0
        tasksTotal = 0
        upcoming = []
        lastDone = nil
        clockLine = nil
    }

    /// The freedesktop icon name, empty while the daemon sleeps (hosts then draw the dimmed pixmap).
    var iconName: String { running ? pet?.iconName ?? "" : "" }

    /// `Status`: hosts hide a `Passive` item. Never `NeedsAttention`: this product does not nag.
    var status: String { hidden || widgetInPanel ? "Passive" : "Active" }

    var title: String { running ? "Pet Progress" : tr("Pet Progress (not running)") }

    /// The pet line: `Frog · stage 3 of 20 · 12/30 XP`.
    var petLine: String {
        guard running else { return tr("Pet Progress is not running") }
        guard let pet else { return "Pet Progress" }
        let stage = tr("stage %d of %d", pet.stageIndex + 1, pet.stageCount)
        return "\(PetText.name(pet)) · \(stage) · \(PetText.xp(pet))"
    }

    /// The Ayatana label beside the icon (Ubuntu's GNOME): `2/5`; empty while sleeping or with no tasks.
    var label: String { running && tasksTotal > 0 ? "\(tasksDone)/\(tasksTotal)" : "" }

    /// The tooltip's body: counts and the next task, as plain text with the markup SNI hosts
    /// interpret (a subset of HTML) escaped as waybar's Pango is, so a title shows as typed.
    var toolTipText: String {
        guard running else { return tr("The pet sleeps until petprogressd runs again.") }
        var lines = [trn("%d of %d done", "%d of %d done", tasksDone, tasksDone, tasksTotal)]
        if let next = upcoming.first { lines.append(tr("Next: %s", next.line(clock))) }
        return lines.map(Escaping.pango).joined(separator: "\n")
    }
}
