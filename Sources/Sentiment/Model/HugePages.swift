#if canImport(Glibc)
import Glibc
#endif

/// Transparent huge pages for the big tables: the sparse weights (6 MiB),
/// the lexicon and each workspace's token cache.
///
/// Filling 12 MiB of fresh memory in 4 KiB pages takes some 3,000 page
/// faults, a few milliseconds of every process start; in 2 MiB pages it
/// takes a handful (`sentiment classify` of one line: about 4 ms sooner,
/// Docs/performance.md).
enum HugePages {
    /// The huge page size on x86-64 and arm64 Linux.
    static let size = 2 << 20

    /// Asks the kernel (Linux, `madvise(MADV_HUGEPAGE)`) to back the 2 MiB-
    /// aligned part of `buffer` with huge pages when it is first touched. Call
    /// it on fresh memory, before writing to it. A hint only: without
    /// transparent huge pages, or elsewhere, nothing changes.
    static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard let base = buffer.baseAddress, buffer.count >= size else { return }
        let start = (Int(bitPattern: base) + size - 1) & ~(size - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(size - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
        #endif
    }
}
