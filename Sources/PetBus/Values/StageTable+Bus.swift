import DBusKit
import PetCore

/// The stage table in force as the `Stages` property carries it: an `aa{sv}`, one record per
/// stage in order, with its name, threshold (`i`), icon name and glyph.
extension StageTable {
    enum Key: String {
        case name, threshold
        case iconName = "icon_name"
        case glyph
    }

    /// The table as an `aa{sv}`.
    public var dbus: DBusValue {
        .vardictArray(
            stages.map { stage in
                [
                    (Key.name.rawValue, .string(stage.name)),
                    (Key.threshold.rawValue, .int32(Int32(clamping: stage.threshold))),
                    (Key.iconName.rawValue, .string(stage.iconName)),
                    (Key.glyph.rawValue, .string(stage.glyph)),
                ]
            })
    }

    /// Decodes the table: each stage's asset is the one its icon name was made from
    /// (`petprogress-<base>` ← `pet_<base>.png`), and the table is validated as a file's is.
    public init(dbus value: DBusValue) throws(BusDecodingError) {
        let records = try decodeRecords(value, "The stage table") { value throws(BusDecodingError) in
            let r = try VardictReader(value, "A stage")
            return (try r.string(Key.name), try r.int(Key.threshold), try r.string(Key.iconName))
        }
        let stages = records.enumerated().map { n, record in
            Stage(i: n, name: record.0, threshold: record.1, asset: "pet_\(record.2.dropping("petprogress-")).png")
        }
        do { try self.init(stages: stages) } catch {
            throw BusDecodingError("The stage table is invalid: \(error.problem).")
        }
    }
}

extension String {
    fileprivate func dropping(_ prefix: String) -> Substring {
        hasPrefix(prefix) ? dropFirst(prefix.count) : self[...]
    }
}
