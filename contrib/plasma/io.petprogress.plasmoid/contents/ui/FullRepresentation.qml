/*
 * The popup: a small Today screen. The pet line and its bar, the recovery and clock notices with
 * Hide, the day's open tasks each with Done and Snooze, Undo, Add task (petctl's forgiving time
 * input, timeinput.js) and Open Today. Every control has an accessible name.
 */
import QtQuick
import QtQuick.Layouts
import QtQuick.Controls as QQC2
import org.kde.plasma.plasmoid
import org.kde.plasma.components as PlasmaComponents3
import org.kde.plasma.extras as PlasmaExtras
import org.kde.kirigami as Kirigami

import "../code/clock.js" as Clock
import "../code/timeinput.js" as TimeInput

PlasmaExtras.Representation {
    id: full

    // At least what the content needs: a window (plasmawindowed, the desktop) is made this size.
    Layout.minimumWidth: Kirigami.Units.gridUnit * 22
    Layout.preferredWidth: Kirigami.Units.gridUnit * 22
    Layout.minimumHeight: Math.min(column.implicitHeight, Kirigami.Units.gridUnit * 30) + Kirigami.Units.largeSpacing * 2
    Layout.preferredHeight: Layout.minimumHeight

    readonly property var entry: root.running ? root.entry : null
    /** What the time field reads as, resolved on the daemon's clock: {time} or {error}. */
    readonly property var typed: TimeInput.resolve(TimeInput.parse(timeField.text), root.daemonNow > 0 ? root.daemonNow : Date.now() / 1000,
                                                   Number(root.status.open_day_end) || 0, TimeInput.localWallTime)

    Component.onCompleted: root.shownPopup = full
    Component.onDestruction: if (root.shownPopup === full) root.shownPopup = null

    function timeSentence(kind) {
        switch (kind) {
        case "range": return i18nc("@info", "%1 is not a time of day: hours run 0–23 (1–12 with am/pm), minutes 00–59.", timeField.text.trim());
        case "relative": return i18nc("@info", "%1 must be between +1m and +24h.", timeField.text.trim());
        case "pastEnd": return i18nc("@info", "That is past the end of today: plan it tomorrow with petctl add --tomorrow.");
        default: return i18nc("@info", "Type a time such as 14:30, 9:05, 0930, 7pm, 7:05pm, 19h, 19h05, +20m or +1h30m.");
        }
    }
    /** The line under Add task: what the time reads as, or what to type. */
    readonly property string addHint: {
        if (timeField.text.trim() === "")
            return titleField.text.trim() !== "" ? i18nc("@info", "Type a time.") : "";
        if (typed.error !== undefined)
            return timeSentence(typed.error);
        return titleField.text.trim() !== "" ? i18nc("@info", "At %1.", Clock.clockTime(typed.time, Qt.locale())) : i18nc("@info", "At %1: type a title.", Clock.clockTime(typed.time, Qt.locale()));
    }
    readonly property bool canAdd: typed.time !== undefined && titleField.text.trim() !== "" && root.running

    function add() {
        if (!canAdd)
            return;
        // A relative time counts from the click, on the daemon's clock as it stands then.
        const fresh = TimeInput.resolve(TimeInput.parse(timeField.text), root.daemonClock(),
                                        Number(root.status.open_day_end) || 0, TimeInput.localWallTime);
        if (fresh.time === undefined)
            return;
        root.addTask(titleField.text.trim().substring(0, 200), fresh.time);
        titleField.text = "";
        timeField.text = "";
    }

    ColumnLayout {
        id: column
        anchors.fill: parent
        spacing: Kirigami.Units.smallSpacing

        // The pet line and its bar.
        RowLayout {
            Layout.fillWidth: true
            spacing: Kirigami.Units.largeSpacing
            Kirigami.Icon {
                source: full.entry && full.entry.icon_name ? full.entry.icon_name : "petprogress-tadpole"
                opacity: full.entry ? 1 : 0.5
                Layout.preferredWidth: Kirigami.Units.iconSizes.large
                Layout.preferredHeight: Kirigami.Units.iconSizes.large
                Accessible.ignored: true
            }
            ColumnLayout {
                Layout.fillWidth: true
                spacing: Kirigami.Units.smallSpacing
                PlasmaExtras.Heading {
                    level: 4
                    Layout.fillWidth: true
                    wrapMode: Text.Wrap
                    text: full.entry ? i18nc("@title form · position · XP", "%1 · stage %2 of %3 · %4", root.formName(full.entry.stage_name),
                                             full.entry.stage_index + 1, full.entry.stage_count, root.xpText(full.entry))
                        : root.known ? i18n("Pet Progress is not running.") : i18n("Pet Progress is starting…")
                    Accessible.name: text
                }
                PlasmaComponents3.ProgressBar {
                    Layout.fillWidth: true
                    visible: full.entry !== null
                    from: 0
                    to: 1
                    value: full.entry ? Math.max(0, Math.min(1, Number(full.entry.progress) || 0)) : 0
                    Accessible.name: i18nc("@info progress to the next form", "Progress to the next form: %1 %", Math.round(value * 100))
                }
                PlasmaComponents3.Label {
                    Layout.fillWidth: true
                    wrapMode: Text.Wrap
                    visible: full.entry !== null
                    text: full.entry ? i18np("%2 of %1 task done today.", "%2 of %1 tasks done today.", full.entry.tasks_total || 0, full.entry.tasks_done || 0)
                                       + (root.restDay ? " " + i18n("Rest day: unfinished tasks cost nothing today.") : "") : ""
                    Accessible.name: text
                }
            }
        }

        // The recovery and clock notices, with Hide (AcknowledgeProblems).
        Repeater {
            model: root.notices
            delegate: RowLayout {
                required property var modelData
                Layout.fillWidth: true
                PlasmaComponents3.Label {
                    Layout.fillWidth: true
                    wrapMode: Text.Wrap
                    color: Kirigami.Theme.neutralTextColor
                    text: "⚠ " + modelData.text
                    Accessible.name: i18nc("@info", "Warning: %1", modelData.text)
                }
                PlasmaComponents3.Button {
                    text: i18nc("@action:button hides the notice", "Hide")
                    Accessible.name: modelData.kind === "clock" ? i18nc("@action:button", "Hide the notice about the clock")
                                                                : i18nc("@action:button", "Hide the notice about the recovered state file")
                    onClicked: root.hideNotices()
                }
            }
        }

        Kirigami.Separator { Layout.fillWidth: true }

        // The day's open tasks.
        PlasmaComponents3.Label {
            Layout.fillWidth: true
            visible: full.entry !== null && root.tasks.length === 0
            wrapMode: Text.Wrap
            text: !full.entry ? "" : !full.entry.tasks_total ? i18n("No tasks planned today.")
                : i18np("All %1 task done.", "All %1 tasks done.", full.entry.tasks_total)
            Accessible.name: text
        }
        // The one part that gives way: in a window smaller than the content (a popup held to the
        // screen, a widget on the desktop sized by hand, plasmawindowed's window, which keeps the
        // size it opened with) the list scrolls, and the pet line and Add task stay whole.
        QQC2.ScrollView {
            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.minimumHeight: Math.min(taskColumn.implicitHeight, Kirigami.Units.gridUnit * 2)
            Layout.preferredHeight: Math.min(taskColumn.implicitHeight, Kirigami.Units.gridUnit * 12)
            Layout.maximumHeight: Layout.preferredHeight
            visible: root.tasks.length > 0
            ColumnLayout {
                id: taskColumn
                width: full.width - Kirigami.Units.largeSpacing
                spacing: Kirigami.Units.smallSpacing
                Repeater {
                    model: root.tasks
                    delegate: RowLayout {
                        id: row
                        required property var modelData
                        readonly property bool overdue: modelData.overdue === true
                        readonly property bool due: !overdue && modelData.due === true
                        readonly property string marks: [modelData.snoozed_until > 0 ? i18nc("@info", "snoozed from %1", Clock.clockTime(modelData.time, Qt.locale())) : "",
                                                         overdue ? i18nc("@info task mark", "overdue") : due ? i18nc("@info task mark", "due") : ""]
                                                        .filter(m => m !== "").join(", ")
                        readonly property string line: Clock.clockTime(modelData.effective_time, Qt.locale()) + "  " + modelData.title + (marks ? " (" + marks + ")" : "")
                        Layout.fillWidth: true
                        PlasmaComponents3.Label {
                            Layout.fillWidth: true
                            elide: Text.ElideRight
                            text: row.line
                            font.bold: modelData.is_next === true
                            color: row.overdue ? Kirigami.Theme.negativeTextColor : row.due ? Kirigami.Theme.neutralTextColor : Kirigami.Theme.textColor
                            Accessible.name: row.line
                        }
                        PlasmaComponents3.Button {
                            icon.name: "checkmark"
                            text: i18nc("@action:button", "Done")
                            Accessible.name: i18nc("@action:button", "Done: %1", row.line)
                            onClicked: root.markDone(row.modelData.id)
                        }
                        PlasmaComponents3.Button {
                            icon.name: "chronometer"
                            text: i18nc("@action:button", "Snooze")
                            Accessible.name: i18nc("@action:button", "Snooze: %1", row.line)
                            onClicked: root.snooze(row.modelData.id)
                        }
                    }
                }
            }
        }

        PlasmaComponents3.Button {
            visible: root.running && root.lastDone !== null
            icon.name: "edit-undo"
            text: root.lastDone ? i18nc("@action:button", "Undo “%1”", root.lastDone.title) : ""
            Accessible.name: text
            onClicked: root.undo(root.lastDone.id)
        }

        Kirigami.Separator { Layout.fillWidth: true }

        // Add task.
        RowLayout {
            Layout.fillWidth: true
            enabled: root.running
            PlasmaComponents3.TextField {
                id: timeField
                Layout.preferredWidth: Kirigami.Units.gridUnit * 5
                placeholderText: i18nc("@info:placeholder", "Time")
                maximumLength: 32
                Accessible.name: i18nc("@label", "Time, such as 14:30, 7pm or +20m")
                onAccepted: full.add()
            }
            PlasmaComponents3.TextField {
                id: titleField
                Layout.fillWidth: true
                placeholderText: i18nc("@info:placeholder", "Title")
                maximumLength: 200
                Accessible.name: i18nc("@label", "Title")
                onAccepted: full.add()
            }
            PlasmaComponents3.Button {
                icon.name: "list-add"
                text: i18nc("@action:button", "Add task")
                enabled: full.canAdd
                Accessible.name: i18nc("@action:button", "Add task")
                onClicked: full.add()
            }
        }
        PlasmaComponents3.Label {
            Layout.fillWidth: true
            visible: text !== ""
            wrapMode: Text.Wrap
            text: root.message !== "" ? root.message : full.addHint
            color: root.message !== "" && root.messageIsError || full.typed.error !== undefined && timeField.text.trim() !== ""
                ? Kirigami.Theme.negativeTextColor : Kirigami.Theme.disabledTextColor
            Accessible.name: text
        }

        PlasmaComponents3.Button {
            Layout.alignment: Qt.AlignRight
            icon.name: "view-calendar-day"
            text: i18nc("@action:button", "Open Today")
            Accessible.name: i18nc("@action:button", "Open Today in a terminal")
            onClicked: root.openToday()
        }
    }
}
