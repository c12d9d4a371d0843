/// One form of the pet (petprogress(7) §2).
public struct Stage: Decodable, Hashable, Sendable {
    /// 0-based index in its table.
    public let i: Int
    public let name: String
    /// Stage XP needed to evolve out of this stage; 0 at the final stage.
    public let threshold: Int
    /// The PNG file name, `pet_<base>.png`.
    public let asset: String

    public init(i: Int, name: String, threshold: Int, asset: String) {
        self.i = i
        self.name = name
        self.threshold = threshold
        self.asset = asset
    }

    /// The asset base name: `pet_hermit.png` → `hermit`.
    public var base: String {
        var s = Substring(asset)
        if s.hasPrefix("pet_") { s = s.dropFirst(4) }
        if let dot = s.lastIndex(of: ".") { s = s[..<dot] }
        return String(s)
    }

    /// The freedesktop icon name, `petprogress-<base>`.
    public var iconName: String { "petprogress-\(base)" }

    /// The emoji shown by text-only panels; a paw for a base the built-in table does not know.
    public var glyph: String { Stage.glyphs[base] ?? "🐾" }

    static let glyphs: [String: String] = [
        "tadpole": "🫧", "minnow": "🐟", "frog": "🐸", "hermit": "🦀", "starfish": "⭐",
        "jellyfish": "🪼", "squid": "🦑", "seahorse": "🐴", "dolphin": "🐬", "shark": "🦈",
        "otter": "🦦", "fox": "🦊", "lynx": "🐆", "wolf": "🐺", "bear": "🐻", "bison": "🦬",
        "elephant": "🐘", "rhino": "🦏", "lion": "🦁", "god": "✨",
    ]
}
