import CIntl
import Glibc
import LinuxKit

/// petctl's words in the user's language (gettext, from glibc). Every sentence a person reads goes
/// through `tr`, `trn`, `trc`, `trIfTranslated` or `trFormat` (below) with a literal:
/// `scripts/po.py extract` finds them for `po/petprogress.pot`, and `po.py check` fails on prose
/// left outside them. The catalogues live in `../share/locale` beside petctl's own directory
/// (`/usr/bin` → `/usr/share/locale`, `~/.local/bin` → `~/.local/share/locale`, and the build
/// directory's `share/locale` in a source tree), looked up the usual way: `LANGUAGE`, `LC_ALL`,
/// `LC_MESSAGES`, `LANG`. Machine formats (JSON, waybar's class, the exports) never pass through here.
///
/// Placeholders are C's, so that `msgfmt --check` holds translations to them: `%s` (any value) and
/// `%d` (a number) in order, `%1$s` by position, `%%` a percent sign. They are filled here, never by
/// printf: a catalogue cannot crash petctl.
enum L10n {
    static let domain = "petprogress"

    /// Reads the locale from the environment and opens the catalogue; first thing in `main`.
    /// LC_TIME too: weekday and month names, the first day of the week, 12- or 24-hour clocks.
    /// LC_NUMERIC and LC_CTYPE stay C: petctl's numbers and text widths are its own.
    static func setUp() {
        setlocale(LC_MESSAGES, "")
        setlocale(LC_TIME, "")
        bindtextdomain(domain, localeDirectory())
        bind_textdomain_codeset(domain, "UTF-8")  // whatever LC_CTYPE says: petctl writes UTF-8
        textdomain(domain)
    }

    /// `<petctl's directory>/../share/locale`.
    static func localeDirectory() -> String {
        guard var path = FileSystem.linkTarget("/proc/self/exe")?[...] else { return "/usr/share/locale" }
        for _ in 0..<2 {  // petctl's name, then its directory's (by bytes: this runs at every start)
            guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "/usr/share/locale" }
            path = path[..<slash]
        }
        return String(path) + "/share/locale"
    }

    /// Fills `%s`, `%d` and `%N$s` from `arguments`; `%%` is a percent sign. A placeholder without
    /// an argument stays as written. Works on UTF-8 bytes (every byte it looks for is ASCII): the
    /// help texts go through here at every start, and a walk by `Character` cost petctl 2.7 M
    /// instructions of its 12 M there (docs/BENCHMARKS.md, "petctl").
    static func format(_ template: String, _ arguments: [String]) -> String {
        let percent = UInt8(ascii: "%")
        guard template.utf8.contains(percent) else { return template }
        let bytes = Array(template.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + arguments.reduce(0) { $0 + $1.utf8.count })
        var next = 0
        var i = 0
        while i < bytes.count {
            guard bytes[i] == percent, i + 1 < bytes.count else {
                out.append(bytes[i])
                i += 1
                continue
            }
            var j = i + 1
            var digits = 0
            while j < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[j]) {
                // Saturated: a catalogue's `%99999999999999999999$s` names no argument, and stays
                // as written, rather than overflowing.
                digits = digits < 100_000 ? digits * 10 + Int(bytes[j] - UInt8(ascii: "0")) : 1_000_000
                j += 1
            }
            var position: Int?
            if j > i + 1, j < bytes.count, bytes[j] == UInt8(ascii: "$") {
                position = digits - 1
                j += 1
            } else {
                j = i + 1
            }
            guard j < bytes.count else {
                out.append(bytes[i])
                i += 1
                continue
            }
            switch bytes[j] {
            case percent where position == nil:
                out.append(percent)
            case UInt8(ascii: "s"), UInt8(ascii: "d"):
                let index = position ?? next
                if position == nil { next += 1 }
                if arguments.indices.contains(index) {
                    out += arguments[index].utf8
                } else {
                    out += bytes[i...j]
                }
            default:
                out += bytes[i...j]
            }
            i = j + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func string(_ text: StaticString) -> String { text.withUTF8Buffer { String(decoding: $0, as: UTF8.self) } }

    /// `gettext(msgid)`. gettext returns its argument itself when nothing translates it, and a
    /// Swift string's C pointer lives only for the call: copy it inside, never after.
    static func lookup(_ msgid: String) -> String {
        msgid.withCString { id in
            guard let found = gettext(id), UnsafePointer(found) != id else { return msgid }
            return fromCatalogue(found)
        }
    }

    /// A catalogue's text as petctl may print it: invalid UTF-8 repaired, and the bidi controls
    /// that open or close a scope (U+202A–U+202E, U+2066–U+2069) made U+FFFD — a translation
    /// never needs one, and where petctl prints it without its own line cleaning (the help that
    /// swift-argument-parser draws) one could reverse what follows (petprogress(7) §7).
    static func fromCatalogue(_ text: UnsafePointer<CChar>) -> String {
        let found = String(cString: text)
        guard found.unicodeScalars.contains(where: Titles.isScopeControl) else { return found }
        return String(
            String.UnicodeScalarView(found.unicodeScalars.map { Titles.isScopeControl($0) ? "\u{FFFD}" : $0 }))
    }

    /// `ngettext(singular, plural, count)`, copied while its arguments live (see `lookup`).
    static func lookup(_ singular: String, _ plural: String, _ count: Int) -> String {
        singular.withCString { one in
            plural.withCString { many in
                guard let found = ngettext(one, many, UInt(max(0, count))) else {
                    return count == 1 ? singular : plural
                }
                return UnsafePointer(found) == one
                    ? singular : UnsafePointer(found) == many ? plural : fromCatalogue(found)
            }
        }
    }
}

/// `msgid` in the user's language, its placeholders filled from `arguments`.
func tr(_ msgid: StaticString, _ arguments: any CustomStringConvertible...) -> String {
    L10n.format(L10n.lookup(L10n.string(msgid)), arguments.map(\.description))
}

/// `tr`, or nil where the catalogue does not translate `msgid` (C, English, an incomplete language):
/// for a sentence of petctl's own that stands in for a more precise English one (`Session.sentence`).
func trIfTranslated(_ msgid: StaticString, _ arguments: any CustomStringConvertible...) -> String? {
    let id = L10n.string(msgid)
    let form = L10n.lookup(id)
    return form == id ? nil : L10n.format(form, arguments.map(\.description))
}

/// The singular or plural form for `count` (the language's own rule), filled from `arguments`, or
/// from `count` alone when there are none: `trn("%d task", "%d tasks", 3)`.
func trn(
    _ singular: StaticString, _ plural: StaticString, _ count: Int, _ arguments: any CustomStringConvertible...
) -> String {
    let form = L10n.lookup(L10n.string(singular), L10n.string(plural), count)
    return L10n.format(form, arguments.isEmpty ? [String(count)] : arguments.map(\.description))
}

/// `msgid` in a context (`trc("pet form", "Frog")`), for words that translate differently by use.
/// A word the catalogue does not know comes back as given: a stage table's own names stay as written.
func trc(_ context: StaticString, _ msgid: StaticString, _ arguments: any CustomStringConvertible...) -> String {
    L10n.format(trc(context, dynamic: L10n.string(msgid)), arguments.map(\.description))
}

/// `trc` for a word known only at run time (a pet form's name from the daemon): translated when the
/// catalogue has it under `context`, else as given. Extraction lists the default names separately.
func trc(_ context: StaticString, dynamic msgid: String) -> String {
    let key = L10n.string(context) + "\u{4}" + msgid
    let found = L10n.lookup(key)
    return found == key ? msgid : found
}

/// A strftime(3) format in the user's language (`trFormat("%A %-d %B")` → `%A, %-d. %B`), looked up
/// and returned as it is: its `%` directives are strftime's, never filled by `L10n.format`.
/// Extraction marks these entries `no-c-format`, so `msgfmt --check` does not read them as printf's.
func trFormat(_ msgid: StaticString) -> String { L10n.lookup(L10n.string(msgid)) }
