import CDBus

/// The one funnel through which DBusKit calls libdbus.
///
/// libdbus reports failure three ways: a `DBusError*` out-parameter, a `FALSE` return (out of memory)
/// and a `NULL` return. Every call site uses one of the three functions below, so each failure becomes a
/// thrown ``DBusError`` in one place (the swift-system `valueOrErrno` pattern).
enum LibDBus {
    /// Runs a call that reports failure through a `DBusError*`, and throws that error when it is set.
    static func withError<T>(_ body: (UnsafeMutablePointer<CDBus.DBusError>) -> T) throws -> T {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let result = body(&error)
        if dbus_error_is_set(&error) != 0 {
            throw DBusError(
                name: error.name.map { String(cString: $0) } ?? DBusError.Name.failed,
                message: error.message.map { String(cString: $0) } ?? "")
        }
        return result
    }

    /// Checks a `dbus_bool_t` result where `FALSE` means libdbus ran out of memory.
    static func check(_ result: dbus_bool_t, _ what: StaticString) throws {
        if result == 0 { throw DBusError.noMemory(what) }
    }

    /// Unwraps a pointer result where `NULL` means libdbus ran out of memory.
    static func allocated<T>(_ result: T?, _ what: StaticString) throws -> T {
        guard let result else { throw DBusError.noMemory(what) }
        return result
    }

    /// Copies a libdbus-owned C string (never freed here), or nil.
    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// Copies and frees a string that libdbus allocated for the caller (`dbus_free` is the matching free).
    static func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { dbus_free(pointer) }
        return String(cString: pointer)
    }
}
