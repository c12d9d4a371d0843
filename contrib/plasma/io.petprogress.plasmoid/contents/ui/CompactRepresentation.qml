/*
 * In the panel: the pet's symbolic icon at the panel's thickness and X/Y, and the next task where
 * there is room (a horizontal panel, or the desktop); X/Y in the theme's neutral colour while the
 * next task is due, in its negative colour (and with "!") while it is overdue.
 */
import QtQuick
import QtQuick.Layouts
import org.kde.plasma.plasmoid
import org.kde.plasma.core as PlasmaCore
import org.kde.plasma.components as PlasmaComponents3
import org.kde.kirigami as Kirigami

MouseArea {
    id: compact

    readonly property bool vertical: Plasmoid.formFactor === PlasmaCore.Types.Vertical
    readonly property bool horizontal: Plasmoid.formFactor === PlasmaCore.Types.Horizontal
    readonly property color stateColor: root.overdue ? Kirigami.Theme.negativeTextColor
        : root.due ? Kirigami.Theme.neutralTextColor : Kirigami.Theme.textColor
    property bool wasExpanded: false

    Layout.minimumWidth: vertical ? Kirigami.Units.iconSizes.small : layout.implicitWidth
    Layout.minimumHeight: vertical ? layout.implicitHeight : Kirigami.Units.iconSizes.small
    Layout.preferredWidth: Layout.minimumWidth
    Layout.preferredHeight: Layout.minimumHeight

    hoverEnabled: true
    acceptedButtons: Qt.LeftButton
    activeFocusOnTab: true
    onPressed: wasExpanded = root.expanded
    onClicked: root.expanded = !wasExpanded
    Keys.onPressed: event => {
        if (event.key === Qt.Key_Space || event.key === Qt.Key_Enter || event.key === Qt.Key_Return || event.key === Qt.Key_Select) {
            root.expanded = !root.expanded;
            event.accepted = true;
        }
    }

    Accessible.role: Accessible.Button
    Accessible.name: i18n("Pet Progress")
    Accessible.description: root.accessibleText
    Accessible.onPressAction: root.expanded = !root.expanded

    GridLayout {
        id: layout
        anchors.fill: parent
        flow: compact.vertical ? GridLayout.TopToBottom : GridLayout.LeftToRight
        columnSpacing: Kirigami.Units.smallSpacing
        rowSpacing: 0

        Kirigami.Icon {
            id: icon
            source: root.iconName
            // The symbolic drawings are filled #bebebe, which GNOME recolours and Plasma does not
            // (it recolours only SVGs styled with its classes): drawn as a mask in the panel's text
            // colour, the pet reads like the panel's other icons, in light and dark themes alike.
            isMask: true
            color: Kirigami.Theme.textColor
            active: compact.containsMouse
            opacity: root.running ? 1 : 0.5
            // The panel's thickness: its height in a horizontal panel, its width in a vertical one.
            readonly property real side: compact.vertical ? compact.width
                : compact.horizontal ? compact.height : Kirigami.Units.iconSizes.medium
            Layout.preferredWidth: side
            Layout.preferredHeight: side
            Layout.alignment: Qt.AlignCenter
        }
        PlasmaComponents3.Label {
            id: count
            text: root.countText
            color: compact.stateColor
            font.bold: root.overdue
            font.pixelSize: compact.vertical ? Kirigami.Theme.smallFont.pixelSize : Kirigami.Theme.defaultFont.pixelSize
            Layout.alignment: Qt.AlignCenter
            Accessible.ignored: true
        }
        PlasmaComponents3.Label {
            id: next
            visible: !compact.vertical && root.nextText !== ""
            text: root.nextText
            color: compact.stateColor
            elide: Text.ElideRight
            Layout.maximumWidth: Kirigami.Units.gridUnit * 10
            Layout.alignment: Qt.AlignCenter
            Accessible.ignored: true
        }
    }
}
