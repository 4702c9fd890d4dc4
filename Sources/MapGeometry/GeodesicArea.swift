// Areas of geodesic polygons on the ellipsoid (Karney 2013, section 6).
//
// Each edge contributes S12, the area between the geodesic and the equator bounded by the meridians
// through its ends: S12 = c²(α2 − α1) + e² a² cos α0 sin α0 (I4(σ2) − I4(σ1)), where c² is the
// authalic radius squared and I4(σ) = Σ C4_l cos (2l+1)σ (coefficients derived for this file, order 6
// in n and ε). Summing S12 round a ring gives the enclosed area up to whole multiples of the
// ellipsoid's area, and an extra half when the ring encircles a pole (detected by counting
// crossings of the prime meridian).
import Foundation

extension Geodesic {
    /// The area and perimeter of the polygon whose edges are the geodesics between consecutive
    /// points of `ring` (and from the last point back to the first).
    ///
    /// - `area` is signed, in square metres: positive when the ring runs counter-clockwise (the
    ///   interior on the left, as GeographicLib's PolygonArea counts it), negative when clockwise.
    ///   It is reduced to (−A/2, A/2] where A is the whole ellipsoid's area
    ///   (``ellipsoidArea``), so a counter-clockwise ring enclosing more than half the earth reports
    ///   its complement with a negative sign; use `abs(area)` for "the smaller region".
    /// - `perimeter` is the total length of the edges in metres, including the closing edge.
    /// - The ring may repeat its first point at the end (as GeoJSON does) or not; both give the same result.
    /// - Fewer than three distinct vertices give area 0 (two points: the perimeter is there and back).
    /// - Any invalid coordinate (NaN, latitude beyond ±90°) gives NaN for both.
    public func area(of ring: [CLLocationCoordinate2D]) -> (area: Double, perimeter: Double) {
        var count = ring.count
        if count > 1 && ring[0] == ring[count - 1] { count -= 1 }
        if count < 2 {
            if count == 1 && !(abs(ring[0].latitude) <= 90 && ring[0].longitude.isFinite) { return (.nan, .nan) }
            return (0, 0)
        }
        var perimeter = 0.0, perimeterError = 0.0
        var sum = 0.0, sumError = 0.0
        var crossings = 0
        for i in 0..<count {
            let p = ring[i], q = ring[i + 1 == count ? 0 : i + 1]
            let r = solveInverse(p.latitude, p.longitude, q.latitude, q.longitude, wantArea: true)
            (perimeter, perimeterError) = Geodesic.accumulate(perimeter, perimeterError, r.s12)
            (sum, sumError) = Geodesic.accumulate(sum, sumError, r.area)
            crossings += Geodesic.transit(p.longitude, q.longitude)
        }
        perimeter += perimeterError
        if count == 2 { return (0 * sum, perimeter) }
        let total = ellipsoidArea
        var area = (sum.remainder(dividingBy: total) + sumError).remainder(dividingBy: total)
        if crossings & 1 != 0 {
            area += (area < 0 ? 1 : -1) * total / 2
        }
        // S12 is positive for an eastward edge north of the equator, so the sum runs clockwise.
        area = -area
        if area > total / 2 {
            area -= total
        } else if area <= -total / 2 {
            area += total
        }
        return (area + 0, perimeter)
    }

    /// The surface area of the whole ellipsoid, 4πc², in square metres
    /// (510 065 621 724 088.5 m² for WGS84).
    public var ellipsoidArea: Double { 4 * .pi * c2 }

    /// c² = (a² + b² atanh(e)/e)/2, the square of the authalic radius (atan for a prolate ellipsoid).
    static func authalicRadiusSquared(a: Double, b: Double, e2: Double) -> Double {
        let ratio: Double
        if e2 == 0 {
            ratio = 1
        } else {
            let e = abs(e2).squareRoot()
            ratio = (e2 > 0 ? atanh(e) : atan(e)) / e
        }
        return (a * a + b * b * ratio) / 2
    }

    /// Compensated running sum (value, error) + x.
    @inline(__always) static func accumulate(_ s: Double, _ e: Double, _ x: Double) -> (Double, Double) {
        let (u, t) = GeodesicMath.twoSum(x, e)
        let (v, w) = GeodesicMath.twoSum(u, s)
        return (v, w + t)
    }

    /// +1 when the edge lon1 → lon2 (the shorter way round) crosses the prime meridian eastwards,
    /// −1 westwards, 0 otherwise. Longitudes in [0, 180] count as east, [−180, 0) as west, with 180°
    /// reached eastwards from the west treated consistently.
    static func transit(_ lon1: Double, _ lon2: Double) -> Int {
        let lon12 = GeodesicMath.angDiff(lon1, lon2).d
        let l1 = GeodesicMath.angNormalize(lon1), l2 = GeodesicMath.angNormalize(lon2)
        if lon12 > 0 && ((l1 < 0 && l2 >= 0) || (l1 > 0 && l2 == 0)) { return 1 }
        if lon12 < 0 && l1 >= 0 && l2 < 0 { return -1 }
        return 0
    }

    /// C4_l(ε), l = 0…5 in lanes 0…5.
    @inline(__always) func c4(_ eps: Double) -> SIMD8<Double> {
        var v = c4x5
        v = v * eps + c4x4
        v = v * eps + c4x3
        v = v * eps + c4x2
        v = v * eps + c4x1
        return v * eps + c4x0
    }

    /// S12 for one edge in the canonical configuration of `solveInverse` (before the signs are restored).
    func areaTerm(sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double,
                  salp1: Double, calp1: Double, salp2: Double, calp2: Double,
                  meridian: Bool, omg12: Double, somg12: Double, comg12: Double) -> Double {
        typealias M = GeodesicMath
        let salp0 = salp1 * cbet1, calp0 = M.hypot(calp1, salp1 * sbet1)
        var s12 = 0.0
        if calp0 != 0 && salp0 != 0 {
            // tan β = tan σ cos α
            var ssig1 = sbet1, csig1 = calp1 * cbet1
            var ssig2 = sbet2, csig2 = calp2 * cbet2
            M.norm(&ssig1, &csig1)
            M.norm(&ssig2, &csig2)
            let k2 = calp0 * calp0 * ep2
            let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let a4 = equatorialRadius * equatorialRadius * calp0 * salp0 * e2
            let c4a = c4(eps)
            s12 = a4 * (M.cosOddSeries(ssig2, csig2, c4a) - M.cosOddSeries(ssig1, csig1, c4a))
        }
        // Otherwise σ1, σ2 are indeterminate (along the equator or a meridian) and the I4 term vanishes.
        var somg12 = somg12, comg12 = comg12
        if !meridian && somg12 == 2 {
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        }
        let alp12: Double
        if !meridian && comg12 > -0.7071 && sbet2 - sbet1 < 1.75 {
            // α2 − α1 is the spherical excess E of the quadrilateral on the auxiliary sphere:
            // tan(E/2) = tan(ω12/2) (tan(β1/2) + tan(β2/2)) / (1 + tan(β1/2) tan(β2/2)),
            // accurate for short edges where α2 − α1 would cancel.
            let domg12 = 1 + comg12, dbet1 = 1 + cbet1, dbet2 = 1 + cbet2
            alp12 = 2 * atan2(somg12 * (sbet1 * dbet2 + sbet2 * dbet1),
                              domg12 * (sbet1 * sbet2 + dbet1 * dbet2))
        } else {
            var salp12 = salp2 * calp1 - calp2 * salp1
            var calp12 = calp2 * calp1 + salp2 * salp1
            // α1 = ±180°, α2 = 0: make the difference −180° deliberately rather than by the sign of a zero.
            if salp12 == 0 && calp12 < 0 {
                salp12 = M.tiny * calp1
                calp12 = -1
            }
            alp12 = atan2(salp12, calp12)
        }
        return s12 + c2 * alp12
    }

    /// C4 as polynomials in ε: element j (0…5) holds, in lane l (0…5), the coefficient of ε^j in C4_l.
    static func c4Table(_ n: Double) -> [SIMD8<Double>] {
        var t = [SIMD8<Double>](repeating: SIMD8<Double>(repeating: 0), count: 6)
        t[0][0] = (((((0.00222000222000222) * n + 0.004617604617604618) * n + 0.012698412698412698) * n + 0.0761904761904762) * n + -0.26666666666666666) * n + 0.6666666666666666
        t[1][0] = ((((0.004262404262404262) * n + 0.04155844155844156) * n + -0.3047619047619048) * n + 0.45714285714285713) * n + -0.2
        t[2][0] = (((-0.23656343656343656) * n + 0.313997113997114) * n + -0.10158730158730159) * n + -0.01904761904761905
        t[3][0] = ((-0.004972804972804973) * n + -0.1062049062049062) * n + 0.03492063492063492
        t[4][0] = (0.024153624153624154) * n + 0.003463203463203463
        t[5][0] = 0.00646020646020646
        t[1][1] = ((((-0.0004736004736004736) * n + -0.004617604617604618) * n + 0.033862433862433865) * n + -0.050793650793650794) * n + 0.022222222222222223
        t[2][1] = (((0.044044844044844045) * n + -0.0861952861952862) * n + 0.06772486772486773) * n + -0.01904761904761905
        t[3][1] = ((0.04286084286084286) * n + 0.007696007696007696) * n + -0.009523809523809525
        t[4][1] = (-0.021785621785621784) * n + 0.003463203463203463
        t[5][1] = 0.000111000111000111
        t[2][2] = (((-0.006393606393606394) * n + 0.01847041847041847) * n + -0.020317460317460317) * n + 0.007619047619047619
        t[3][2] = ((-0.03750915750915751) * n + 0.022164502164502164) * n + -0.005079365079365079
        t[4][2] = (0.00824064824064824) * n + -0.004155844155844156
        t[5][2] = 0.0007459207459207459
        t[3][3] = ((0.011366411366411366) * n + -0.010554524840239126) * n + 0.0036281179138321997
        t[4][3] = (0.009742638314066885) * n + -0.001978973407544836
        t[5][3] = -0.0021565735851450138
        t[4][4] = (-0.006314672981339648) * n + 0.0020522687189353855
        t[5][4] = -0.0009472009472009472
        t[5][5] = 0.0012916376552740189
        return t
    }
}
