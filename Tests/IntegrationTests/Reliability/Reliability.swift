import Testing

/// The load, crash and soak suites (docs/RELIABILITY.md), nested here so that `make test` runs them
/// on their own (`--filter`/`--skip` on `IntegrationTests.Reliability`), after the other
/// integration suites and one at a time: 16 busy clients beside the suites that race a scaled clock
/// would slow both.
@Suite("Reliability", .serialized)
enum Reliability {}
