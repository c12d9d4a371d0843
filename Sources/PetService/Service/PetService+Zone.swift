import PetCore

extension PetService {
    /// Takes a freshly resolved local zone: logs a new problem once (and its end), keeps it for
    /// `GetStatus` while it lasts, and re-aligns days and ticks when the zone really changed.
    public func adopt(_ local: LocalZone) {
        if local.problem != zoneProblem {
            if let problem = local.problem {
                log(problem)
            } else {
                log("time zone: the problem is fixed")
            }
            zoneProblem = local.problem
        }
        guard local.zone != zone else { return }
        log("time zone changed to \(local.zone.identifier)")
        zone = local.zone
        refresh()
    }
}
