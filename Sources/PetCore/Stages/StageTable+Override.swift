import FoundationEssentials

/// The one loader of the `stages.json` override, shared by the daemon and `petctl simulate`: the
/// rules for a file as its reader found it (the reading itself stays with the caller, which owns
/// the I/O).
extension StageTable {
    /// The most bytes a reader takes of the override file: a stage table is a few kilobytes.
    public static let overrideLimit = 1 << 20

    /// The override file as its reader found it.
    public enum OverrideFile: Equatable, Sendable {
        /// There is no file: the built-in table is in force.
        case missing
        /// The file exists but could not be read; `reason` says why (e.g. `strerror`).
        case unreadable(reason: String)
        /// The file's bytes.
        case contents([UInt8])
    }

    /// The table in the file at `path`; the error names the file and the problem.
    public static func load(_ file: OverrideFile, path: String) throws(StageTableError) -> StageTable {
        switch file {
        case .missing:
            throw StageTableError("The stage file \(path) cannot be read (it does not exist)")
        case .unreadable(let reason):
            throw StageTableError("The stage file \(path) cannot be read (\(reason))")
        case .contents(let bytes):
            do { return try parse(json: Data(bytes)) } catch {
                throw StageTableError("The stage file \(path) is invalid (\(error.problem))")
            }
        }
    }

    /// The table in force: the file's, or the built-in table when there is none — or, with the
    /// problem sentence, when the file cannot be used (an invalid table is never half-used).
    public static func inForce(_ file: OverrideFile, path: String) -> (table: StageTable, problem: String?) {
        if file == .missing { return (.builtIn, nil) }
        do { return (try load(file, path: path), nil) } catch {
            return (.builtIn, "\(error.problem); using the built-in stages.")
        }
    }
}
