import PetCore

/// Which zone is local, decided as glibc's `tzset` decides it, plus Debian's `/etc/timezone`:
///
/// - `TZ` set: empty (or `:`) is UTC; otherwise it names a zone file — absolute, or under `TZDIR`
///   (default `/usr/share/zoneinfo`), a leading `:` dropped — and when no such file can be read
///   it is read as a POSIX TZ rule (`CET-1CEST,M3.5.0,M10.5.0/3`);
/// - else `/etc/localtime`; else the zone named in `/etc/timezone`; else UTC.
///
/// A zone that is set but cannot be used is UTC, with a `problem` naming the file or variable and
/// what is wrong. Read afresh on every call, so a changed zone is seen (glibc caches it).
public struct LocalZone: Equatable, Sendable {
    public let zone: Zone
    /// One sentence when the zone reads as UTC because what was set cannot be used.
    public let problem: String?
    /// The zone files read, as named and with links resolved: replacing one (a tzdata upgrade)
    /// means reading the zone again.
    public let files: [String]

    static let defaultDirectory = "/usr/share/zoneinfo"
    static let utc = LocalZone(zone: .utc, problem: nil, files: [])

    public static func resolve(environment: [String: String], etc: String = "/etc") -> LocalZone {
        let directory = environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultDirectory
        if let tz = environment["TZ"] { return fromVariable(tz, directory: directory) }
        let localtime = etc + "/localtime"
        if ZoneFile.exists(localtime) {
            return fromFile(
                localtime, name: ZoneFile.linkTarget(localtime).flatMap(zoneName) ?? localtime, label: localtime)
        }
        if case .success(let bytes) = ZoneFile.read(etc + "/timezone") {
            let name = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
            if !name.isEmpty {
                let path = directory + "/" + name
                let label = "\"\(ZoneError.printable(name))\" from \(etc)/timezone (\(ZoneError.printable(path)))"
                return fromFile(path, name: name, label: label)
            }
        }
        return utc
    }

    /// `TZ`: a zone file first, then a POSIX rule — the order glibc tries them in.
    static func fromVariable(_ tz: String, directory: String) -> LocalZone {
        let spec = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        guard !spec.isEmpty else { return utc }
        let variable = "TZ=\"\(ZoneError.printable(tz))\""
        let isPath = spec.hasPrefix("/")
        let path = isPath ? spec : directory + "/" + spec
        let label = isPath ? variable : "\(variable) (\(ZoneError.printable(path)))"
        let file = fromFile(path, name: isPath ? zoneName(spec) ?? spec : spec, label: label)
        guard file.problem != nil else { return file }
        do {
            return LocalZone(zone: try Zone(posixRule: spec), problem: nil, files: file.files)
        } catch {
            // What looks like a zone name or a path keeps the file's problem; anything else is a
            // rule that does not parse (unless a file by that name exists but is damaged).
            guard !spec.contains("/"), case .failure(let e) = ZoneFile.read(path), e.missing else { return file }
            let problem =
                "time zone: \(variable) names no zone in \(directory) and is not a POSIX TZ rule (\(error.message))"
            return LocalZone(zone: .utc, problem: problem + "; using UTC until it is fixed", files: file.files)
        }
    }

    /// The zone in the TZif file at `path`, or UTC with a problem naming `label` (what set the file).
    static func fromFile(_ path: String, name: String, label: String) -> LocalZone {
        let resolved = ZoneFile.resolved(path)
        let files = [path] + [resolved].compactMap { $0 }.filter { $0 != path }
        let reason: String
        switch ZoneFile.read(path) {
        case .success(let bytes):
            do {
                return LocalZone(zone: try Zone(identifier: name, tzif: bytes), problem: nil, files: files)
            } catch {
                reason = "not a valid zone file (\(error.message))"
            }
        case .failure(let error):
            reason = error.reason
        }
        let link = ZoneFile.linkTarget(path).map { " (a link to \(ZoneError.printable($0)))" } ?? ""
        return LocalZone(
            zone: .utc, problem: "time zone: \(label)\(link): \(reason); using UTC until it is fixed", files: files)
    }

    /// `Europe/Berlin` for `…/zoneinfo/Europe/Berlin`.
    static func zoneName(_ path: String) -> String? {
        guard let r = path.firstRange(of: "zoneinfo/") else { return nil }
        let name = String(path[r.upperBound...])
        return name.isEmpty ? nil : name
    }
}
