import Foundation

/// A product of this package (`petprogressd`, `petctl`, the test executables) in the build products directory beside
/// this test bundle, or the path in the environment variable `override`.
public func productBinary(_ name: String, override: String) throws -> String {
    if let path = ProcessInfo.processInfo.environment[override] { return path }
    var candidates: [URL] = []
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
    }
    if let first = CommandLine.arguments.first {
        candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    func executable(in directories: [URL]) -> String? {
        for directory in directories {
            let path = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
    if let path = executable(in: candidates) { return path }
    // The bundles only when neither of those has it: Swift 6.0.3's Foundation (Debian 13's) crashes
    // in Bundle.allBundles (SIGSEGV in CrashTests' first call, in the package build's tests).
    candidates += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
    if let path = executable(in: candidates) { return path }
    throw HarnessError(
        "\(name) not found beside the tests (\(candidates.map(\.path))); run swift build --build-tests first")
}
