import Glibc

extension MappedFile {
    /// Why a private copy could not be had.
    public enum CopyFailure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The source refused as `SmallFile` refuses: not a regular file, not ours, too large
        /// (as `fstat` said, or as copied when it grew meanwhile), or its `fstat` failed.
        case source(SmallFile.Failure)
        /// Fewer bytes free in the directory's file system than the copy and what must stay free.
        case noRoom(needed: Int64, available: Int64)
        /// Making, filling or mapping the copy failed (`ENOSPC` when the disk filled meanwhile).
        case copy(SystemCallError)

        /// A sentence fragment, in English, for logs.
        public var description: String {
            switch self {
            case .source(let failure): failure.description
            case .noRoom(let needed, let available):
                "its copy needs \(needed) bytes free and \(available) are"
            case .copy(let error): error.description
            }
        }
    }

    /// `source` copied into an unnamed file of `directory` (`FileDescriptor.unnamed`: 0600, never
    /// linked, gone when the value goes or the process dies), then that copy mapped. What is
    /// mapped is the process's own: the source's owner may truncate or rewrite the source
    /// meanwhile, and a read of the mapping can no longer fault (`SIGBUS`) on a page past its new
    /// end. The source is measured first (`fstat`: a regular file, ours unless `owner` is
    /// `.anyone`, at most `limit`), then refused unless its file system keeps `keepFree` bytes free
    /// beside the copy; the copy is made in the kernel in bounded chunks (no anonymous memory
    /// grows with the file), ends short if the source shrinks meanwhile (the reader then meets a
    /// document cut short) and is refused past `limit` if it grows. The source's flags and offset
    /// are left as they are.
    public static func privateCopy(
        of source: FileDescriptor, in directory: FileDescriptor, limit: Int, owner: SmallFile.Owner = .us,
        keepFree: Int64 = 0
    ) throws(CopyFailure) -> MappedFile {
        let size: Int64
        do throws(SmallFile.Failure) {
            size = try SmallFile.checked(source, limit: limit, owner: owner).size
        } catch {
            throw .source(error)
        }
        let available: Int64
        do throws(SystemCallError) { available = try directory.availableBytes() } catch { throw .copy(error) }
        guard available >= size + keepFree else { throw .noRoom(needed: size + keepFree, available: available) }
        let copy: FileDescriptor
        let copied: Int64
        do throws(SystemCallError) {
            copy = try FileDescriptor.unnamed(in: directory)
            // One byte past the bound at most: enough to know the source grew past it.
            copied = try copy.append(contentsOf: source, limit: Int64(limit) + 1)
        } catch {
            throw .copy(error)
        }
        defer { copy.close() }
        guard copied <= Int64(limit) else { throw .source(.tooLarge(size: copied, limit: limit)) }
        do throws(SmallFile.Failure) {
            // The mapping keeps the unnamed file; its descriptor is closed on return.
            return try map(copy, limit: limit)
        } catch {
            switch error {
            case .system(let failure): throw .copy(failure)
            default: throw .source(error)
            }
        }
    }
}
