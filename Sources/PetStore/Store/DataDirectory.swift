/// Where the data lives when `--data-dir` is not given (SPEC §5): `$XDG_DATA_HOME/petprogress`,
/// else `$HOME/.local/share/petprogress`. Pure: `main` passes the environment in.
///
/// Per the XDG base-directory spec an unset, empty or relative `XDG_DATA_HOME` is ignored. Nil when
/// neither variable gives an absolute path (the daemon then asks for `--data-dir`).
public func defaultDataDirectory(environment: [String: String]) -> String? {
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
        return trimmingSlash(xdg) + "/petprogress"
    }
    if let home = environment["HOME"], home.hasPrefix("/") {
        return trimmingSlash(home) + "/.local/share/petprogress"
    }
    return nil
}

private func trimmingSlash(_ path: String) -> String {
    var p = Substring(path)
    while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
    return p == "/" ? "" : String(p)
}
