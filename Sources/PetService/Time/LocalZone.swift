import Foundation
import PetCore

/// Which time zone is local: `TZ` if set, else the zone `/etc/localtime` links to, else
/// `/etc/timezone`, else UTC. Read afresh on every call, so a changed zone is seen (glibc and
/// `TimeZone.current` cache it).
public enum LocalZone {
    public static func resolve(environment: [String: String], etc: String = "/etc") -> Zone {
        if let tz = environment["TZ"], !tz.isEmpty {
            var id = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            if let r = id.range(of: "zoneinfo/") { id = String(id[r.upperBound...]) }
            return Zone(identifier: id) ?? .utc
        }
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: etc + "/localtime"),
            let r = target.range(of: "zoneinfo/"), let zone = Zone(identifier: String(target[r.upperBound...]))
        {
            return zone
        }
        if let name = try? String(contentsOfFile: etc + "/timezone", encoding: .utf8),
            let zone = Zone(identifier: name.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return zone
        }
        return .utc
    }
}
