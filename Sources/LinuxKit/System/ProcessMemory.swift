import CLinux

/// The process's allocator policy.
public enum ProcessMemory {
    /// Makes every allocation of 128 KiB or more a mapping of its own, returned to the system when
    /// freed. glibc otherwise raises its mmap threshold to the size of the largest block freed (up
    /// to 32 MiB), after which the buffers of big messages come from the heap and stay resident:
    /// eight 16 MB calls left a daemon 31 MB larger for good (docs/RELIABILITY.md, "Size bounds").
    /// Process-wide; call it once, early, in a process that peers can send big messages to.
    public static func returnLargeBuffersWhenFreed() {
        _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
    }

    /// Gives the heap's free pages back to the system (`malloc_trim`): messages under the mmap
    /// threshold come from the heap, and a burst of them leaves free chunks between live ones that
    /// glibc's own trimming (from the top of the heap only) never returns. It walks the heap: call
    /// it after a burst, not after every message.
    public static func returnFreedMemory() {
        _ = malloc_trim(0)
    }
}
