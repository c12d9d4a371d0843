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
}
