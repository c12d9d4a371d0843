import DBusKit

/// Random D-Bus values of every type, nested up to the bus's limits (petprogress(7) §6.1: no input may crash
/// the daemon). Arrays and structs nest at most 32 deep each and all containers, variants
/// included, at most 64 (the D-Bus specification's limits); now and then a value goes all the way.
struct RandomValue {
    let text: RandomText
    /// An open file descriptor to send as `h` (the daemon must close what it receives).
    let descriptor: Int32

    static let basicCodes = Array("ybnqiuxtdsogh")

    /// How many file descriptors `values` carry.
    static func descriptors(in values: [DBusValue]) -> Int {
        values.reduce(0) { count, value in
            switch value {
            case .unixFD: count + 1
            case .variant(let inner): count + descriptors(in: [inner])
            case .array(_, let elements), .structure(let elements): count + descriptors(in: elements)
            case .dictionary(_, _, let entries): count + descriptors(in: entries.flatMap { [$0.key, $0.value] })
            default: count
            }
        }
    }

    func value(_ random: inout SeededRandom) -> DBusValue {
        if random.oneIn(200) { return deepest(&random) }
        return value(&random, budget: Budget(arrays: 32, structs: 32, total: 64), depth: 0)
    }

    struct Budget {
        var arrays: Int
        var structs: Int
        var total: Int
    }

    private func value(_ random: inout SeededRandom, budget: Budget, depth: Int) -> DBusValue {
        // Deeper values become ever more likely to be basic, so most stay small.
        let containerOdds = depth < 3 ? 3 : depth * 2
        guard budget.total > 0, random.oneIn(containerOdds) else { return basic(&random) }
        var inner = budget
        inner.total -= 1
        switch Int.random(in: 0..<4, using: &random) {
        case 0 where budget.arrays > 0:
            inner.arrays -= 1
            let element = value(&random, budget: inner, depth: depth + 1)
            // Repeated elements multiply with depth: only the outer two levels hold more than one.
            let count = Int.random(in: 0...(depth < 2 ? 3 : 1), using: &random)
            return .array(elementSignature: element.signature, [DBusValue](repeating: element, count: count))
        case 1 where budget.structs > 0:
            inner.structs -= 1
            return .structure(
                (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    value(&random, budget: inner, depth: depth + 1)
                })
        case 2 where budget.arrays > 0 && budget.total > 1:
            inner.arrays -= 1
            inner.total -= 1
            let key = basic(&random)
            let entry = value(&random, budget: inner, depth: depth + 2)
            return .dictionary(
                keySignature: key.signature, valueSignature: entry.signature,
                random.oneIn(3) ? [] : [.init(key: key, value: entry)])
        default:
            return .variant(value(&random, budget: inner, depth: depth + 1))
        }
    }

    /// One of the deepest shapes the bus accepts.
    private func deepest(_ random: inout SeededRandom) -> DBusValue {
        var result = basic(&random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: for _ in 0..<32 { result = .array(elementSignature: result.signature, [result]) }
        case 1: for _ in 0..<31 { result = .structure([result, .byte(1)]) }
        default: for _ in 0..<60 { result = .variant(result) }
        }
        return result
    }

    func basic(_ random: inout SeededRandom) -> DBusValue {
        switch random.pick(Self.basicCodes) {
        case "y": .byte(UInt8.random(in: 0...255, using: &random))
        case "b": .bool(random.oneIn(2))
        case "n": .int16(Int16.random(in: .min ... .max, using: &random))
        case "q": .uint16(UInt16.random(in: 0 ... .max, using: &random))
        case "i": .int32(random.pick([0, 1, -1, .min, .max, Int32.random(in: .min ... .max, using: &random)]))
        case "u": .uint32(random.pick([0, 1, 30, 721, .max, UInt32.random(in: 0 ... .max, using: &random)]))
        case "x": .int64(Int64.random(in: .min ... .max, using: &random))
        case "t": .uint64(UInt64.random(in: 0 ... .max, using: &random))
        case "d": .double(random.pick([0, -0.0, .infinity, -.infinity, .nan, .greatestFiniteMagnitude, 30]))
        case "o": .objectPath(RandomText.path(&random))
        case "g": .signature(random.pick(["", "s", "a{sv}", "(ii)", "v", "aaai", "a(sa{sv})"]))
        case "h": .unixFD(descriptor)
        default: .string(text.string(&random))
        }
    }
}
