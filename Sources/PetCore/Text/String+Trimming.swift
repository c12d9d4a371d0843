extension String {
    /// The string without leading and trailing white space: the scalars with Unicode's
    /// `White_Space` property, the same set as Foundation's `.whitespacesAndNewlines` (which needs
    /// full Foundation, and so ICU, on Linux).
    public var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
