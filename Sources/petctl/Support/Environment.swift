import Glibc

/// The process environment, read once (FoundationEssentials has no `ProcessInfo.environment`).
enum Environment {
    static let variables: [String: String] = {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let eq = pair.firstIndex(of: "=") {
                result[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
            }
            entry += 1
        }
        return result
    }()
}
