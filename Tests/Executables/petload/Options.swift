/// `petload MODE --key value …`: the run's parameters, all given by the test.
struct Options {
    var mode: String
    private var values: [String: String] = [:]

    init(_ arguments: [String]) throws {
        guard let mode = arguments.first, ["load", "crash"].contains(mode) else {
            throw FloorError(
                "usage: petload load|crash --address A --clients N --seed S --day KEY --day-start T --day-end T …")
        }
        self.mode = mode
        var rest = arguments.dropFirst()
        while let key = rest.popFirst() {
            guard key.hasPrefix("--"), let value = rest.popFirst() else {
                throw FloorError("expected --key value at \(key)")
            }
            values[String(key.dropFirst(2))] = value
        }
    }

    func string(_ key: String) throws -> String {
        guard let value = values[key] else { throw FloorError("missing --\(key)") }
        return value
    }

    func int(_ key: String, default fallback: Int? = nil) throws -> Int {
        if let text = values[key] {
            guard let value = Int(text) else { throw FloorError("--\(key) takes a number, not \(text)") }
            return value
        }
        guard let fallback else { throw FloorError("missing --\(key)") }
        return fallback
    }

    func frame() throws -> DayFrame {
        DayFrame(key: try string("day"), start: Int64(try int("day-start")), end: Int64(try int("day-end")))
    }
}
