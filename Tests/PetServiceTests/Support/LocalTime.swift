import PetCore
import Testing

@testable import PetService

extension LocalZone {
    /// A zone from the system's tzdata, resolved as the daemon resolves `TZ=<name>`.
    static func named(_ name: String) throws -> LocalZone {
        let local = LocalZone.resolve(environment: ["TZ": name])
        try #require(local.problem == nil && local.zone.identifier == name, "\(name): \(local.problem ?? "")")
        return local
    }

    /// The instant at which the local wall clock reads `time` (`HH:MM`, or `HH:MM:SS`) on `date`
    /// (`YYYY-MM-DD`); the first one in a fold.
    func at(_ date: String, _ time: String) throws -> Instant {
        let day = try #require(CivilDate(parsing: date), "\(date)")
        let wall = try #require(WallTime(parsing: String(time.prefix(5))), "\(time)")
        let seconds = time.count > 5 ? try #require(Int64(time.dropFirst(6)), "\(time)") : 0
        return try #require(zone.placements(on: day, at: wall).first, "\(date) \(time) is in a gap") + seconds
    }
}
