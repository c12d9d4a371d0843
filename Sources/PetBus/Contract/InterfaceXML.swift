extension PetBus {
    /// `dbus/io.petprogress.PetProgress1.xml`, the contract, as built into the binary (the package
    /// embeds the file's bytes): the one spelling of the interface, comments included.
    public static let contractXML = String(decoding: PackageResources.io_petprogress_PetProgress1_xml, as: UTF8.self)

    /// The contract's `<interface>` element, verbatim from its line's indentation to its end tag:
    /// what `Introspect` serves beside the standard interfaces. Found in the embedded bytes: the
    /// daemon builds this at every start, and `String.firstRange(of:)` over the 16 kB contract
    /// (Character by Character) was a tenth of its start-up CPU (docs/BENCHMARKS.md, "Lean III").
    public static let interfaceXML: String = {
        let bytes = PackageResources.io_petprogress_PetProgress1_xml
        guard let start = firstOffset(of: "  <interface ", in: bytes, from: 0),
            let endTag = firstOffset(of: "</interface>", in: bytes, from: 0), start < endTag
        else { return "" }
        return String(decoding: bytes[start..<endTag + "</interface>".utf8.count], as: UTF8.self)
    }()

    /// Where `needle`'s UTF-8 bytes first occur in `bytes` at or after `from`.
    static func firstOffset(of needle: String, in bytes: [UInt8], from: Int) -> Int? {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var i = from
        while i <= bytes.count - pattern.count {
            if bytes[i] == first, bytes[i..<i + pattern.count].elementsEqual(pattern) { return i }
            i += 1
        }
        return nil
    }
}
