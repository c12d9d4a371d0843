/// Where the user's and the system's files of one kind live, by the XDG Base Directory
/// Specification (0.8): `$XDG_DATA_HOME` when it is an absolute path, else `$HOME/.local/share`;
/// `$XDG_DATA_DIRS` when set and non-empty, its relative entries ignored, else
/// `/usr/local/share:/usr/share`; the same for configuration (`XDG_CONFIG_HOME`, `~/.config`,
/// `XDG_CONFIG_DIRS`, `/etc/xdg`). The daemon and petctl find the data directory, the stage file
/// and the installed icons this one way.
///
/// Pure: the caller passes the environment in, one variable at a time.
public struct BaseDirectories: Equatable, Sendable {
    /// The kinds of files Pet Progress looks up.
    public enum Kind: Sendable {
        case data, config
        /// What a program keeps between runs that is not worth a backup (`XDG_STATE_HOME`).
        case state
    }

    /// The user's directory, without a trailing slash; nil when neither its variable nor `HOME`
    /// is an absolute path.
    public let home: String?
    /// The system's directories, most important first.
    public let system: [String]

    /// The directories of `kind` for the environment `variable` reads.
    public init(_ kind: Kind, environment variable: (String) -> String?) {
        let (name, underHome, defaults) =
            switch kind {
            case .data: ("DATA", ".local/share", "/usr/local/share:/usr/share")
            case .config: ("CONFIG", ".config", "/etc/xdg")
            case .state: ("STATE", ".local/state", "")
            }
        home =
            Self.absolute(variable("XDG_\(name)_HOME"))
            ?? Self.absolute(variable("HOME")).map { Self.join($0, underHome) }
        // State has no system directories (and no XDG_STATE_DIRS).
        let listed = kind == .state ? "" : variable("XDG_\(name)_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? defaults
        system = listed.split(separator: ":").compactMap { Self.absolute(String($0)) }
    }

    /// `relative` in the user's directory, or nil without one.
    public func inHome(_ relative: String) -> String? {
        home.map { Self.join($0, relative) }
    }

    /// `relative` in each directory, the user's first: the order to look for a file in.
    public func searchPaths(_ relative: String) -> [String] {
        ([home].compactMap { $0 } + system).map { Self.join($0, relative) }
    }

    /// A variable's value as the specification accepts it: the path without trailing slashes
    /// when it is absolute; nil for unset, empty or relative values, which are to be ignored.
    public static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        var path = Substring(value)
        while path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    private static func join(_ directory: String, _ relative: String) -> String {
        directory == "/" ? "/" + relative : directory + "/" + relative
    }
}
