import Foundation
import PetCore
import PetStore

/// An export's reading alone (docs/BENCHMARKS.md, "Reading an import"): `import-doc YEARS PATH`
/// writes an export of YEARS synthesized years (`Bench.synthesize`: 5 to 8 tasks a day), and
/// `import PATH` reads it once with `Backup.read`, as the daemon's `Import` does, and prints
/// `import BYTES MS PEAK_KIB BASE_KIB`: the wall time of the read and the process's peak resident
/// memory (VmHWM) after it, beside the peak before it (the document's bytes already held). One
/// process a sample, so that two builds' peaks can be compared run by run, A B A B.
enum ImportBench {
    static func write(years: Int, to path: String) throws {
        let (world, records) = Bench.synthesize(years: years)
        let store = try Backup(world: world, history: records).encoded()
        let document =
            Array(#"{"exported_at":"2026-12-07T00:00:00Z","format":"petprogress-export","schema":2,"store":"#.utf8)
            + store + Array("}\n".utf8)
        try Data(document).write(to: URL(fileURLWithPath: path))
        print("wrote \(path): \(document.count) bytes, \(records.count) days")
    }

    static func read(_ path: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let base = peakKiB()
        let t0 = DispatchTime.now().uptimeNanoseconds
        let backup = try Backup.read(document: bytes, format: "petprogress-export", schema: 2)
        let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        print("import \(bytes.count) " + String(format: "%.1f", ms) + " \(peakKiB()) \(base) \(backup.history.count)")
    }

    static func peakKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

extension Backup.Refusal: CustomStringConvertible {
    public var description: String { message }
}
