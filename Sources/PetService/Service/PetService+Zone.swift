import PetCore

extension PetService {
    /// Resolves the local zone afresh (`Environment.localZone`) and adopts it; returns it, so the
    /// caller can watch the files it was read from.
    @discardableResult
    public func rereadZone() -> LocalZone {
        let local = environment.localZone()
        adopt(local)
        return local
    }

    /// Takes a freshly resolved local zone: logs a new problem once (and its end), keeps it for
    /// `GetStatus` while it lasts, and re-aligns days and ticks when the zone really changed.
    func adopt(_ local: LocalZone) {
        zoneFiles = local.files
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
