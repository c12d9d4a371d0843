import DBusKit
import PetCore

/// The pet keys (petprogress(7) §6.2): `GetPet`'s reply, and part of every entry.
extension PetView {
    enum Key: String {
        case stageIndex = "stage_index"
        case stageCount = "stage_count"
        case stageName = "stage_name"
        case stageXP = "stage_xp"
        case threshold, progress
        case isFinal = "is_final"
        case iconName = "icon_name"
        case iconPath = "icon_path"
        case glyph
    }

    /// The pet keys as an `a{sv}`.
    public var dbus: DBusValue { fields.value }

    /// Writes the pet keys' `a{sv}` straight into a message body (the daemon's `GetPet` reply).
    public func encode(into body: inout BodyWriter) { fields.write(into: &body) }

    private var fields: VardictWriter {
        var writer = VardictWriter()
        write(into: &writer)
        return writer
    }

    /// Decodes the pet keys of an `a{sv}` (a `GetPet` reply, or an entry).
    public init(dbus value: DBusValue) throws(BusDecodingError) {
        try self.init(reading: VardictReader(value, "The pet"))
    }

    func write(into w: inout VardictWriter) {
        w.add(Key.stageIndex, int: stageIndex)
        w.add(Key.stageCount, int: stageCount)
        w.add(Key.stageName, stageName)
        w.add(Key.stageXP, int: stageXP)
        w.add(Key.threshold, int: threshold)
        w.add(Key.progress, double: progress)
        w.add(Key.isFinal, isFinal)
        w.add(Key.iconName, iconName)
        w.add(Key.iconPath, iconPath)
        w.add(Key.glyph, glyph)
    }

    init(reading r: VardictReader) throws(BusDecodingError) {
        self.init(
            stageIndex: try r.int(Key.stageIndex), stageCount: try r.int(Key.stageCount),
            stageName: try r.string(Key.stageName), stageXP: try r.int(Key.stageXP),
            threshold: try r.int(Key.threshold), progress: try r.double(Key.progress), isFinal: try r.bool(Key.isFinal),
            iconName: try r.string(Key.iconName), iconPath: try r.string(Key.iconPath), glyph: try r.string(Key.glyph))
    }
}

extension PetView: BusRecord {}
