import LinuxKit

/// Reads a file's newline-terminated lines from the end backwards, a chunk at a time, so finding
/// the last day in history costs one small read however long the history is.
struct BackwardLines {
    let file: FileDescriptor
    /// Lines before this offset have not been returned yet.
    private(set) var end: Int64
    private var buffer: [UInt8] = []
    private var bufferStart: Int64

    static let chunk = 4096

    /// Reads the lines in `[0, end)`; `end` must be 0 or just past a newline.
    init(_ file: FileDescriptor, end: Int64) {
        self.file = file
        self.end = end
        self.bufferStart = end
    }

    /// The previous line (without its newline) and the offset it starts at; nil at the beginning.
    mutating func previous() throws(StoreError) -> (start: Int64, bytes: ArraySlice<UInt8>)? {
        guard end > 0 else { return nil }
        let lineEnd = end - 1  // the newline
        var searchFrom = lineEnd - 1
        var start: Int64 = 0
        while true {
            if let newline = lastNewline(from: searchFrom) {
                start = newline + 1
                break
            }
            if bufferStart == 0 {
                start = 0
                break
            }
            searchFrom = min(lineEnd - 1, bufferStart - 1)
            try extend()
        }
        let bytes = buffer[Int(start - bufferStart)..<Int(lineEnd - bufferStart)]
        end = start
        return (start, bytes)
    }

    private func lastNewline(from offset: Int64) -> Int64? {
        var i = offset
        while i >= bufferStart {
            if buffer[Int(i - bufferStart)] == UInt8(ascii: "\n") { return i }
            i -= 1
        }
        return nil
    }

    private mutating func extend() throws(StoreError) {
        let newStart = max(0, bufferStart - Int64(Self.chunk))
        let more = try io(file.read(at: newStart, count: Int(bufferStart - newStart)))
        buffer = more + buffer
        bufferStart = newStart
    }

    /// A reader over the file's complete lines, with `end` just past the last newline: a torn
    /// last line (a crash mid-append) lies beyond it. Usually one read of the last chunk, which
    /// later lines reuse.
    static func open(_ file: FileDescriptor, size: Int64) throws(StoreError) -> BackwardLines {
        var reader = BackwardLines(file, end: size)
        var searchFrom = size - 1
        while true {
            if let newline = reader.lastNewline(from: searchFrom) {
                reader.end = newline + 1
                return reader
            }
            if reader.bufferStart == 0 {
                reader.end = 0
                return reader
            }
            searchFrom = reader.bufferStart - 1
            try reader.extend()
        }
    }

    /// The same reader (sharing what it has read) restarted at `end`, which must be 0 or just
    /// past a newline, and not beyond where this reader started.
    func restarted(at end: Int64) -> BackwardLines {
        var copy = self
        copy.end = end
        return copy
    }
}
