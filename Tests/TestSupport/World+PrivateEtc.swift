/// The daemon in a private mount namespace where `etc` (a directory of the sandbox) is `/etc`, so a
/// test can point `/etc/localtime` anywhere without touching the host's (no test may). No `TZ`:
/// the daemon reads the zone from that `/etc/localtime`. Needs `unshare -m` (root, as in CI).
extension World {
    public func daemonWithPrivateEtc(_ etc: String, now: String, timeScale: String? = "1") throws -> Spawned {
        var environment = PetDaemon.environment(sandbox: sandbox, bus: bus, zone: "")
        environment["TZ"] = nil
        return try sandbox.spawn(
            "/usr/bin/unshare",
            [
                "-m", "--propagation", "private", "sh", "-c", "mount --bind \"$0\" /etc && exec \"$@\"", etc,
                try PetDaemon.binary(),
                "--data-dir", sandbox.path("data"), "--now", now,
            ] + (timeScale.map { ["--time-scale", $0] } ?? []),
            environment: environment, label: "petprogressd-ns")
    }
}
