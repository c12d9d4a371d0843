extension PetBus {
    /// The largest request the contract allows, in bytes on the wire: `AddTaskFor` with a
    /// 200-code-point title of 4-byte characters (800 bytes), `tomorrow` and every weekday in the
    /// repeat rule, with its header (path, interface, member, destination, signature, and a sender
    /// such as `:1.65535` that the bus adds). `HostileBurstTests` measures it (docs/DECISIONS.md).
    public static let largestRequestBytes = 1068
}
