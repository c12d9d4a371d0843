import XDG

/// Where the data lives when `--data-dir` is not given (petprogress(7) §5): `petprogress` in the user's XDG
/// data directory (`$XDG_DATA_HOME`, else `$HOME/.local/share`). Pure: `main` passes the
/// environment in. Nil when neither variable gives an absolute path (the daemon then asks for
/// `--data-dir`).
public func defaultDataDirectory(environment: [String: String]) -> String? {
    BaseDirectories(.data) { environment[$0] }.inHome("petprogress")
}
