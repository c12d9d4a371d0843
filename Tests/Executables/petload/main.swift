import Foundation

// petload: the black-box load client of the reliability tests (docs/RELIABILITY.md). Prints one
// JSON report.
do {
    let report = try LoadRun(try Options(Array(CommandLine.arguments.dropFirst()))).run()
    let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
    FileHandle.standardOutput.write(data)
    FileHandle.standardOutput.write(Data("\n".utf8))
    exit(report["ok"] as? Bool == true ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("petload: \(error)\n".utf8))
    exit(2)
}
