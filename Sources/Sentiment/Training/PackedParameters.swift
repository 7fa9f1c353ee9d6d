/// The parameters a fit can move, packed so that L-BFGS streams only them.
///
/// A sparse bucket that none of a fit's rows hashes to keeps a zero weight, a
/// zero gradient (its L2 term, l2·0) and a zero step from the first iteration
/// to the last. At 2^20 buckets over the training file more than half of the
/// sparse weights are such zeros, yet every L-BFGS iteration would stream them
/// through its 2·10 correction vectors.
///
/// Packing leaves them out without changing a bit of the fit. An entry keeps
/// its lane (`FixedOrderVector` sums the lanes i mod 8 apart): the r-th kept
/// entry of lane k goes to 8r + k, lanes with fewer kept entries than the
/// longest are padded with zeros, and the entries past the last full eight (the
/// tail a dot product adds last) all stay, last and in order. Every dot product
/// over packed vectors then sums the same products in the same order, the
/// left-out zeros aside, and the elementwise steps are elementwise.
struct PackedParameters: Sendable {
    /// Entries of the full vector.
    let count: Int
    /// The full index of each packed entry, or −1 for a padding zero.
    let positions: [Int]

    /// Packs a vector of `count` entries, keeping entry `i` when `keeps(i)`
    /// (every entry past the last full eight is kept).
    init(count: Int, keeps: (Int) -> Bool) {
        self.count = count
        let lanes = 8
        let main = count / lanes * lanes
        var kept = [[Int]](repeating: [], count: lanes)
        for i in 0..<main where keeps(i) { kept[i % lanes].append(i) }
        let rows = kept.map(\.count).max() ?? 0
        var positions = [Int](repeating: -1, count: rows * lanes + (count - main))
        for (lane, entries) in kept.enumerated() {
            for (r, i) in entries.enumerated() { positions[r * lanes + lane] = i }
        }
        for i in main..<count { positions[rows * lanes + i - main] = i }
        self.positions = positions
    }

    /// Entries of a packed vector.
    var packedCount: Int { positions.count }

    /// Writes the packed entries of `full` to `packed` (`packedCount` entries),
    /// zeros at the padding.
    func pack(_ full: [Double], into packed: inout [Double]) {
        precondition(full.count == count && packed.count == packedCount)
        full.withUnsafeBufferPointer { full in
            packed.withUnsafeMutableBufferPointer { packed in
                for (p, i) in positions.enumerated() { packed[p] = i < 0 ? 0 : full[i] }
            }
        }
    }

    /// Writes the kept entries of `full` (`count` entries) from `packed`;
    /// the others are left as they are, which for a fit is zero.
    func unpack(_ packed: [Double], into full: inout [Double]) {
        precondition(full.count == count && packed.count == packedCount)
        packed.withUnsafeBufferPointer { packed in
            full.withUnsafeMutableBufferPointer { full in
                for (p, i) in positions.enumerated() where i >= 0 { full[i] = packed[p] }
            }
        }
    }
}
