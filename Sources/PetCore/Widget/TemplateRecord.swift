/// A recurring template as `ListTemplates` describes it (petprogress(7) §6.1).
public struct TemplateRecord: Hashable, Sendable {
    /// `t-<serial>`.
    public var id: String
    public var title: String
    /// `HH:MM`.
    public var time: String
    /// `daily`, `weekdays` or a comma list of `mon`…`sun`.
    public var repeatRule: String

    public init(id: String, title: String, time: String, repeatRule: String) {
        self.id = id
        self.title = title
        self.time = time
        self.repeatRule = repeatRule
    }

    public init(_ template: Template) {
        self.init(
            id: template.id, title: template.title, time: template.time.description,
            repeatRule: template.repeatRule.description)
    }
}
