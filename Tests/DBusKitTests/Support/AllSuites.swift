import Testing

/// The parent of every DBusKit suite, serialized: these tests block their thread (blocking calls,
/// `poll`, `waitpid`), so running them one at a time leaves the rest of the cooperative pool (two
/// threads on a 2-core machine) to the other targets' async tests.
@Suite(.serialized) enum DBusKitSuites {}
