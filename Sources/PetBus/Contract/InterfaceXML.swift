extension PetBus {
    /// `dbus/io.petprogress.PetProgress1.xml`, the contract, as built into the binary (the package
    /// embeds the file's bytes): the one spelling of the interface, comments included.
    public static let contractXML = String(decoding: PackageResources.io_petprogress_PetProgress1_xml, as: UTF8.self)

    /// The contract's `<interface>` element, verbatim from its line's indentation to its end tag:
    /// what `Introspect` serves beside the standard interfaces.
    public static let interfaceXML: String = {
        guard let start = contractXML.firstRange(of: "  <interface ")?.lowerBound,
            let end = contractXML.firstRange(of: "</interface>")?.upperBound, start < end
        else { return "" }
        return String(contractXML[start..<end])
    }()
}
