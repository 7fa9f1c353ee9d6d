/// Limited-memory BFGS with a backtracking (Armijo) line search: a
/// deterministic, well-understood optimizer for smooth convex objectives such
/// as L2-regularized logistic regression. Its vector arithmetic is
/// `FixedOrderVector`'s, not BLAS's, so a fit gives the same bits on every
/// processor.
struct LBFGS {
    /// Correction pairs kept.
    var memory = 10
    /// Most iterations.
    var maxIterations = 300
    /// Stop when the objective improved by less than this fraction over `window` iterations.
    var tolerance = 1e-5
    var window = 5

    /// What a run did.
    struct Report {
        var iterations: Int
        var objective: Double
        var converged: Bool
        /// Steps the line search accepted: 0 when no step from the start lowered
        /// the objective, so `x` is where it began.
        var steps: Int
        /// Objective evaluations (filled by the caller that counts them).
        var evaluations = 0
        /// Seconds spent (filled by the caller).
        var seconds = 0.0
    }

    /// Minimizes `objective` from `x` (updated in place). `progress` hears each iteration's objective.
    func minimize(_ x: inout [Double], objective: (_ x: [Double], _ gradient: inout [Double]) -> Double,
                  progress: (Int, Double) -> Void = { _, _ in }) -> Report {
        let n = x.count
        var gradient = [Double](repeating: 0, count: n)
        var f = objective(x, &gradient)
        var s = [[Double]](), y = [[Double]](), rho = [Double]()
        var history = [f]
        var direction = [Double](repeating: 0, count: n)
        var alpha = [Double](repeating: 0, count: memory)
        var candidate = [Double](repeating: 0, count: n)
        var candidateGradient = [Double](repeating: 0, count: n)
        // Correction vectors dropped from the history, whose storage the next
        // pairs reuse: a fresh vector of millions of entries costs its pages'
        // clearing.
        var spare = [[Double]]()
        var steps = 0
        for iteration in 1...maxIterations {
            // Two-loop recursion: direction = −H·g.
            FixedOrderVector.copy(gradient, into: &direction)
            for k in stride(from: s.count - 1, through: 0, by: -1) {
                alpha[k] = rho[k] * dot(s[k], direction)
                axpy(-alpha[k], y[k], &direction)
            }
            if let lastS = s.last, let lastY = y.last {
                let gamma = dot(lastS, lastY) / dot(lastY, lastY)
                scale(&direction, gamma)
            } else {
                scale(&direction, 1 / max(dot(gradient, gradient).squareRoot(), 1e-12))
            }
            for k in 0..<s.count {
                let beta = rho[k] * dot(y[k], direction)
                axpy(alpha[k] - beta, s[k], &direction)
            }
            scale(&direction, -1)
            var slope = dot(gradient, direction)
            if slope >= 0 {   // not a descent direction: restart from steepest descent
                spare += s + y
                s.removeAll(); y.removeAll(); rho.removeAll()
                FixedOrderVector.copy(gradient, into: &direction)
                scale(&direction, -1 / max(dot(gradient, gradient).squareRoot(), 1e-12))
                slope = dot(gradient, direction)
            }
            // Backtracking line search.
            var step = 1.0
            var newF = f
            var accepted = false
            for _ in 0..<30 {
                FixedOrderVector.sum(x, step, direction, into: &candidate)
                newF = objective(candidate, &candidateGradient)
                if newF.isFinite && newF <= f + 1e-4 * step * slope { accepted = true; break }
                step *= 0.5
            }
            guard accepted else { return Report(iterations: iteration, objective: f, converged: true, steps: steps) }
            steps += 1
            var sk = spare.popLast() ?? [Double](repeating: 0, count: n)
            var yk = spare.popLast() ?? [Double](repeating: 0, count: n)
            FixedOrderVector.sum(candidate, -1, x, into: &sk)
            FixedOrderVector.sum(candidateGradient, -1, gradient, into: &yk)
            let sy = dot(sk, yk)
            if sy > 1e-12 {
                if s.count == memory { spare += [s.removeFirst(), y.removeFirst()]; rho.removeFirst() }
                s.append(sk); y.append(yk); rho.append(1 / sy)
            } else {
                spare += [sk, yk]
            }
            swap(&x, &candidate)
            swap(&gradient, &candidateGradient)
            f = newF
            history.append(f)
            progress(iteration, f)
            if history.count > window {
                let old = history[history.count - 1 - window]
                if (old - f) / max(abs(f), 1e-12) < tolerance {
                    return Report(iterations: iteration, objective: f, converged: true, steps: steps)
                }
            }
        }
        return Report(iterations: maxIterations, objective: f, converged: false, steps: steps)
    }

    private func dot(_ a: [Double], _ b: [Double]) -> Double { FixedOrderVector.dot(a, b) }

    private func axpy(_ alpha: Double, _ x: [Double], _ y: inout [Double]) { FixedOrderVector.axpy(alpha, x, &y) }

    private func scale(_ x: inout [Double], _ alpha: Double) { FixedOrderVector.scale(&x, alpha) }
}
