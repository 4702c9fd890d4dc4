// Geodesics on an ellipsoid of revolution after C. F. F. Karney, "Algorithms for geodesics",
// J. Geodesy 87, 43–55 (2013). Written from the paper; the series coefficients were derived afresh
// (symbolic expansion of the integrands I1, I2, I3, I4 in the third flattening n and in ε, to order 6).
//
// Conventions used throughout:
//   β  reduced latitude, tan β = (1 − f) tan φ;          σ  arc length on the auxiliary sphere;
//   α0 azimuth where the geodesic crosses the equator;   ω  longitude on the auxiliary sphere;
//   k² = e′² cos² α0,  ε = (√(1 + k²) − 1)/(√(1 + k²) + 1).
// Angles that matter for accuracy are carried as (sine, cosine) pairs; conversions from and to
// degrees reduce the argument exactly to an octant first (see `GeodesicMath`).
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Geodesics on an ellipsoid of revolution (Karney 2013), direct and inverse.
///
/// The method's truncation error for WGS84 is about 15 nanometres (Karney 2013), everywhere,
/// including nearly antipodal points; results agree with GeographicLib 2.1 to about 1e-8 m in
/// distance and 1e-13° in angles. Inputs: latitudes beyond ±90° (and NaN) give NaN results;
/// longitudes and azimuths may be any finite value (they are reduced modulo 360°).
public struct Geodesic: Sendable {
    /// Equatorial radius in metres.
    public let equatorialRadius: Double
    /// Flattening.
    public let flattening: Double

    // Derived constants.
    let f1: Double          // 1 − f
    let e2: Double          // e²  = f(2 − f)
    let ep2: Double         // e′² = e²/(1 − f)²
    let n: Double           // third flattening f/(2 − f)
    let b: Double           // polar semi-axis
    let etol2: Double       // threshold below which the short-line start is final
    let a3x: SIMD8<Double>  // A3 as a polynomial in ε (coefficients of ε^0…ε^5)
    // C3 as polynomials in ε: c3xj holds in lane l the coefficient of ε^j in C3_l (l = 1…5).
    let c3x1: SIMD8<Double>, c3x2: SIMD8<Double>, c3x3: SIMD8<Double>, c3x4: SIMD8<Double>, c3x5: SIMD8<Double>
    // For areas (GeodesicArea.swift): c² (authalic radius squared) and C4 as polynomials in ε.
    let c2: Double
    let c4x0: SIMD8<Double>, c4x1: SIMD8<Double>, c4x2: SIMD8<Double>
    let c4x3: SIMD8<Double>, c4x4: SIMD8<Double>, c4x5: SIMD8<Double>

    /// The WGS84 ellipsoid: a = 6 378 137 m, f = 1/298.257223563.
    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    /// An ellipsoid with equatorial radius `equatorialRadius` (metres, > 0) and flattening
    /// `flattening` (< 1; 0 is a sphere, negative a prolate ellipsoid). The series used are accurate
    /// for |f| ≲ 0.01 (about 15 nm for WGS84) and degrade gracefully up to |f| ≈ 0.1.
    public init(equatorialRadius: Double, flattening: Double) {
        self.equatorialRadius = equatorialRadius
        self.flattening = flattening
        let f = flattening
        f1 = 1 - f
        e2 = f * (2 - f)
        ep2 = e2 / (f1 * f1)
        n = f / (2 - f)
        b = equatorialRadius * f1
        etol2 = 0.1 * GeodesicMath.tol2 / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()
        a3x = Geodesic.a3Table(n)
        let c3 = Geodesic.c3Table(n)
        c3x1 = c3[1]; c3x2 = c3[2]; c3x3 = c3[3]; c3x4 = c3[4]; c3x5 = c3[5]
        c2 = Geodesic.authalicRadiusSquared(a: equatorialRadius, b: b, e2: e2)
        let c4 = Geodesic.c4Table(n)
        c4x0 = c4[0]; c4x1 = c4[1]; c4x2 = c4[2]; c4x3 = c4[3]; c4x4 = c4[4]; c4x5 = c4[5]
    }

    /// The shortest path between two points: its length and the azimuths at both ends.
    ///
    /// Latitudes must lie in −90…90 (otherwise, or for NaN input, every field is NaN); longitudes may be
    /// any finite value. For coincident points the distance is 0 and the azimuths follow the meridian
    /// (0° or 180°). Where the shortest path is not unique (antipodal points, or lat1 = −lat2 with the
    /// longitude difference near 180°) one of the shortest paths is returned.
    public func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> GeodesicInverse {
        let r = solveInverse(latitude1, longitude1, latitude2, longitude2, wantArea: false)
        return GeodesicInverse(distance: r.s12, azimuth1: r.azi1, azimuth2: r.azi2)
    }

    /// Points along the geodesic from `start` to `end`, both included, no two neighbours more than
    /// `maximumSpacing` metres apart. Longitudes are unwrapped (each within 180° of the previous one)
    /// so a path across the 180th meridian stays continuous when projected.
    ///
    /// - The first point is `start` exactly; the last has `end`'s latitude exactly and `end`'s longitude
    ///   shifted by a whole number of turns so that it continues the path (170° → 190°, not −170°).
    /// - The points are equally spaced along the geodesic: ⌈distance / maximumSpacing⌉ pieces.
    /// - `start == end` (or any zero-length geodesic) returns `[start, end]`.
    /// - At most ``maximumInterpolatedPoints`` points are returned; when `maximumSpacing` would need
    ///   more (including a spacing that is zero, negative or NaN) the spacing is widened to fit.
    ///   An infinite spacing returns `[start, end]`.
    /// - If either coordinate is not valid (NaN, latitude beyond ±90°), returns `[start, end]` unchanged.
    /// - A path over a pole changes longitude by 180° there; the two points either side of the pole
    ///   then differ by up to 180° (the unwrapping cannot make a true jump smaller).
    public func interpolate(from start: CLLocationCoordinate2D, to end: CLLocationCoordinate2D,
                            maximumSpacing: CLLocationDistance) -> [CLLocationCoordinate2D] {
        let r = solveInverse(start.latitude, start.longitude, end.latitude, end.longitude, wantArea: false)
        guard r.s12.isFinite, r.azi1.isFinite, r.s12 > 0 else { return [start, end] }
        let maxPieces = Geodesic.maximumInterpolatedPoints - 1
        var pieces: Int
        if maximumSpacing > 0 {   // false for NaN
            let wanted = (r.s12 / maximumSpacing).rounded(.up)
            pieces = wanted < Double(maxPieces) ? max(1, Int(wanted)) : maxPieces
        } else {
            pieces = maxPieces
        }
        if pieces == 1 {
            let lon = end.longitude - 360 * ((end.longitude - start.longitude) / 360).rounded()
            return [start, CLLocationCoordinate2D(latitude: end.latitude, longitude: lon)]
        }
        let line = GeodesicLine(geodesic: self, latitude: start.latitude, longitude: start.longitude,
                                azimuth: r.azi1)
        var points: [CLLocationCoordinate2D] = []
        points.reserveCapacity(pieces + 1)
        points.append(start)
        var previous = start.longitude
        for i in 1...pieces {
            var lat: Double, lon: Double
            if i == pieces {
                lat = end.latitude
                lon = end.longitude
            } else {
                let p = line.position(distance: r.s12 * Double(i) / Double(pieces), unrollLongitude: true)
                lat = p.latitude
                lon = p.longitude
            }
            // Unwrap: each longitude within 180° of the previous one.
            lon -= 360 * ((lon - previous) / 360).rounded()
            previous = lon
            points.append(CLLocationCoordinate2D(latitude: lat, longitude: lon))
        }
        return points
    }

    /// The most points ``interpolate(from:to:maximumSpacing:)`` returns (100 000).
    public static let maximumInterpolatedPoints = 100_000

    /// The point reached from a start point along an azimuth after a distance.
    ///
    /// The longitude returned is reduced to −180…180. Negative distances go backwards. A latitude
    /// beyond ±90° or any NaN input gives NaN.
    public func direct(latitude1: Double, longitude1: Double, azimuth1: Double, distance: Double) -> GeodesicDirect {
        let line = GeodesicLine(geodesic: self, latitude: latitude1, longitude: longitude1, azimuth: azimuth1)
        let p = line.position(distance: distance, unrollLongitude: false)
        return GeodesicDirect(latitude2: p.latitude, longitude2: p.longitude, azimuth2: p.azimuth)
    }
}

/// The answer to the inverse problem.
public struct GeodesicInverse: Sendable, Equatable {
    /// Length of the geodesic in metres.
    public var distance: Double
    /// Azimuth at the first point, degrees clockwise from north, −180 … 180.
    public var azimuth1: Double
    /// Forward azimuth at the second point, degrees clockwise from north, −180 … 180.
    public var azimuth2: Double
}

/// The answer to the direct problem.
public struct GeodesicDirect: Sendable, Equatable {
    /// Latitude of the end point in degrees, −90 … 90.
    public var latitude2: Double
    /// Longitude of the end point in degrees, −180 … 180.
    public var longitude2: Double
    /// Forward azimuth at the end point, degrees clockwise from north, −180 … 180.
    public var azimuth2: Double
}

extension CLLocation {
    /// The distance in metres to `location` along the shortest path on the WGS84 ellipsoid
    /// (Karney's geodesic), ignoring altitude. NaN if either coordinate is invalid.
    public func distance(from location: CLLocation) -> CLLocationDistance {
        Geodesic.wgs84.inverse(latitude1: coordinate.latitude, longitude1: coordinate.longitude,
                               latitude2: location.coordinate.latitude,
                               longitude2: location.coordinate.longitude).distance
    }
}

// MARK: - Angles in degrees, reduced exactly

/// Angle helpers for the geodesic code. The exact reductions (remainder, remquo) keep special
/// values exact: sincosd(90) is (1, 0), atan2d(0, −1) is 180, and so on.
enum GeodesicMath {
    static let degree = Double.pi / 180
    /// √(smallest normal): small enough to be negligible, large enough that its square is not subnormal.
    static let tiny = Double.leastNormalMagnitude.squareRoot()
    static let tol0 = Double.ulpOfOne
    static let tol1 = 200 * tol0
    static let tol2 = tol0.squareRoot()
    static let tolb = tol0 * tol2
    static let xthresh = 1000 * tol2
    static let newtonIterations = 20
    static let totalIterations = newtonIterations + Double.significandBitCount + 1 + 10

    /// Knuth's error-free sum: s = fl(u + v) and s + t = u + v exactly.
    @inline(__always) static func twoSum(_ u: Double, _ v: Double) -> (s: Double, t: Double) {
        let s = u + v
        let vv = s - u
        let uu = s - vv
        let t = (u - uu) + (v - vv)
        return (s, s == 0 ? s : t)   // keep the sign of an exact zero
    }

    /// x reduced to −180…180; ±180 keeps the sign of x.
    @inline(__always) static func angNormalize(_ x: Double) -> Double {
        let y = x.remainder(dividingBy: 360)
        return abs(y) == 180 ? (x.sign == .minus ? -180 : 180) : y
    }

    /// y − x reduced to −180…180, computed exactly as d + e (d rounded, e its error).
    @inline(__always) static func angDiff(_ x: Double, _ y: Double) -> (d: Double, e: Double) {
        let first = twoSum((-x).remainder(dividingBy: 360), y.remainder(dividingBy: 360))
        let second = twoSum(first.s.remainder(dividingBy: 360), first.t)
        var d = second.s
        let e = second.t
        if d == 0 || abs(d) == 180 {
            // The sign of a zero follows y − x; ±180 takes the sign that keeps d + e within ±180.
            d = Double(signOf: e == 0 ? y - x : -e, magnitudeOf: d)
        }
        return (d, e)
    }

    /// Rounds tiny values so that those within about 1e-17 of zero become zero; values smaller
    /// than 1/16 are rounded to a multiple of 2^-57. This makes nearly-equatorial latitudes and
    /// nearly-zero azimuths behave exactly like the exact values.
    @inline(__always) static func angRound(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        if y < z { y = z - (z - y) }
        return Double(signOf: x, magnitudeOf: y)
    }

    /// NaN for latitudes beyond ±90°.
    @inline(__always) static func latFix(_ x: Double) -> Double { abs(x) > 90 ? .nan : x }

    @inline(__always) static func quadrant(_ s: Double, _ c: Double, _ q: Int32, _ x: Double) -> (Double, Double) {
        var sinx: Double, cosx: Double
        switch q & 3 {
        case 0: sinx = s; cosx = c
        case 1: sinx = c; cosx = -s
        case 2: sinx = -s; cosx = -c
        default: sinx = -c; cosx = s
        }
        cosx += 0   // −0 → +0
        if sinx == 0 { sinx = Double(signOf: x, magnitudeOf: 0) }
        return (sinx, cosx)
    }

    /// Sine and cosine of x degrees, reduced exactly to −45…45 first.
    @inline(__always) static func sincosd(_ x: Double) -> (s: Double, c: Double) {
        var q: Int32 = 0
        let r = remquo(x, 90, &q) * degree
        return quadrant(sin(r), cos(r), q, x)
    }

    /// Sine and cosine of (x + t) degrees where t is a small correction to x.
    @inline(__always) static func sincosde(_ x: Double, _ t: Double) -> (s: Double, c: Double) {
        var q: Int32 = 0
        let r = angRound(remquo(x, 90, &q) + t) * degree
        return quadrant(sin(r), cos(r), q, x)
    }

    /// atan2 in degrees, exact for multiples of 45°, result in −180…180.
    @inline(__always) static func atan2d(_ y: Double, _ x: Double) -> Double {
        var x = x, y = y
        var q = 0
        if abs(y) > abs(x) { swap(&x, &y); q = 2 }
        if x.sign == .minus { x = -x; q += 1 }
        var ang = atan2(y, x) / degree
        switch q {
        case 1: ang = (y.sign == .minus ? -180 : 180) - ang
        case 2: ang = 90 - ang
        case 3: ang = -90 + ang
        default: break
        }
        return ang
    }

    /// √(x² + y²) for the bounded arguments used here (sines, cosines and their small multiples, never
    /// below `tiny` in both), where libm's overflow-proof `hypot` would only cost time.
    @inline(__always) static func hypot(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }

    /// Normalises (s, c) to a unit vector. Uses libm's `hypot`: its correct rounding keeps the
    /// reduced latitudes of nearly coincident points consistent (the azimuth of a line a fraction of a
    /// millimetre long depends on it).
    @inline(__always) static func norm(_ s: inout Double, _ c: inout Double) {
        let r = Foundation.hypot(s, c)
        s /= r
        c /= r
    }

    /// Clenshaw summation of Σ_{k=1}^{6} c[k] sin 2kx given sin x and cos x (lane 0 ignored).
    @inline(__always) static func sinSeries(_ sinx: Double, _ cosx: Double, _ c: SIMD8<Double>) -> Double {
        let ar = 2 * (cosx - sinx) * (cosx + sinx)   // 2 cos 2x
        // b_k = c_k + ar·b_{k+1} − b_{k+2}, from k = 6 down to 1; the sum is b_1 sin 2x.
        var b2 = 0.0, b1 = c[6]
        var t = ar * b1 + c[5]; b2 = b1; b1 = t
        t = ar * b1 - b2 + c[4]; b2 = b1; b1 = t
        t = ar * b1 - b2 + c[3]; b2 = b1; b1 = t
        t = ar * b1 - b2 + c[2]; b2 = b1; b1 = t
        b1 = ar * b1 - b2 + c[1]
        return 2 * sinx * cosx * b1
    }

    /// Clenshaw summation of Σ_{k=0}^{5} c[k] cos (2k+1)x given sin x and cos x.
    @inline(__always) static func cosOddSeries(_ sinx: Double, _ cosx: Double, _ c: SIMD8<Double>) -> Double {
        let ar = 2 * (cosx - sinx) * (cosx + sinx)
        var b1 = 0.0, b2 = 0.0
        for k in stride(from: 5, through: 0, by: -1) {
            let t = ar * b1 - b2 + c[k]
            b2 = b1
            b1 = t
        }
        return cosx * (b1 - b2)
    }
}

// MARK: - Series in ε (derived for this file; see the header)

extension Geodesic {
    /// A1 − 1, where I1(σ) = A1 (σ + Σ C1_l sin 2lσ) and (1 − ε) A1 = 1 + ε²/4 + ε⁴/64 + ε⁶/256.
    @inline(__always) static func a1m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (e2 / 256 + 1.0 / 64) + 0.25)
        return (t + eps) / (1 - eps)
    }

    /// A2 − 1, where I2(σ) = A2 (σ + Σ C2_l sin 2lσ) and A2/(1 − ε) = 1 + ε²/4 + 9ε⁴/64 + 25ε⁶/256.
    @inline(__always) static func a2m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (e2 * (25.0 / 256) + 9.0 / 64) + 0.25)
        return t * (1 - eps) - eps
    }

    /// A3(ε) for this ellipsoid.
    @inline(__always) func a3(_ eps: Double) -> Double {
        let t = a3x
        return ((((t[5] * eps + t[4]) * eps + t[3]) * eps + t[2]) * eps + t[1]) * eps + t[0]
    }

    /// C3_l(ε), l = 1…5 in lanes 1…5.
    @inline(__always) func c3(_ eps: Double) -> SIMD8<Double> {
        var v = c3x5
        v = v * eps + c3x4
        v = v * eps + c3x3
        v = v * eps + c3x2
        v = v * eps + c3x1
        return v * eps
    }

    /// c1Coefficients: lane l (1…6) holds the coefficient of sin 2lσ, as a polynomial in ε evaluated by Horner.
    @inline(__always) static func c1Coefficients(_ eps: Double) -> SIMD8<Double> {
        let x6 = SIMD8<Double>(0, 0, -0.00439453125, 0, 0.005859375, 0, -0.00341796875, 0)
        let x5 = SIMD8<Double>(0, -0.03125, 0, 0.01171875, 0, -0.00546875, 0, 0)
        let x4 = SIMD8<Double>(0, 0, 0.03125, 0, -0.009765625, 0, 0, 0)
        let x3 = SIMD8<Double>(0, 0.1875, 0, -0.020833333333333332, 0, 0, 0, 0)
        let x2 = SIMD8<Double>(0, 0, -0.0625, 0, 0, 0, 0, 0)
        let x1 = SIMD8<Double>(0, -0.5, 0, 0, 0, 0, 0, 0)
        var v = x6
        v = v * eps + x5
        v = v * eps + x4
        v = v * eps + x3
        v = v * eps + x2
        v = v * eps + x1
        return v * eps
    }

    /// c1pCoefficients: lane l (1…6) holds the coefficient of sin 2lσ, as a polynomial in ε evaluated by Horner.
    @inline(__always) static func c1pCoefficients(_ eps: Double) -> SIMD8<Double> {
        let x6 = SIMD8<Double>(0, 0, 0.325927734375, 0, -0.933984375, 0, 0.6198079427083333, 0)
        let x5 = SIMD8<Double>(0, 0.13346354166666666, 0, -0.5859375, 0, 0.45143229166666665, 0, 0)
        let x4 = SIMD8<Double>(0, 0, -0.3854166666666667, 0, 0.3509114583333333, 0, 0, 0)
        let x3 = SIMD8<Double>(0, -0.28125, 0, 0.3020833333333333, 0, 0, 0, 0)
        let x2 = SIMD8<Double>(0, 0, 0.3125, 0, 0, 0, 0, 0)
        let x1 = SIMD8<Double>(0, 0.5, 0, 0, 0, 0, 0, 0)
        var v = x6
        v = v * eps + x5
        v = v * eps + x4
        v = v * eps + x3
        v = v * eps + x2
        v = v * eps + x1
        return v * eps
    }

    /// c2Coefficients: lane l (1…6) holds the coefficient of sin 2lσ, as a polynomial in ε evaluated by Horner.
    @inline(__always) static func c2Coefficients(_ eps: Double) -> SIMD8<Double> {
        let x6 = SIMD8<Double>(0, 0, 0.01708984375, 0, 0.013671875, 0, 0.03759765625, 0)
        let x5 = SIMD8<Double>(0, 0.03125, 0, 0.01953125, 0, 0.04921875, 0, 0)
        let x4 = SIMD8<Double>(0, 0, 0.03125, 0, 0.068359375, 0, 0, 0)
        let x3 = SIMD8<Double>(0, 0.0625, 0, 0.10416666666666667, 0, 0, 0, 0)
        let x2 = SIMD8<Double>(0, 0, 0.1875, 0, 0, 0, 0, 0)
        let x1 = SIMD8<Double>(0, 0.5, 0, 0, 0, 0, 0, 0)
        var v = x6
        v = v * eps + x5
        v = v * eps + x4
        v = v * eps + x3
        v = v * eps + x2
        v = v * eps + x1
        return v * eps
    }

    /// A3 as a polynomial in ε: element j is the coefficient of ε^j (a polynomial in n).
    static func a3Table(_ n: Double) -> SIMD8<Double> {
        var t = SIMD8<Double>(repeating: 0)
        t[0] = 1.0
        t[1] = (0.5) * n + -0.5
        t[2] = ((0.375) * n + -0.125) * n + -0.25
        t[3] = ((-0.0625) * n + -0.1875) * n + -0.0625
        t[4] = (-0.03125) * n + -0.046875
        t[5] = -0.0234375
        return t
    }

    /// C3 as polynomials in ε: element j (1…5) holds, in lane l (1…5), the coefficient of ε^j in C3_l.
    static func c3Table(_ n: Double) -> [SIMD8<Double>] {
        var t = [SIMD8<Double>](repeating: SIMD8<Double>(repeating: 0), count: 6)
        t[1][1] = (-0.25) * n + 0.25
        t[2][1] = ((-0.125) * n) * n + 0.125
        t[3][1] = ((-0.015625) * n + 0.046875) * n + 0.046875
        t[4][1] = (0.015625) * n + 0.0390625
        t[5][1] = 0.0234375
        t[2][2] = ((0.03125) * n + -0.09375) * n + 0.0625
        t[3][2] = ((-0.046875) * n + -0.03125) * n + 0.046875
        t[4][2] = (0.0078125) * n + 0.0234375
        t[5][2] = 0.01953125
        t[3][3] = ((0.026041666666666668) * n + -0.046875) * n + 0.026041666666666668
        t[4][3] = (-0.026041666666666668) * n + 0.0234375
        t[5][3] = 0.013671875
        t[4][4] = (-0.02734375) * n + 0.013671875
        t[5][4] = 0.013671875
        t[5][5] = 0.008203125
        return t
    }
}

// MARK: - Geodesic line (the direct problem)

/// A geodesic starting at a point with a given azimuth; positions along it by distance.
/// Set up once (the series coefficients depend only on the start), then ``position(distance:unrollLongitude:)``
/// is cheap, so this is the way to compute many points on one geodesic.
public struct GeodesicLine: Sendable {
    let f: Double, f1: Double, b: Double, k2: Double
    /// Start latitude, longitude (as given) and azimuth (reduced to −180…180), degrees.
    public let latitude: Double, longitude: Double, azimuth: Double
    let salp0: Double, calp0: Double
    let ssig1: Double, csig1: Double, somg1: Double, comg1: Double
    let stau1: Double, ctau1: Double
    let a1m1: Double, b11: Double, a3c: Double, b31: Double
    let c1a: SIMD8<Double>, c1pa: SIMD8<Double>, c3a: SIMD8<Double>

    public init(geodesic g: Geodesic, latitude lat1: Double, longitude lon1: Double, azimuth azi1: Double) {
        typealias M = GeodesicMath
        f = g.flattening; f1 = g.f1; b = g.b
        latitude = M.latFix(lat1)
        longitude = lon1
        azimuth = M.angNormalize(azi1)
        let (salp1, calp1) = M.sincosd(M.angRound(azimuth))
        var (sbet1, cbet1) = M.sincosd(M.angRound(latitude))
        sbet1 *= f1
        M.norm(&sbet1, &cbet1)
        cbet1 = max(M.tiny, cbet1)
        // Clairaut: sin α0 = sin α1 cos β1.
        salp0 = salp1 * cbet1
        calp0 = M.hypot(calp1, salp1 * sbet1)
        // σ1 and ω1 from tan β1 = tan σ1 cos α1 and tan ω1 = sin α0 tan σ1.
        var s1 = sbet1, c1 = (sbet1 != 0 || calp1 != 0) ? cbet1 * calp1 : 1
        somg1 = salp0 * sbet1
        comg1 = c1
        M.norm(&s1, &c1)
        ssig1 = s1; csig1 = c1
        k2 = calp0 * calp0 * g.ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        a1m1 = Geodesic.a1m1(eps)
        c1a = Geodesic.c1Coefficients(eps)
        b11 = M.sinSeries(s1, c1, c1a)
        let s = sin(b11), c = cos(b11)
        stau1 = s1 * c + c1 * s     // τ1 = σ1 + B11
        ctau1 = c1 * c - s1 * s
        c1pa = Geodesic.c1pCoefficients(eps)
        a3c = -f * salp0 * g.a3(eps)
        c3a = g.c3(eps)
        b31 = M.sinSeries(s1, c1, c3a)
    }

    /// The point `distance` metres along the line (negative goes backwards) and the forward azimuth
    /// there. With `unrollLongitude` the longitude is the start longitude plus the signed longitude
    /// travelled (counting whole turns); otherwise it is reduced to −180…180.
    public func position(distance s12: Double, unrollLongitude: Bool = false)
        -> (latitude: Double, longitude: Double, azimuth: Double) {
        typealias M = GeodesicMath
        // Distance → τ12 → σ12 by the reverted series.
        let tau12 = s12 / (b * (1 + a1m1))
        let s = sin(tau12), c = cos(tau12)
        let b12 = -M.sinSeries(stau1 * c + ctau1 * s, ctau1 * c - stau1 * s, c1pa)
        var sig12 = tau12 - (b12 - b11)
        var ssig12 = sin(sig12), csig12 = cos(sig12)
        if abs(f) > 0.01 {
            // One Newton step on s(σ) for strongly flattened ellipsoids, where the reverted series is weaker.
            let ssig2 = ssig1 * csig12 + csig1 * ssig12, csig2 = csig1 * csig12 - ssig1 * ssig12
            let b12 = M.sinSeries(ssig2, csig2, c1a)
            let serr = (1 + a1m1) * (sig12 + (b12 - b11)) - s12 / b
            sig12 -= serr / (1 + k2 * ssig2 * ssig2).squareRoot()
            ssig12 = sin(sig12); csig12 = cos(sig12)
        }
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let sbet2 = calp0 * ssig2
        var cbet2 = M.hypot(salp0, calp0 * csig2)
        if cbet2 == 0 {   // the end point is a pole
            cbet2 = M.tiny
            csig2 = M.tiny
        }
        let salp2 = salp0, calp2 = calp0 * csig2
        let somg2 = salp0 * ssig2, comg2 = csig2
        let omg12: Double
        if unrollLongitude {
            // ω12 counting whole turns: σ12 − (σ2 − σ1) is a multiple of 2π, and so is the
            // correction to ω2 − ω1.
            let e = salp0.sign == .minus ? -1.0 : 1.0
            omg12 = e * (sig12 - (atan2(ssig2, csig2) - atan2(ssig1, csig1))
                         + (atan2(e * somg2, comg2) - atan2(e * somg1, comg1)))
        } else {
            // ω2 − ω1 as one angle (exact along meridians).
            omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        }
        let lam12 = omg12 + a3c * (sig12 + (M.sinSeries(ssig2, csig2, c3a) - b31))
        let lon12 = lam12 / M.degree
        let lon2 = unrollLongitude ? longitude + lon12
                                   : M.angNormalize(M.angNormalize(longitude) + M.angNormalize(lon12))
        return (M.atan2d(sbet2, f1 * cbet2), lon2, M.atan2d(salp2, calp2))
    }
}

// MARK: - The inverse problem

/// Everything the inverse solution produces; `area` is S12 (the area between the geodesic and the
/// equator, counter-clockwise positive) when it was asked for, otherwise NaN.
struct GeodesicInverseSolution {
    var s12: Double
    var azi1: Double
    var azi2: Double
    var area: Double
}

extension Geodesic {
    /// Distance (in units of b) and reduced length (units of b) for σ1…σ2 on a geodesic with parameter ε;
    /// also m0 = A1 − A2.
    @inline(__always)
    func lengths(eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
                 ssig2: Double, csig2: Double, dn2: Double) -> (s12b: Double, m12b: Double, m0: Double) {
        typealias M = GeodesicMath
        let a1m1 = Geodesic.a1m1(eps), a2m1 = Geodesic.a2m1(eps)
        let c1a = Geodesic.c1Coefficients(eps), c2a = Geodesic.c2Coefficients(eps)
        let m0 = a1m1 - a2m1
        let a1 = 1 + a1m1, a2 = 1 + a2m1
        let b1 = M.sinSeries(ssig2, csig2, c1a) - M.sinSeries(ssig1, csig1, c1a)
        let b2 = M.sinSeries(ssig2, csig2, c2a) - M.sinSeries(ssig1, csig1, c2a)
        let s12b = a1 * (sig12 + b1)
        // J(σ) = I1(σ) − I2(σ); m12 = b [dn2 cos σ1 sin σ2 − dn1 sin σ1 cos σ2 − cos σ1 cos σ2 (J2 − J1)].
        let j12 = m0 * sig12 + (a1 * b1 - a2 * b2)
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12b, m12b, m0)
    }

    /// Reduced length only (for the Newton derivative).
    @inline(__always)
    func reducedLength(eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
                       ssig2: Double, csig2: Double, dn2: Double) -> Double {
        typealias M = GeodesicMath
        let a1m1 = Geodesic.a1m1(eps), a2m1 = Geodesic.a2m1(eps)
        let a1 = 1 + a1m1, a2 = 1 + a2m1
        let cb = a1 * Geodesic.c1Coefficients(eps) - a2 * Geodesic.c2Coefficients(eps)
        let j12 = (a1m1 - a2m1) * sig12 + (M.sinSeries(ssig2, csig2, cb) - M.sinSeries(ssig1, csig1, cb))
        return dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
    }

    /// The positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 (the astroid problem of
    /// Karney's section 7), which gives the starting guess for nearly antipodal points.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x, q = y * y
        let r = (p + q - 1) / 6
        if q == 0 && r <= 0 { return 0 }
        // Substituting gives a cubic for u whose discriminant decides how to solve it.
        let s = p * q / 4
        let r2 = r * r, r3 = r * r2
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()   // no cancellation
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let ang = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(ang / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v   // u + v without cancellation
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }

    struct Start {
        var sig12: Double       // ≥ 0 when the short-line estimate is final
        var salp1: Double, calp1: Double
        var salp2: Double, calp2: Double
        var dnm: Double
    }

    /// The starting guess for α1 (and, for very short lines, the whole answer).
    func inverseStart(sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
                      lam12: Double, slam12: Double, clam12: Double) -> Start {
        typealias M = GeodesicMath
        let f = flattening
        var out = Start(sig12: -1, salp1: .nan, calp1: .nan, salp2: .nan, calp2: .nan, dnm: .nan)
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1     // sin(β2 − β1)
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1    // sin(β2 + β1)
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        if shortline {
            // Sphere of radius b·dnm, dnm from the mid reduced latitude.
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            out.dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * out.dnm)
            somg12 = sin(omg12); comg12 = cos(omg12)
        } else {
            somg12 = slam12; comg12 = clam12
        }
        // Spherical triangle with sides 90° − β1, 90° − β2 and angle ω12.
        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = M.hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortline && ssig12 < etol2 {
            // Really short: the spherical answer is final.
            var salp2 = cbet1 * somg12
            var calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            M.norm(&salp2, &calp2)
            out.salp2 = salp2; out.calp2 = calp2
            out.sig12 = atan2(ssig12, csig12)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * cbet1 * cbet1 {
            // Not nearly antipodal: the spherical guess is good enough to start Newton.
        } else {
            // Nearly antipodal. Scale so that the antipode is at the origin and the end of the cut
            // (where the geodesics along the equator stop being shortest) at x = −1, y = 0.
            let lam12x = atan2(-slam12, -clam12)   // λ12 − π
            var x: Double, y: Double, lamscale: Double
            if f >= 0 {
                let k2 = sbet1 * sbet1 * ep2
                let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
                lamscale = f * cbet1 * a3(eps) * .pi
                let betscale = lamscale * cbet1
                x = lam12x / lamscale
                y = sbet12a / betscale
            } else {
                let cbet12a = cbet2 * cbet1 - sbet2 * sbet1
                let bet12a = atan2(sbet12a, cbet12a)
                let r = lengths(eps: n, sig12: .pi + bet12a, ssig1: sbet1, csig1: -cbet1, dn1: dn1,
                                ssig2: sbet2, csig2: cbet2, dn2: dn2)
                x = -1 + r.m12b / (cbet1 * cbet2 * r.m0 * .pi)
                let betscale = x < -0.01 ? sbet12a / x : -f * cbet1 * cbet1 * .pi
                lamscale = betscale / cbet1
                y = lam12x / lamscale
            }
            if y > -M.tol1 && x > -1 - M.xthresh {
                // On (or within rounding of) the cut.
                if f >= 0 {
                    salp1 = min(1, -x)
                    calp1 = -(1 - salp1 * salp1).squareRoot()
                } else {
                    calp1 = max(x > -M.tol1 ? 0 : -1, x)
                    salp1 = (1 - calp1 * calp1).squareRoot()
                }
            } else {
                let k = Geodesic.astroid(x, y)
                let omg12a = lamscale * (f >= 0 ? -x * k / (1 + k) : -y * (1 + k) / k)
                somg12 = sin(omg12a); comg12 = -cos(omg12a)
                // Spherical estimate again, with ω12 from the astroid instead of λ12.
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        // Sanity check (written so that NaN passes through).
        if !(salp1 <= 0) {
            M.norm(&salp1, &calp1)
        } else {
            salp1 = 1; calp1 = 0
        }
        out.salp1 = salp1; out.calp1 = calp1
        return out
    }

    struct LambdaResult {
        var v: Double            // λ12(α1) − λ12 (target)
        var salp2: Double, calp2: Double
        var sig12: Double
        var ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
        var eps: Double
        var domg12: Double       // λ12 − ω12
        var dv: Double           // dλ12/dα1 (NaN unless asked for)
    }

    /// λ12 as a function of α1 (minus the target λ12), with its derivative for Newton's method.
    @inline(__always)
    func lambda12(sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
                  salp1: Double, calp1 calp1In: Double, slam120: Double, clam120: Double,
                  derivative: Bool) -> LambdaResult {
        typealias M = GeodesicMath
        var calp1 = calp1In
        if sbet1 == 0 && calp1 == 0 { calp1 = -M.tiny }   // break the degeneracy of the equatorial line
        let salp0 = salp1 * cbet1
        let calp0 = M.hypot(calp1, salp1 * sbet1)         // > 0
        var ssig1 = sbet1, csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
        M.norm(&ssig1, &csig1)
        // Clairaut for α2; cos α2 from a form that avoids cancellation.
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2 = cbet2 != cbet1 || abs(sbet2) != -sbet1
            ? ((calp1 * cbet1) * (calp1 * cbet1)
               + (cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2))).squareRoot() / cbet2
            : abs(calp1)
        var ssig2 = sbet2, csig2 = calp2 * cbet2
        let somg2 = salp0 * sbet2, comg2 = calp2 * cbet2
        M.norm(&ssig2, &csig2)
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // ω12 − λ12(target), as one angle difference (accurate when both are near π).
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        let k2 = calp0 * calp0 * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3a = c3(eps)
        let b312 = M.sinSeries(ssig2, csig2, c3a) - M.sinSeries(ssig1, csig1, c3a)
        let domg12 = -flattening * a3(eps) * salp0 * (sig12 + b312)
        var dv = Double.nan
        if derivative {
            if calp2 == 0 {
                dv = -2 * f1 * dn1 / sbet1
            } else {
                let m12b = reducedLength(eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                                         ssig2: ssig2, csig2: csig2, dn2: dn2)
                dv = m12b * f1 / (calp2 * cbet2)
            }
        }
        return LambdaResult(v: eta + domg12, salp2: salp2, calp2: calp2, sig12: sig12,
                            ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2,
                            eps: eps, domg12: domg12, dv: dv)
    }

    /// The inverse problem in full.
    func solveInverse(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double,
                      wantArea: Bool) -> GeodesicInverseSolution {
        typealias M = GeodesicMath
        let f = flattening, a = equatorialRadius
        // Longitude difference, exact as lon12 + lon12s, made non-negative.
        var (lon12, lon12s) = M.angDiff(longitude1, longitude2)
        var lonsign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonsign
        lon12s *= lonsign
        let lam12 = lon12 * M.degree
        let (slam12, clam12) = M.sincosde(lon12, lon12s)
        lon12s = (180 - lon12) - lon12s    // now the supplement 180° − lon12

        // Canonical configuration: |lat1| ≥ |lat2|, lat1 ≤ 0 (so lat1 ≤ lat2 ≤ −lat1), lon12 ≥ 0.
        var lat1 = M.angRound(M.latFix(latitude1)), lat2 = M.angRound(M.latFix(latitude2))
        let swapp: Double = abs(lat1) < abs(lat2) || lat2.isNaN ? -1 : 1
        if swapp < 0 {
            lonsign = -lonsign
            swap(&lat1, &lat2)
        }
        let latsign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latsign
        lat2 *= latsign

        var (sbet1, cbet1) = M.sincosd(lat1)
        sbet1 *= f1
        M.norm(&sbet1, &cbet1)
        cbet1 = max(M.tiny, cbet1)
        var (sbet2, cbet2) = M.sincosd(lat2)
        sbet2 *= f1
        M.norm(&sbet2, &cbet2)
        cbet2 = max(M.tiny, cbet2)
        // Make |β1| = |β2| exact when the latitudes are equal in size, so the symmetric cases stay symmetric.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = Double(signOf: sbet2, magnitudeOf: sbet1) }
        } else {
            if abs(sbet2) == -sbet1 { cbet2 = cbet1 }
        }
        let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot()
        let dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()

        var s12x = Double.nan
        var salp1 = Double.nan, calp1 = Double.nan, salp2 = Double.nan, calp2 = Double.nan
        // ω12 (as an angle, or as sine and cosine) for the area; somg12 = 2 marks "not yet known".
        var omg12 = 0.0, somg12 = 2.0, comg12 = 0.0

        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            // Along a meridian (or from a pole): α1 = λ12, α2 = 0, and ε = n.
            calp1 = clam12; salp1 = slam12
            calp2 = 1; salp2 = 0
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            var sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
            var r = lengths(eps: n, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                            ssig2: ssig2, csig2: csig2, dn2: dn2)
            // Shortest unless past the conjugate point (m12 < 0), which happens for nearly antipodal
            // points on opposite meridians; those go to the general solution.
            if sig12 < 1 || r.m12b >= 0 {
                if sig12 < 3 * M.tiny || (sig12 < M.tol0 && (r.s12b < 0 || r.m12b < 0)) {
                    sig12 = 0; r.s12b = 0; r.m12b = 0
                }
                s12x = r.s12b * b
            } else {
                meridian = false
            }
        }

        if !meridian && sbet1 == 0 && (f <= 0 || lon12s >= f * 180) {
            // Along the equator, which is shortest until lon12 reaches (1 − f)·180°.
            calp1 = 0; calp2 = 0; salp1 = 1; salp2 = 1
            s12x = a * lam12
            omg12 = lam12 / f1
        } else if !meridian {
            let start = inverseStart(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                     lam12: lam12, slam12: slam12, clam12: clam12)
            salp1 = start.salp1; calp1 = start.calp1
            if start.sig12 >= 0 {
                // Short line, solved on a sphere of radius b·dnm.
                salp2 = start.salp2; calp2 = start.calp2
                s12x = start.sig12 * b * start.dnm
                omg12 = lam12 / (f1 * start.dnm)
            } else {
                // Newton on α1 with a bracket [α1a, α1b] kept for bisection (λ12 increases with α1).
                var tripn = false, tripb = false
                var salp1a = M.tiny, calp1a = 1.0, salp1b = M.tiny, calp1b = -1.0
                var r = lambda12(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                 salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12, derivative: true)
                var numit = 0
                while true {
                    let v = r.v
                    if tripb || !(abs(v) >= (tripn ? 8 : 1) * M.tol0) || numit >= M.totalIterations - 1 { break }
                    if v > 0 && (numit > M.newtonIterations || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1; calp1b = calp1
                    } else if v < 0 && (numit > M.newtonIterations || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1; calp1a = calp1
                    }
                    var stepped = false
                    if numit < M.newtonIterations && r.dv > 0 {
                        let dalp1 = -v / r.dv
                        if abs(dalp1) < .pi {
                            let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                            let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                            if nsalp1 > 0 {
                                calp1 = calp1 * cdalp1 - salp1 * sdalp1
                                salp1 = nsalp1
                                M.norm(&salp1, &calp1)
                                // Once |v| is this small only rounding is left: accept a slightly larger error.
                                tripn = abs(v) <= 16 * M.tol0
                                stepped = true
                            }
                        }
                    }
                    if !stepped {
                        // Bisection (mean of the unit vectors, normalised = half angle).
                        salp1 = (salp1a + salp1b) / 2
                        calp1 = (calp1a + calp1b) / 2
                        M.norm(&salp1, &calp1)
                        tripn = false
                        tripb = abs(salp1a - salp1) + (calp1a - calp1) < M.tolb
                            || abs(salp1 - salp1b) + (calp1 - calp1b) < M.tolb
                    }
                    numit += 1
                    r = lambda12(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                 salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12,
                                 derivative: numit < M.newtonIterations)
                }
                salp2 = r.salp2; calp2 = r.calp2
                let l = lengths(eps: r.eps, sig12: r.sig12, ssig1: r.ssig1, csig1: r.csig1, dn1: dn1,
                                ssig2: r.ssig2, csig2: r.csig2, dn2: dn2)
                s12x = l.s12b * b
                if wantArea {
                    // ω12 = λ12 − (λ12 − ω12)
                    let sd = sin(r.domg12), cd = cos(r.domg12)
                    somg12 = slam12 * cd - clam12 * sd
                    comg12 = clam12 * cd + slam12 * sd
                }
            }
        }

        var area = Double.nan
        if wantArea {
            area = areaTerm(sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2,
                            salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2,
                            meridian: meridian, omg12: omg12, somg12: somg12, comg12: comg12)
            area *= swapp * lonsign * latsign
            area += 0
        }

        // Back from the canonical configuration.
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign; calp1 *= swapp * latsign
        salp2 *= swapp * lonsign; calp2 *= swapp * latsign
        return GeodesicInverseSolution(s12: 0 + s12x, azi1: M.atan2d(salp1, calp1), azi2: M.atan2d(salp2, calp2),
                                       area: area)
    }
}
