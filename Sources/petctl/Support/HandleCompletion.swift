import ArgumentParser
import PetBus
import PetCore

/// Shell completion of task handles (petprogress(7) §7): today's numbers with their titles (and,
/// for `edit` and `rm`, tomorrow's `+N` and the templates' `rN`), asked of a daemon that is
/// already running — never activating one to complete a word, and never waiting long for it.
enum HandleCompletion {
    static let today = CompletionKind.custom { _, _, prefix in candidates(prefix, tomorrowAndTemplates: false) }
    static let any = CompletionKind.custom { _, _, prefix in candidates(prefix, tomorrowAndTemplates: true) }

    /// The candidates starting with `prefix`, each with its time and title where the shell shows
    /// descriptions (zsh, fish); none when no daemon owns the name or it does not answer quickly.
    static func candidates(_ prefix: String, tomorrowAndTemplates: Bool) -> [String] {
        // NO_AUTO_START: a daemon that is not running answers ServiceUnknown at once.
        guard let client = try? Session().client(timeout: .seconds(2), autoStart: false) else { return [] }
        var pairs: [(String, String)] = []
        if let today = try? client.listTasks(day: "") {
            pairs += today.map { (Handle.shown($0), "\($0.time) \($0.title)") }
        }
        if tomorrowAndTemplates {
            if let tomorrow = try? client.listTasks(day: "tomorrow") {
                pairs += tomorrow.map { (Handle.shown($0, tomorrow: true), tr("tomorrow %s %s", $0.time, $0.title)) }
            }
            if let templates = try? client.listTemplates() {
                pairs += templates.map { (Handle.template($0.id), "\($0.repeatRule) \($0.time) \($0.title)") }
            }
        }
        return pairs.filter { $0.0.hasPrefix(prefix) }.map { format($0.0, Titles.forLine($0.1, width: 60)) }
    }

    /// `value:description` for zsh, `value<TAB>description` for fish, the bare value for bash.
    static func format(_ value: String, _ description: String) -> String {
        switch CompletionShell.requesting {
        case .zsh?: "\(value):\(description)"
        case .fish?: "\(value)\t\(description)"
        default: value
        }
    }
}
