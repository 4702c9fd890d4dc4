import Foundation

/// The light a street scene is drawn in: the sun, the sky behind the scene (which also lights it from
/// above), and the distance fog that fades far geometry into the horizon.
///
/// Colours are sRGB components from 0 to 1, as a style would give them; the shaders light in linear
/// light and convert back. Intensities multiply linear light: a surface facing the sun with a white
/// albedo receives `sunIntensity` from it.
public struct SceneLighting: Sendable, Hashable {
    /// A unit vector from the scene toward the sun (x east, y north, z up); see
    /// ``sunDirection(azimuth:elevation:)``. Below the horizon (negative z) the sun lights nothing.
    public var sunDirection: SIMD3<Double>
    /// The sun's colour.
    public var sunColor: SIMD3<Float>
    /// How strongly the sun lights a surface facing it; 1 is a clear day.
    public var sunIntensity: Float
    /// Light reaching every surface alike, whatever it faces (what no other term accounts for).
    public var ambientColor: SIMD3<Float>
    /// How strong ``ambientColor`` is.
    public var ambientIntensity: Float
    /// How strongly the sky lights surfaces from above and the ground from below: a surface facing up
    /// gets the zenith colour, one facing down ``groundColor``, a wall half of each (the hemispheric term).
    public var skyLightIntensity: Float
    /// The sky straight up.
    public var skyZenithColor: SIMD3<Float>
    /// The sky at the horizon, below it (where no geometry is drawn), and the fog's colour.
    public var skyHorizonColor: SIMD3<Float>
    /// The colour of light bounced up from the ground.
    public var groundColor: SIMD3<Float>
    /// The distance in metres where fog starts.
    public var fogStart: Double
    /// The distance in metres where fog hides geometry entirely (keep it under the camera's `far`,
    /// so geometry fades out rather than being cut off).
    public var fogEnd: Double

    /// Lighting with every term given.
    public init(sunDirection: SIMD3<Double>, sunColor: SIMD3<Float>, sunIntensity: Float,
                ambientColor: SIMD3<Float>, ambientIntensity: Float, skyLightIntensity: Float,
                skyZenithColor: SIMD3<Float>, skyHorizonColor: SIMD3<Float>, groundColor: SIMD3<Float>,
                fogStart: Double, fogEnd: Double) {
        self.sunDirection = sunDirection
        self.sunColor = sunColor; self.sunIntensity = sunIntensity
        self.ambientColor = ambientColor; self.ambientIntensity = ambientIntensity
        self.skyLightIntensity = skyLightIntensity
        self.skyZenithColor = skyZenithColor; self.skyHorizonColor = skyHorizonColor
        self.groundColor = groundColor
        self.fogStart = fogStart; self.fogEnd = fogEnd
    }

    /// A clear afternoon: the sun 45° up in the south-southwest (azimuth 200°), a blue sky and
    /// light haze from 200 m, gone by 1.2 km.
    public static let daylight = SceneLighting(
        sunDirection: sunDirection(azimuth: 200, elevation: 45),
        sunColor: SIMD3(1.0, 0.96, 0.88), sunIntensity: 1.0,
        ambientColor: SIMD3(1, 1, 1), ambientIntensity: 0.12, skyLightIntensity: 0.45,
        skyZenithColor: SIMD3(0.30, 0.52, 0.85), skyHorizonColor: SIMD3(0.78, 0.85, 0.92),
        groundColor: SIMD3(0.45, 0.43, 0.40), fogStart: 200, fogEnd: 1200)

    /// The unit vector toward a sun `azimuth` degrees clockwise from north and `elevation` degrees
    /// above the horizon, in the scene's frame (x east, y north, z up).
    public static func sunDirection(azimuth: Double, elevation: Double) -> SIMD3<Double> {
        let a = azimuth * .pi / 180, e = elevation * .pi / 180
        return SIMD3(sin(a) * cos(e), cos(a) * cos(e), sin(e))
    }

    /// Where the sun stands at `date` seen from `latitude`, `longitude` (degrees, east positive):
    /// its azimuth in degrees clockwise from north (0 ..< 360) and its elevation in degrees above the
    /// horizon, with atmospheric refraction (negative at night).
    ///
    /// NOAA's low-precision formulas (the Global Monitoring Laboratory's solar calculator, after
    /// Meeus, *Astronomical Algorithms*): good to a fraction of a degree between 1800 and 2100,
    /// far more than shading needs.
    public static func solarPosition(date: Date, latitude: Double, longitude: Double) -> (azimuth: Double, elevation: Double) {
        let radians = Double.pi / 180
        func sine(_ degrees: Double) -> Double { sin(degrees * radians) }
        func cosine(_ degrees: Double) -> Double { cos(degrees * radians) }
        func normalized(_ degrees: Double) -> Double {
            let d = degrees.truncatingRemainder(dividingBy: 360)
            return d < 0 ? d + 360 : d
        }
        // Julian centuries since J2000.0 (UT; the minute of ΔT is far below this method's error).
        let julianDay = date.timeIntervalSince1970 / 86400 + 2_440_587.5
        let t = (julianDay - 2_451_545) / 36525
        let meanLongitude = normalized(280.46646 + t * (36000.76983 + t * 0.0003032))
        let meanAnomaly = 357.52911 + t * (35999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let centre = sine(meanAnomaly) * (1.914602 - t * (0.004817 + 0.000014 * t))
            + sine(2 * meanAnomaly) * (0.019993 - 0.000101 * t) + sine(3 * meanAnomaly) * 0.000289
        let omega = 125.04 - 1934.136 * t
        let apparentLongitude = meanLongitude + centre - 0.00569 - 0.00478 * sine(omega)
        let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let obliquity = meanObliquity + 0.00256 * cosine(omega)
        let declination = asin(sine(obliquity) * sine(apparentLongitude)) / radians
        // The equation of time, in minutes: how far the true sun runs ahead of the mean sun.
        let yy = pow(tan(obliquity / 2 * radians), 2)
        let equationOfTime = 4 / radians * (yy * sine(2 * meanLongitude) - 2 * eccentricity * sine(meanAnomaly)
            + 4 * eccentricity * yy * sine(meanAnomaly) * cosine(2 * meanLongitude)
            - 0.5 * yy * yy * sine(4 * meanLongitude) - 1.25 * eccentricity * eccentricity * sine(2 * meanAnomaly))
        let minutesOfDay = (julianDay + 0.5 - (julianDay + 0.5).rounded(.down)) * 1440
        let trueSolarTime = (minutesOfDay + equationOfTime + 4 * longitude).truncatingRemainder(dividingBy: 1440)
        let hourAngle = trueSolarTime / 4 - 180  // degrees, 0 at local solar noon, negative before
        let cosZenith = max(-1, min(1, sine(latitude) * sine(declination)
            + cosine(latitude) * cosine(declination) * cosine(hourAngle)))
        let trueElevation = 90 - acos(cosZenith) / radians
        // Azimuth clockwise from north; atan2 keeps it defined at the poles and at noon.
        let azimuth = normalized(atan2(-sine(hourAngle),
                                       tan(declination * radians) * cosine(latitude) - sine(latitude) * cosine(hourAngle)) / radians)
        return (azimuth, trueElevation + refraction(elevation: trueElevation))
    }

    /// NOAA's approximate atmospheric refraction, in degrees, for a true elevation in degrees.
    static func refraction(elevation e: Double) -> Double {
        guard e <= 85 else { return 0 }
        let t = tan(e * .pi / 180)
        let arcseconds: Double
        if e > 5 {
            arcseconds = 58.1 / t - 0.07 / (t * t * t) + 0.000086 / pow(t, 5)
        } else if e > -0.575 {
            arcseconds = 1735 + e * (-518.2 + e * (103.4 + e * (-12.79 + e * 0.711)))
        } else {
            arcseconds = -20.772 / t
        }
        return arcseconds / 3600
    }

    /// The light at `date` at `latitude`, `longitude`: the sun where ``solarPosition(date:latitude:longitude:)``
    /// puts it, warmer and weaker near the horizon, the sky reddening at sunset and darkening through
    /// twilight; at night (sun 6° or more below the horizon) a dim ambient light and a dark blue sky.
    public static func at(date: Date, latitude: Double, longitude: Double) -> SceneLighting {
        let sun = solarPosition(date: date, latitude: latitude, longitude: longitude)
        return forSun(azimuth: sun.azimuth, elevation: sun.elevation)
    }

    /// The light of a sun at `azimuth` and `elevation` (degrees), as ``at(date:latitude:longitude:)`` makes it.
    public static func forSun(azimuth: Double, elevation: Double) -> SceneLighting {
        func smoothstep(_ a: Double, _ b: Double, _ x: Double) -> Float {
            let t = max(0, min(1, (x - a) / (b - a)))
            return Float(t * t * (3 - 2 * t))
        }
        func mix(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ t: Float) -> SIMD3<Float> { a + (b - a) * t }
        let day = daylight
        let daylightAmount = smoothstep(-6, 6, elevation)      // civil twilight → day
        let highSun = smoothstep(0, 25, elevation)             // white sun and blue sky above 25°
        let sunset = smoothstep(-4, 2, elevation) * (1 - smoothstep(2, 12, elevation))
        let nightZenith = SIMD3<Float>(0.015, 0.025, 0.07), nightHorizon = SIMD3<Float>(0.04, 0.05, 0.10)
        var horizon = mix(nightHorizon, day.skyHorizonColor, daylightAmount)
        horizon = mix(horizon, SIMD3(0.95, 0.62, 0.42), sunset * 0.7)
        return SceneLighting(
            sunDirection: sunDirection(azimuth: azimuth, elevation: elevation),
            sunColor: mix(SIMD3(1.0, 0.55, 0.30), day.sunColor, highSun),
            sunIntensity: day.sunIntensity * smoothstep(-1, 10, elevation),
            ambientColor: mix(SIMD3(0.55, 0.6, 0.85), day.ambientColor, daylightAmount),
            ambientIntensity: 0.06 + (day.ambientIntensity - 0.06) * daylightAmount,
            skyLightIntensity: 0.08 + (day.skyLightIntensity - 0.08) * daylightAmount,
            skyZenithColor: mix(nightZenith, day.skyZenithColor, daylightAmount),
            skyHorizonColor: horizon,
            groundColor: mix(SIMD3(0.05, 0.05, 0.06), day.groundColor, daylightAmount),
            fogStart: day.fogStart, fogEnd: day.fogEnd)
    }
}
