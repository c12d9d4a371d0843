/// FNV-1a, 64 bits: the digest that tells apart two different operations under one device's
/// sequence number (a device restored from a backup, a copied home directory). Not a security
/// measure: the folder is the user's own.
enum FNV1a {
    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }
}

/// Sixteen lowercase hexadecimal digits.
func hex(_ value: UInt64) -> String {
    let s = String(value, radix: 16)
    return String(repeating: "0", count: 16 - s.count) + s
}
