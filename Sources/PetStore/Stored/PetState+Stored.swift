import PetCore

extension PetState: Decodable, JSONWritable {
    enum Key: String, CodingKey {
        case stageIndex, stageXP
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(
            stageIndex: try c.decode(Int.self, forKey: .stageIndex), stageXP: try c.decode(Int.self, forKey: .stageXP))
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field(Key.stageIndex, stageIndex)
        json.field(Key.stageXP, stageXP)
        json.endObject()
    }
}
