import DBusKit
import PetCore

/// A recurring template (petprogress(7) §6.1): the elements of `ListTemplates`.
extension TemplateRecord {
    enum Key: String {
        case id, title, time
        case repeatRule = "repeat"
    }

    /// The template as an `a{sv}`.
    public var dbus: DBusValue { fields.value }

    /// Writes the template's `a{sv}` straight into a message body.
    public func encode(into body: inout BodyWriter) { fields.write(into: &body) }

    /// The template's fields, the one encoding of it.
    private var fields: VardictWriter {
        var w = VardictWriter()
        w.add(Key.id, id)
        w.add(Key.title, title)
        w.add(Key.time, time)
        w.add(Key.repeatRule, repeatRule)
        return w
    }

    /// Decodes a template.
    public init(dbus value: DBusValue) throws(BusDecodingError) {
        let r = try VardictReader(value, "A template")
        self.init(
            id: try r.string(Key.id), title: try r.string(Key.title), time: try r.string(Key.time),
            repeatRule: try r.string(Key.repeatRule))
    }
}

extension Array where Element == TemplateRecord {
    /// The templates as an `aa{sv}`.
    public var dbus: DBusValue { .array(elementSignature: "a{sv}", map(\.dbus)) }
}

extension TemplateRecord: BusRecord {}
