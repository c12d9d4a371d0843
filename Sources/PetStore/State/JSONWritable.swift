/// A value the store writes into its JSON files, by hand: objects write their keys sorted by
/// their UTF-8 bytes, leaving out optionals that are nil — the shape `JSONEncoder` wrote. The
/// stored types and their keys are in `Stored/`.
protocol JSONWritable {
    func write(to json: inout JSONWriter)
}

extension JSONWriter {
    mutating func write(_ value: some JSONWritable) { value.write(to: &self) }

    mutating func array<T: JSONWritable>(_ values: [T]) {
        beginArray()
        for value in values {
            element()
            value.write(to: &self)
        }
        endArray()
    }
}

extension Int: JSONWritable { func write(to json: inout JSONWriter) { json.integer(self) } }
extension Int64: JSONWritable { func write(to json: inout JSONWriter) { json.integer(self) } }
extension UInt64: JSONWritable { func write(to json: inout JSONWriter) { json.integer(self) } }
extension Bool: JSONWritable { func write(to json: inout JSONWriter) { json.bool(self) } }
extension Double: JSONWritable { func write(to json: inout JSONWriter) { json.double(self) } }
extension String: JSONWritable { func write(to json: inout JSONWriter) { json.string(self) } }
extension Array: JSONWritable where Element: JSONWritable {
    func write(to json: inout JSONWriter) { json.array(self) }
}
