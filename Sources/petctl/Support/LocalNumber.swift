import ArgumentParser
import CIntl

/// Decimals as the person at this terminal writes them: the LC_NUMERIC locale's decimal separator
/// (`0,8` under de_DE and fr_FR, `0.8` under C and en_US) in what petctl prints to a person, and
/// either separator in what they type. Machine formats (JSON, CSV) and the bus keep the point
/// (petprogress(7) §7); petctl's own LC_NUMERIC stays C (`L10n.setUp`).
enum LocalNumber {
    /// `0.8` as the locale writes it: Swift's shortest form (`0.8`, `1.0`, `0.125`), its point
    /// made the locale's separator.
    static func decimal(_ value: Double) -> String {
        let plain = "\(value)"
        let point = separator
        return point == "." ? plain : plain.replacing(".", with: point)
    }

    /// A decimal typed with a point or a comma (`0.8`, `0,8`), whatever the locale; nil for
    /// anything else.
    static func parse(_ text: String) -> Double? {
        let commas = text.filter { $0 == "," }.count
        guard commas <= 1, !(commas == 1 && text.contains(".")) else { return nil }
        return Double(commas == 1 ? text.replacing(",", with: ".") : text)
    }

    /// The LC_NUMERIC locale's decimal separator, read once per process.
    static var separator: String {
        if let kept = keptSeparator { return kept }
        var buffer = [CChar](repeating: 0, count: 8)
        cintl_decimal_point(&buffer, Int32(buffer.count))
        let found = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let point = found.isEmpty ? "." : found
        keptSeparator = point
        return point
    }
    nonisolated(unsafe) private static var keptSeparator: String?
}

/// A decimal option a person types (`--done-rate 0.8` or `0,8`).
struct TypedDecimal: ExpressibleByArgument, Hashable {
    let value: Double

    init(_ value: Double) { self.value = value }

    init?(argument: String) {
        guard let value = LocalNumber.parse(argument) else { return nil }
        self.value = value
    }

    var defaultValueDescription: String { LocalNumber.decimal(value) }
}
