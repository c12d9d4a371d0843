import ArgumentParser

/// The option values petctl spells as enums of strings (`--format`, `--color`, setting names).
///
/// argument-parser's defaults describe each case with `String(describing:)`, whose dynamic casts
/// scan every protocol conformance in this static binary — a third of a millisecond of every
/// `petctl` start. The raw value is the description.
extension ExpressibleByArgument where Self: CaseIterable & RawRepresentable, Self.RawValue == String {
    static var allValueStrings: [String] { allCases.map(\.rawValue) }

    static var allValueDescriptions: [String: String] { [:] }

    var defaultValueDescription: String { rawValue }
}
