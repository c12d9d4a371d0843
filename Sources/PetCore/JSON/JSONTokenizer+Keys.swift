/// Each object's keys as the tokenizer reads them: a key and its colon, and a key the object
/// already holds refused (compared in turn while an object has few keys, hashed once it has many).
extension JSONTokenizer {
    /// A member's key and its colon; refuses a key the object already holds.
    mutating func key(_ b: UnsafeBufferPointer<UInt8>, _ p: inout Int) throws(JSONReadError) {
        guard p < b.count, b[p] == UInt8(ascii: "\"") else {
            throw JSONReadError(problem: "a key in quotes was expected", offset: p)
        }
        let at = p
        let token = tokens.count
        try string(b, &p)
        try checkRepeat(token, b, at)
        while p < b.count, Self.isSpace(b[p]) { p += 1 }
        guard p < b.count, b[p] == UInt8(ascii: ":") else {
            throw JSONReadError(problem: "a : was expected", offset: p)
        }
        p += 1
    }

    private mutating func checkRepeat(_ token: Int, _ b: UnsafeBufferPointer<UInt8>, _ at: Int) throws(JSONReadError) {
        let top = stack.count - 1
        let held = keys.count - stack[top].keysStart
        func repeated() -> JSONReadError {
            let shown = String(decoding: keyBytes(token, b).prefix(40), as: UTF8.self)
            return JSONReadError(problem: "an object holds the key \"\(shown)\" twice", offset: at)
        }
        if held < 16 {
            for k in keys[stack[top].keysStart...] where sameKey(k, token, b) { throw repeated() }
            keys.append(token)
            if held + 1 == 16 {
                var seen: [UInt64: [Int]] = [:]
                for k in keys[stack[top].keysStart...] { seen[hash(keyBytes(k, b)), default: []].append(k) }
                stack[top].seen = seen
            }
            return
        }
        let h = hash(keyBytes(token, b))
        if let same = stack[top].seen?[h] {
            for k in same where sameKey(k, token, b) { throw repeated() }
        }
        stack[top].seen?[h, default: []].append(token)
        keys.append(token)
    }

    func keyBytes(_ token: Int, _ b: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let t = tokens[token]
        let s = Int((t >> 28) & 0xFFFF_FFFF)
        let n = Int(t & 0x0FFF_FFFF)
        guard t & (1 << 60) != 0 else { return Array(b[s..<s + n]) }
        return Self.unescape(b, s, s + n)
    }

    private func sameKey(_ x: Int, _ y: Int, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let tx = tokens[x]
        let ty = tokens[y]
        if (tx | ty) & (1 << 60) == 0 {
            let nx = Int(tx & 0x0FFF_FFFF)
            guard nx == Int(ty & 0x0FFF_FFFF) else { return false }
            let sx = Int((tx >> 28) & 0xFFFF_FFFF)
            let sy = Int((ty >> 28) & 0xFFFF_FFFF)
            for k in 0..<nx where b[sx + k] != b[sy + k] { return false }
            return true
        }
        return keyBytes(x, b) == keyBytes(y, b)
    }

    /// FNV-1a: the same key always lands in the same bucket (a process's `Hasher` seed would too,
    /// but this one is cheaper for short keys).
    private func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in bytes { h = (h ^ UInt64(c)) &* 0x100_0000_01b3 }
        return h
    }
}
