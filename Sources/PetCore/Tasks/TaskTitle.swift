/// Task titles (petprogress(7) §3): 1–200 Unicode code points after trimming white space, no control characters.
public enum TaskTitle {
    public static let maxLength = 200

    /// The trimmed title, or `InvalidArgument` saying what is wrong with it.
    public static func validate(_ raw: String) throws(PetError) -> String {
        let title = raw.trimmingWhitespace
        let count = title.unicodeScalars.count
        guard count >= 1 else { throw PetError(.invalidArgument, "The title is empty; give the task a name.") }
        guard count <= maxLength else {
            throw PetError(.invalidArgument, "The title has \(count) characters; the limit is \(maxLength).")
        }
        // Printable ASCII holds no control character: most titles need no Unicode property lookup.
        guard
            title.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
                || !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw PetError(
                .invalidArgument, "The title contains a control character (such as a newline or tab); remove it.")
        }
        return title
    }
}
