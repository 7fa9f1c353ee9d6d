/// The vector arithmetic of L-BFGS (dot products, y += a·x, x *= a) over
/// Double arrays, in an order fixed by this source: eight running sums over
/// the lanes i mod 8, folded in one set order at the end, and no fused
/// multiply-adds (Swift does not contract `a * b + c`).
///
/// BLAS would do the same work no faster here (the vectors have millions of
/// entries, so each call streams memory), but OpenBLAS picks its kernel for
/// the processor it finds, and kernels differ in how they order a dot
/// product's sums and whether they fuse: on one machine a Haswell, a Prescott
/// and a SkylakeX kernel trained three different weight files from the same
/// data. With this arithmetic a training run gives the same bits on every
/// x86-64 processor.
enum FixedOrderVector {
    /// Σ a[i]·b[i] over the shorter of the two.
    static func dot(_ a: [Double], _ b: [Double]) -> Double {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                let n = min(a.count, b.count)
                guard n > 0 else { return 0 }
                let pa = UnsafeRawPointer(a.baseAddress!), pb = UnsafeRawPointer(b.baseAddress!)
                let stride = MemoryLayout<Double>.stride
                var lanes = SIMD8<Double>()
                var i = 0
                while i + 8 <= n {
                    let x = pa.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Double>.self)
                    let y = pb.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Double>.self)
                    lanes += x * y
                    i += 8
                }
                var tail = 0.0
                while i < n {
                    tail += a[i] * b[i]
                    i += 1
                }
                let quarters = lanes.lowHalf + lanes.highHalf
                let halves = quarters.lowHalf + quarters.highHalf
                return (halves[0] + halves[1]) + tail
            }
        }
    }

    /// y[i] += alpha · x[i] over the shorter of the two.
    static func axpy(_ alpha: Double, _ x: [Double], _ y: inout [Double]) {
        x.withUnsafeBufferPointer { x in
            y.withUnsafeMutableBufferPointer { y in
                for i in 0..<min(x.count, y.count) { y[i] += alpha * x[i] }
            }
        }
    }

    /// x[i] *= alpha.
    static func scale(_ x: inout [Double], _ alpha: Double) {
        x.withUnsafeMutableBufferPointer { x in
            for i in x.indices { x[i] *= alpha }
        }
    }
}
