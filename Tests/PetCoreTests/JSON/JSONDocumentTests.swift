import FoundationEssentials
import PetCore
import Testing

/// `JSONDocument`, the one reader of the store's files and of imports (petprogress(7) §5): strict
/// RFC 8259, depth ≤ 64, no key twice in an object, linear in the document; and, for documents
/// both take, the same values as the `JSONDecoder` it replaced.
@Suite("JSONDocument")
struct JSONDocumentTests {
    static func read(_ text: String) -> Result<JSONDocument, JSONReadError> {
        Result { () throws(JSONReadError) in try JSONDocument(Array(text.utf8)) }
    }

    static func refusal(_ text: String) -> String? {
        if case .failure(let e) = read(text) { return e.problem }
        return nil
    }

    @Test("valid documents read, and decode as JSONDecoder decodes them")
    func agreesWithJSONDecoder() throws {
        struct Sample: Codable, Equatable {
            var s: String
            var i: Int
            var u: UInt64
            var d: Double
            var b: Bool
            var o: String?
            var a: [[Int64]]
            var n: [String: Int]?
        }
        let documents = [
            #"{"s":"plain","i":-12,"u":18446744073709551615,"d":0.5,"b":true,"a":[[1,2],[],[-9223372036854775808]]}"#,
            #" { "s" : "esc \" \\ \/ \b\f\n\r\t \u00e9 \ud83d\ude00 é 😀" , "i":0,"u":0,"d":-1.5e-3,"b":false,"o":null,"a":[] } "#,
            #"{"s":"","i":9223372036854775807,"u":1,"d":1E+2,"b":true,"o":"x","a":[[0]],"n":{"k":1},"extra":[{"deep":[null,true]}]}"#,
        ]
        for text in documents {
            let ours = try JSONDocument(Array(text.utf8)).decode(Sample.self)
            let theirs = try JSONDecoder().decode(Sample.self, from: Data(text.utf8))
            #expect(ours == theirs, "\(text)")
        }
    }

    @Test("malformed documents are refused, as JSONDecoder refuses them")
    func malformed() {
        let bad = [
            "", " ", "{", "[", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[01]", "[1.]", "[.5]", "[1e]", "[-]",
            "[+1]", "tru", "nul", "[true false]", "\"a\" \"b\"", "[\"\u{1}\"]", #"["\x"]"#, #"["\u12"]"#,
            #"["\ud800"]"#, #"["\udc00"]"#, #"["\ud800\u0041"]"#, "[1e400]", "[NaN]", "[Infinity]", "{}}", "[]]",
        ]
        for text in bad {
            #expect(Self.refusal(text) != nil, "\(text) was read")
            // FoundationEssentials' JSONDecoder takes a trailing comma; RFC 8259 (and we) do not.
            if text == "[1,]" || text == "{\"a\":1,}" { continue }
            #expect((try? JSONDecoder().decode(JSONAny.self, from: Data(text.utf8))) == nil, "JSONDecoder took \(text)")
        }
        // Bytes that are not UTF-8 inside a string: overlong, a surrogate, past U+10FFFF, cut short.
        for bytes: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF]] {
            #expect((try? JSONDocument([0x22] + bytes + [0x22])) == nil, "\(bytes)")
        }
    }

    @Test("nesting: 64 deep is read, 65 is refused")
    func depth() {
        #expect(Self.refusal(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) == nil)
        let objects = String(repeating: #"{"a":"#, count: 64) + "1" + String(repeating: "}", count: 64)
        #expect(Self.refusal(objects) == nil)
        #expect(
            Self.refusal(String(repeating: "[", count: 65) + String(repeating: "]", count: 65))?.contains("deeper than 64")
                == true)
        #expect(Self.refusal(#"{"a":"# + objects + "}")?.contains("deeper than 64") == true)
    }

    @Test("a repeated key is refused, however it is spelled and however many keys come between")
    func repeatedKeys() {
        #expect(Self.refusal(#"{"a":1,"a":1}"#)?.contains(#"key "a" twice"#) == true)
        #expect(Self.refusal(#"{"a":1,"\u0061":2}"#) != nil)
        #expect(Self.refusal(#"{"é":1,"\u00e9":2}"#) != nil)
        let many = (0..<5000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        #expect(Self.refusal("{\(many)}") == nil)
        #expect(Self.refusal("{\(many),\"k4999\":0}") != nil)
        #expect(Self.refusal("{\(many),\"k\\u0034999\":0}") != nil)
        // The same key in different objects, and in an object inside a member of another, is fine.
        #expect(Self.refusal(#"{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}"#) == nil)
        #expect(Self.refusal(#"{"a":{"b":1},"b":{"b":2,"a":3}}"#) == nil)
        #expect(Self.refusal(#"{"x":[{"a":1}],"a":2,"x2":{"a":1,"x":1}}"#) == nil)
    }

    @Test("cost is linear: 52 KB of nesting refused at once, megabytes of arrays read in time")
    func linear() throws {
        let clock = ContinuousClock()
        let deep = String(repeating: "[", count: 26_000) + String(repeating: "]", count: 26_000)
        let refused = clock.measure { #expect(Self.refusal(deep) != nil) }
        #expect(refused < .milliseconds(50), "\(refused)")
        // 4 MiB of numbers and 4 MiB of keyed objects: each under a second even on a loaded machine.
        let numbers = "[" + Array(repeating: "1234567,", count: 1 << 19).joined() + "0]"
        let objects = "[" + (0..<(1 << 16)).map { #"{"id":"\#($0)","t":"a title","n":\#($0),"b":true},"# }.joined() + "{}]"
        for text in [numbers, objects] {
            let took = try clock.measure { _ = try JSONDocument(Array(text.utf8)) }
            #expect(took < .seconds(1), "\(text.utf8.count) bytes took \(took)")
        }
    }

    @Test("decoding errors name the path, as JSONDecoder's did")
    func errors() throws {
        struct Inner: Decodable { var n: Int }
        struct Outer: Decodable { var list: [Inner] }
        let document = try JSONDocument(Array(#"{"list":[{"n":1},{"n":"two"}]}"#.utf8))
        do {
            _ = try document.decode(Outer.self)
            Issue.record("decoded")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["list", "1", "n"])
        }
        let missing = try JSONDocument(Array(#"{"list":[{}]}"#.utf8))
        #expect(throws: DecodingError.self) { try missing.decode(Outer.self) }
        let big = try JSONDocument(Array(#"{"n":99999999999999999999}"#.utf8))
        #expect(throws: DecodingError.self) { try big.decode(Inner.self) }
    }
}

/// Any JSON value, to ask `JSONDecoder` whether it takes a document.
private enum JSONAny: Decodable {
    case value

    init(from decoder: any Decoder) throws {
        if var a = try? decoder.unkeyedContainer() {
            while !a.isAtEnd { _ = try a.decode(JSONAny.self) }
        } else if let o = try? decoder.container(keyedBy: AnyKey.self) {
            for key in o.allKeys { _ = try o.decode(JSONAny.self, forKey: key) }
        } else {
            let c = try decoder.singleValueContainer()
            if !c.decodeNil(), (try? c.decode(Bool.self)) == nil, (try? c.decode(Double.self)) == nil {
                _ = try c.decode(String.self)
            }
        }
        self = .value
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
