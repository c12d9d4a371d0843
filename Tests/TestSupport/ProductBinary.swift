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
    for bundle in Bundle.allBundles { candidates.append(bundle.bundleURL.deletingLastPathComponent()) }
    for directory in candidates {
        let path = directory.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw HarnessError(
        "\(name) not found beside the tests (\(candidates.map(\.path))); run swift build --build-tests first")
}
