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
    /// Σ a[i]·b[i] over the shorter of the two: lane k (0…7) sums the
    /// products at i ≡ k mod 8, the lanes fold as ((0+4)+(2+6)) + ((1+5)+(3+7)),
    /// and the products past the last full eight are added last. Eight scalar
    /// sums rather than a SIMD8 vector: the same additions (a vector's lanes
    /// add one by one in IEEE arithmetic), and fast in debug builds too, where
    /// the tests train.
    static func dot(_ a: [Double], _ b: [Double]) -> Double {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                let n = min(a.count, b.count)
                guard n > 0, let a = a.baseAddress, let b = b.baseAddress else { return 0 }
                var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, s5 = 0.0, s6 = 0.0, s7 = 0.0
                var i = 0
                while i + 8 <= n {
                    s0 += a[i] * b[i]; s1 += a[i + 1] * b[i + 1]
                    s2 += a[i + 2] * b[i + 2]; s3 += a[i + 3] * b[i + 3]
                    s4 += a[i + 4] * b[i + 4]; s5 += a[i + 5] * b[i + 5]
                    s6 += a[i + 6] * b[i + 6]; s7 += a[i + 7] * b[i + 7]
                    i += 8
                }
                var tail = 0.0
                while i < n {
                    tail += a[i] * b[i]
                    i += 1
                }
                let even = (s0 + s4) + (s2 + s6), odd = (s1 + s5) + (s3 + s7)
                return (even + odd) + tail
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

    /// out[i] = x[i] + alpha · d[i]: the bits of copying x and then
    /// `axpy(alpha, d, &out)`, written into `out`'s own storage (which must
    /// have x's count) instead of a fresh copy.
    static func sum(_ x: [Double], _ alpha: Double, _ d: [Double], into out: inout [Double]) {
        precondition(out.count == x.count && d.count == x.count)
        x.withUnsafeBufferPointer { x in
            d.withUnsafeBufferPointer { d in
                out.withUnsafeMutableBufferPointer { out in
                    for i in x.indices { out[i] = x[i] + alpha * d[i] }
                }
            }
        }
    }

    /// out[i] = x[i], into `out`'s own storage (which must have x's count).
    static func copy(_ x: [Double], into out: inout [Double]) {
        precondition(out.count == x.count)
        x.withUnsafeBufferPointer { x in
            out.withUnsafeMutableBufferPointer { out in _ = out.update(fromContentsOf: x) }
        }
    }

    /// x[i] *= alpha.
    static func scale(_ x: inout [Double], _ alpha: Double) {
        x.withUnsafeMutableBufferPointer { x in
            for i in x.indices { x[i] *= alpha }
        }
    }
}
