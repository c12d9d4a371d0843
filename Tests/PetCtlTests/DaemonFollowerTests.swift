import PetBus
import PetCore
import Testing

@testable import petctl

/// What `watch`, the interactive Today screen and the tray share: the daemon's signals as events,
/// and the tray tooltip's escaping, which is the panels' Pango escaping.
@Suite struct DaemonFollowerTests {
    static let pet = PetView(
        stageIndex: 2, stageCount: 20, stageName: "Frog", stageXP: 12, threshold: 30, progress: 0.4, isFinal: false,
        iconName: "petprogress-frog", iconPath: "", glyph: "🐸")
    static let entry = WidgetEntry(
        date: 1_772_456_400, nextDate: 1_772_460_000, dayKey: "2026-03-02", pet: pet, tasksDone: 1, tasksTotal: 5,
        nextTaskID: "", nextTaskTitle: "", nextTaskTime: "", nextTaskOverdue: false, upcoming: [], restDay: false,
        accessibleText: "")

    @Test func eachSignalMakesOneEventAndPropertiesChangedNone() {
        #expect(DaemonFollower.event(.entryChanged(Self.entry)) == .entryChanged(Self.entry))
        #expect(DaemonFollower.event(.tasksChanged) == .tasksChanged)
        // It always comes with one of the other two: a second event would be a second refresh (in
        // `watch`, a second line).
        #expect(DaemonFollower.event(.propertiesChanged(names: ["WidgetEntry"], widgetEntry: Self.entry)) == nil)
        #expect(DaemonFollower.event(.propertiesChanged(names: ["DayResetTime"], widgetEntry: nil)) == nil)
    }

    @Test func theTrayTooltipEscapesATitleAsWaybarsTextDoes() {
        var state = TrayState(clock: ClockStyle(twelveHour: false, columnWidth: 5))
        state.running = true
        state.tasksTotal = 2
        state.upcoming = [TrayTask(id: "1", time: "09:00", title: "<b>Tax</b> & \"bills\"")]
        let title = Escaping.pango("<b>Tax</b> & \"bills\"")
        #expect(title == "&lt;b&gt;Tax&lt;/b&gt; &amp; \"bills\"")
        #expect(state.toolTipText.hasSuffix("09:00 " + title))
    }
}
