import Glibc

/// Starts programs that run on their own (a URL opener, a terminal), with an empty signal mask
/// and the default dispositions, so they do not inherit a loop's blocked signals.
public enum Launch {
    /// Runs `arguments[0]` (looked up in `PATH`) with `arguments` and does not wait; the caller
    /// reaps it (or ignores `SIGCHLD`). Throws the `errno` of a failed start (`ENOENT`: not installed).
    public static func detached(_ arguments: [String]) throws(SystemCallError) {
        guard let program = arguments.first else {
            throw SystemCallError(call: "posix_spawnp", subject: nil, errno: EINVAL)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawnp(&pid, program, nil, &attributes, argv, environ)
        guard code == 0 else { throw SystemCallError(call: "posix_spawnp", subject: program, errno: code) }
    }
}
