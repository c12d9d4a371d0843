import Testing

@testable import petctl

/// The tray steps back where the Plasma widget is in a panel (petprogress(7) §8): what Plasma's
/// layout file (`plasma-org.kde.plasma.desktop-appletsrc`) says, as plasmashell 6 writes it.
@Suite struct PlasmaLayoutTests {
    static let panel = """
        [ActionPlugins][0]
        RightButton;NoModifier=org.kde.contextmenu

        [Containments][1]
        activityId=4a1c
        formfactor=0
        location=0
        plugin=org.kde.plasma.folder

        [Containments][2]
        formfactor=2
        location=4
        plugin=org.kde.panel

        [Containments][2][Applets][3]
        immutability=1
        plugin=org.kde.plasma.kickoff

        [Containments][2][Applets][9]
        immutability=1
        plugin=io.petprogress.plasmoid

        [Containments][2][General]
        AppletOrder=3;9
        """

    @Test func widgetInAPanel() {
        #expect(PlasmaLayout.widgetInPanel(Self.panel[...]))
    }

    @Test func widgetOnTheDesktopOnly() {
        let desktop = Self.panel.replacing("[Containments][2][Applets][9]", with: "[Containments][1][Applets][9]")
        #expect(!PlasmaLayout.widgetInPanel(desktop[...]))
    }

    @Test func widgetInTheSystemTray() {
        let tray = """
            [Containments][7]
            formfactor=2
            plugin=org.kde.plasma.private.systemtray

            [Containments][7][Applets][8]
            plugin=io.petprogress.plasmoid
            """
        #expect(PlasmaLayout.widgetInPanel(tray[...]))
    }

    @Test func noWidget() {
        #expect(!PlasmaLayout.widgetInPanel(Self.panel.replacing("plugin=io.petprogress.plasmoid", with: "plugin=org.kde.plasma.digitalclock")[...]))
        #expect(!PlasmaLayout.widgetInPanel(""))
        #expect(!PlasmaLayout.widgetInPanel("[Containments][2]\nplugin=org.kde.panel\n[[[]]]\nplugin=io.petprogress.plasmoid"))
    }

    @Test func aLayoutOnDiskThatIsNotAFile() {
        #expect(!PlasmaLayout.widgetInPanel(path: "/"))
        #expect(!PlasmaLayout.widgetInPanel(path: "/nonexistent/plasma-org.kde.plasma.desktop-appletsrc"))
    }

    @Test func groupNames() {
        #expect(PlasmaLayout.groupNames("[Containments][2][Applets][9]") == ["Containments", "2", "Applets", "9"])
    }
}
