#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
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

    /// `byteCount` bytes of fresh memory that read as zeros, straight from the
    /// kernel (`mmap`), starting on a 2 MiB boundary and advised to use huge
    /// pages. Nothing is written here: each page is cleared by the kernel when
    /// it is first touched, by whichever thread touches it, so a table that
    /// starts empty (all zeros) costs nothing to make. (Writing 12 MiB of empty
    /// entries at start-up held 42% of the samples of a `sentiment classify`
    /// of empty input, most of it the kernel clearing the pages as they were
    /// first written; without it that run ends 2 ms sooner, and both workers
    /// of a two-core run clear the pages as they go.)
    ///
    /// Free it with `deallocateZeroed(_:byteCount:)`.
    static func allocateZeroed(byteCount: Int) -> UnsafeMutableRawPointer {
        precondition(byteCount > 0)
        let length = roundedToPages(byteCount)
        // One huge page more than asked, so that a 2 MiB boundary falls inside;
        // the parts before it and after the length are given back at once.
        let mapped = length + size
        let raw = mmap(nil, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let raw, raw != MAP_FAILED else {
            fatalError("out of memory: mmap of \(mapped) bytes failed (errno \(errno))")
        }
        let start = (Int(bitPattern: raw) + size - 1) & ~(size - 1)
        let head = start - Int(bitPattern: raw)
        if head > 0 { munmap(raw, head) }
        let tail = mapped - head - length
        if tail > 0 { munmap(UnsafeMutableRawPointer(bitPattern: start + length), tail) }
        let memory = UnsafeMutableRawPointer(bitPattern: start)!
        advise(UnsafeMutableRawBufferPointer(start: memory, count: length))
        return memory
    }

    /// Gives back memory from `allocateZeroed(byteCount:)`.
    static func deallocateZeroed(_ memory: UnsafeMutableRawPointer, byteCount: Int) {
        munmap(memory, roundedToPages(byteCount))
    }

    private static func roundedToPages(_ byteCount: Int) -> Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        return (byteCount + page - 1) / page * page
    }
}
