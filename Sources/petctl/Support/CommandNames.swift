import ArgumentParser

/// The subcommands by name: what an unknown one was probably meant to be, and which `petctl help
/// <command>` an error points at.
enum CommandNames {
    static var all: [String] { PetCtl.configuration.subcommands.map { $0._commandName } + ["help"] }

    /// The sentence for a command line whose command (or `help`'s topic) does not exist, else nil.
    static func problem(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let word = first == "help" && arguments.count > 1 ? arguments[1] : first
        guard !all.contains(word), !word.hasPrefix("-") else { return nil }
        guard let hint = suggestion(for: word) else {
            return tr("there is no command %s; petctl help lists them", quotedWord(word))
        }
        return tr("there is no command %s; did you mean '%s'? petctl help lists them", quotedWord(word), hint)
    }

    /// The command `arguments` run, for `petctl help <command>` in an error ("" for none).
    static func command(_ arguments: [String]) -> String {
        guard let first = arguments.first, all.contains(first), first != "help" else { return "" }
        return first
    }

    /// The closest command name: a prefix of one, or at most two edits away.
    static func suggestion(for word: String) -> String? {
        let w = word.lowercased()
        if w.count >= 2, let named = all.first(where: { $0.hasPrefix(w) }) { return named }
        let scored = all.map { ($0, distance(w, $0)) }.filter { $0.1 <= min(2, max(1, w.count / 2)) }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// The word as an error quotes it: short, controls shown as `?`.
    private static func quotedWord(_ word: String) -> String {
        let shown = word.count > 30 ? String(word.prefix(30)) + "…" : word
        return "'" + String(shown.map { $0.isASCII && ($0.asciiValue ?? 0) < 0x20 ? "?" : $0 }) + "'"
    }

    /// Levenshtein distance (insertions, deletions, substitutions; a swap counts two).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let kept = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = kept
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
