import Glibc

/// The process environment, one variable at a time (a dictionary of all of it costs more to
/// build than a panel's whole `petctl widget` should spend on it).
struct ProcessEnvironment {
    /// This process's environment.
    static let process = ProcessEnvironment()

    subscript(name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
