import Foundation
import PetCore
import PetStore

/// Decoding alone: the state file `EncodeBench` encodes (150 tasks, about 27 KB) and a history
/// line of the 10-year bench (8 tasks). Each round times 200 decodes of each and prints one line
/// per file, `decode-state BYTES MEDIAN_US MIN_US` and `decode-line …`, so that two builds can
/// be run alternately, A B A B, by a script.
enum DecodeBench {
    static func run(rounds: Int) throws {
        let state = PetStore.stateBytes(try EncodeBench.loadSizedWorld())
        let (_, records) = Bench.synthesize(years: 1)
        guard let record = records.max(by: { $0.tasks.count < $1.tasks.count }) else { return }
        let line = try PetStore.historyLineBytes(record)
        guard PetStore.world(fromStateBytes: state) != nil, PetStore.record(fromHistoryLine: line) == record else {
            throw CancellationError()
        }
        for _ in 0..<rounds {
            time("decode-state", state.count) { _ = PetStore.world(fromStateBytes: state) }
            time("decode-line", line.count) { _ = PetStore.record(fromHistoryLine: line) }
        }
    }

    private static func time(_ what: String, _ size: Int, _ body: () -> Void) {
        for _ in 0..<10 { body() }  // warm up
        var samples: [Double] = []
        for _ in 0..<200 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000)
        }
        samples.sort()
        print("\(what) \(size) " + String(format: "%.2f %.2f", samples[samples.count / 2], samples[0]))
    }
}
