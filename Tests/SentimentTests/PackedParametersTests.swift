import Foundation
import Testing
@testable import Sentiment

@Suite("Packed parameters")
struct PackedParametersTests {
    /// Values of many magnitudes, so that summing them in another order
    /// changes the last bits; zero where `keeps` is false.
    static func vector(count: Int, keeps: (Int) -> Bool, generator: inout SplitMix64) -> [Double] {
        (0..<count).map { i in
            let value = Double.random(in: -1...1, using: &generator) * Double(sign: .plus, exponent: Int.random(in: -30...30, using: &generator), significand: 1)
            return keeps(i) ? value : 0
        }
    }

    @Test("Packing keeps each entry's lane and order, pads the lanes with zeros and keeps the tail")
    func packingKeepsLanes() {
        let keeps: (Int) -> Bool = { $0 % 3 != 0 || $0 == 9 }
        let packing = PackedParameters(count: 27, keeps: keeps)
        // 24 entries in full eights, 17 of them kept (lane 0 keeps 8 and 16, lane 1 keeps 1, 9 and 17), and a tail of 3.
        let lanes = Dictionary(grouping: packing.positions.enumerated().filter { $0.element >= 0 && $0.element < 24 }) { $0.offset % 8 }
        for (lane, entries) in lanes {
            #expect(entries.allSatisfy { $0.element % 8 == lane })
            #expect(entries.map(\.element) == entries.map(\.element).sorted())
        }
        #expect(packing.positions.filter { $0 >= 0 && $0 < 24 }.sorted() == (0..<24).filter(keeps))
        #expect(packing.positions.suffix(3) == [24, 25, 26])
        #expect(packing.packedCount == 3 * 8 + 3)

        var generator = SplitMix64(seed: 5)
        let full = Self.vector(count: 27, keeps: keeps, generator: &generator)
        var packed = [Double](repeating: .nan, count: packing.packedCount)
        packing.pack(full, into: &packed)
        #expect(packed.filter { $0 != 0 }.count == full.filter { $0 != 0 }.count)
        var back = [Double](repeating: 0, count: 27)
        packing.unpack(packed, into: &back)
        #expect(back == full)
    }

    @Test("Dot products over packed vectors have the bits of those over the full vectors")
    func packedDotProductsAreBitIdentical() {
        var generator = SplitMix64(seed: 11)
        for count in [7, 8, 64, 1_003, 4_099] {
            let keeps: (Int) -> Bool = { ($0 * 2_654_435_761) % 7 < 3 }
            let packing = PackedParameters(count: count, keeps: keeps)
            let a = Self.vector(count: count, keeps: keeps, generator: &generator)
            let b = Self.vector(count: count, keeps: keeps, generator: &generator)
            var packedA = [Double](repeating: 0, count: packing.packedCount), packedB = packedA
            packing.pack(a, into: &packedA)
            packing.pack(b, into: &packedB)
            let full = FixedOrderVector.dot(a, b), packed = FixedOrderVector.dot(packedA, packedB)
            #expect(full.bitPattern == packed.bitPattern, "count \(count): \(full) against \(packed)")
        }
    }

    @Test("L-BFGS over the packed parameters ends where it ends over all of them, bit for bit")
    func lbfgsOverPackedParametersIsBitIdentical() {
        // A regularized softplus loss over sparse rows that reach only some of
        // the parameters, as a fit's rows reach only some buckets.
        let count = 1_003, l2 = 0.01
        var generator = SplitMix64(seed: 17)
        let rows: [[(Int, Double)]] = (0..<60).map { _ in
            (0..<9).map { _ in (Int.random(in: 0..<count, using: &generator) / 2 * 2, Double.random(in: -2...2, using: &generator)) }
        }
        func objective(_ x: [Double], _ gradient: inout [Double]) -> Double {
            var f = 0.0
            for k in 0..<count { gradient[k] = l2 * x[k]; f += 0.5 * l2 * x[k] * x[k] }
            for (r, row) in rows.enumerated() {
                let z = row.reduce(Double(r % 3) - 1) { $0 + $1.1 * x[$1.0] }
                f += z > 30 ? z : log1p(exp(z))
                let p = 1 / (1 + exp(-z))
                for (k, v) in row { gradient[k] += p * v }
            }
            return f
        }
        let reached = Set(rows.flatMap { $0.map(\.0) })
        let optimizer = LBFGS(maxIterations: 40, tolerance: 0)
        var full = [Double](repeating: 0, count: count)
        let fullReport = optimizer.minimize(&full, objective: objective)

        let packing = PackedParameters(count: count, keeps: reached.contains)
        #expect(packing.packedCount < count * 3 / 4)
        var packed = [Double](repeating: 0, count: packing.packedCount)
        var x = [Double](repeating: 0, count: count), gradient = x
        let packedReport = optimizer.minimize(&packed) { packedX, packedGradient in
            packing.unpack(packedX, into: &x)
            let f = objective(x, &gradient)
            packing.pack(gradient, into: &packedGradient)
            return f
        }
        packing.unpack(packed, into: &x)
        #expect(fullReport.steps > 10)
        #expect(packedReport.iterations == fullReport.iterations)
        #expect(packedReport.objective.bitPattern == fullReport.objective.bitPattern)
        #expect(x.map(\.bitPattern) == full.map(\.bitPattern))
    }
}
