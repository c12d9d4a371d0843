/// The tray's menu as dbusmenu items, from a ``TrayState``, with its revision.
///
/// An item's id belongs to its action for the life of the process (`Done` of one task keeps its
/// id across layouts), so a click on a menu a host drew before a change still acts on what it
/// showed, or on nothing.
struct MenuModel {
    private(set) var root = MenuItem(id: 0, label: "")
    private(set) var revision: UInt32 = 1
    private var ids: [String: Int32] = [:]
    private var lastID: Int32 = 0

    /// Rebuilds the menu; true when it changed (the revision moved on).
    mutating func update(_ state: TrayState) -> Bool {
        let new = MenuItem(id: 0, label: "", children: items(state))
        guard new != root else { return false }
        root = new
        revision &+= 1
        return true
    }

    private mutating func items(_ state: TrayState) -> [MenuItem] {
        var items = [MenuItem(id: id("pet"), label: MenuItem.literal(state.petLine), enabled: false)]
        if state.running, let clock = state.clockLine {
            items.append(MenuItem(id: id("clock"), label: MenuItem.literal("⚠ " + clock), enabled: false))
        }
        guard state.running else {
            items.append(MenuItem(id: id("start"), label: tr("_Start Pet Progress"), action: .startDaemon))
            return items
        }
        if !state.upcoming.isEmpty { items.append(MenuItem(id: id("sep-tasks"), label: "", separator: true)) }
        for task in state.upcoming {
            let children = [
                MenuItem(id: id("done:" + task.id), label: tr("_Done"), action: .done(task.id)),
                MenuItem(id: id("snooze:" + task.id), label: tr("_Snooze"), action: .snooze(task.id)),
            ]
            let label = MenuItem.literal(task.line(state.clock))
            items.append(MenuItem(id: id("task:" + task.id), label: label, children: children))
        }
        items.append(MenuItem(id: id("sep-actions"), label: "", separator: true))
        if let last = state.lastDone {
            items.append(
                MenuItem(
                    id: id("undo:" + last.id), label: tr("_Undo “%s”", MenuItem.literal(last.title)),
                    action: .undo(last.id)))
        }
        items.append(MenuItem(id: id("open"), label: tr("_Open Today"), action: .openToday))
        return items
    }

    /// The id of `key`, the same every time it is asked for.
    private mutating func id(_ key: String) -> Int32 {
        if let known = ids[key] { return known }
        // A day has at most 200 tasks; a tray that runs for years forgets old ones now and then.
        if ids.count > 4096 { ids = ids.filter { root.find($0.value) != nil } }
        lastID = lastID == Int32.max ? 1 : lastID + 1
        ids[key] = lastID
        return lastID
    }
}
