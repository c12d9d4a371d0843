import DBusKit

/// The item's `IconPixmap` (`a(iiay)`): a form's pixels at every size of ``PetPixmaps``, for hosts
/// that do not look icons up by name. Sleeping, the pet is drawn at a third of its opacity.
enum TrayPixmap {
    /// The pixmaps of the icon `petprogress-<base>`; empty for an icon this build has no pixels for.
    static func value(iconName: String, sleeping: Bool) -> DBusValue {
        let prefix = "petprogress-"
        guard iconName.hasPrefix(prefix), let text = PetPixmaps.base64(for: String(iconName.dropFirst(prefix.count))),
            var bytes = decode(text)
        else { return .array(elementSignature: "(iiay)", []) }
        if sleeping {
            for alpha in stride(from: 0, to: bytes.count, by: 4) { bytes[alpha] /= 3 }
        }
        var images: [DBusValue] = []
        var offset = 0
        for size in PetPixmaps.sizes {
            let count = size * size * 4
            guard offset + count <= bytes.count else { break }
            let pixels = bytes[offset..<offset + count].map(DBusValue.byte)
            images.append(
                .structure([.int32(Int32(size)), .int32(Int32(size)), .array(elementSignature: "y", pixels)]))
            offset += count
        }
        return .array(elementSignature: "(iiay)", images)
    }

    /// Standard base64 (RFC 4648) without line breaks; nil on anything else.
    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text.utf8 {
            let value: UInt8
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = character - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="): continue
            default: return nil
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }
}
