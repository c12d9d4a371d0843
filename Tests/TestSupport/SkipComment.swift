import Testing

/// The comment of a test enabled only where `reason` is nil: `.enabled(if: reason == nil,
/// skipped(reason))`. A function, not a string interpolation in the trait itself: Swift 6.0.3
/// (Debian 13's swiftlang) crashes type-checking an interpolated string inside `@Test`'s arguments
/// (CSGen.cpp, "TapExpr var should be in the same DeclContext").
public func skipped(_ reason: String?) -> Comment {
    Comment(rawValue: "skipped: " + (reason ?? ""))
}
