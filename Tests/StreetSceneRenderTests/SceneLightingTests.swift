import Foundation
import StreetSceneRender
import XCTest

final class SceneLightingTests: XCTestCase {
    func testSolarPositionMatchesNRELsWorkedExample() {
        // NREL's Solar Position Algorithm report (Reda & Andreas, NREL/TP-560-34302), its worked
        // example: Golden, Colorado (39.742476° N, 105.1786° W), 17 October 2003 12:30:30 at UTC−7.
        // It gives topocentric zenith 50.11162° (elevation 39.888378° with refraction) and azimuth
        // 194.340241°; pvlib's tests use the same values.
        let date = Date(timeIntervalSince1970: 1_066_419_030)  // 2003-10-17T19:30:30Z
        let sun = SceneLighting.solarPosition(date: date, latitude: 39.742476, longitude: -105.1786)
        XCTAssertEqual(sun.elevation, 39.888378, accuracy: 1)
        XCTAssertEqual(sun.azimuth, 194.340241, accuracy: 1)
        // NOAA's formulas are in fact far closer than a degree here.
        XCTAssertEqual(sun.elevation, 39.888378, accuracy: 0.05)
        XCTAssertEqual(sun.azimuth, 194.340241, accuracy: 0.05)
    }

    func testSolarPositionThroughTheDay() throws {
        // Paris (48.85° N, 2.35° E) on 20 June 2024: about 64.6° up at solar noon
        // (90° − 48.85° + 23.44°), near 11:51 UTC, due south; far below the horizon at midnight.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(TimeZone(identifier: "UTC"))
        func at(_ hour: Int, _ minute: Int) throws -> Date {
            try XCTUnwrap(calendar.date(from: DateComponents(year: 2024, month: 6, day: 20, hour: hour, minute: minute)))
        }
        let noon = SceneLighting.solarPosition(date: try at(11, 51), latitude: 48.85, longitude: 2.35)
        XCTAssertEqual(noon.elevation, 64.6, accuracy: 0.3)
        XCTAssertEqual(noon.azimuth, 180, accuracy: 2)
        let morning = SceneLighting.solarPosition(date: try at(7, 0), latitude: 48.85, longitude: 2.35)
        XCTAssertGreaterThan(morning.azimuth, 60)
        XCTAssertLessThan(morning.azimuth, 120, "the morning sun is in the east")
        let midnight = SceneLighting.solarPosition(date: try at(23, 51), latitude: 48.85, longitude: 2.35)
        XCTAssertLessThan(midnight.elevation, -15)
        XCTAssertLessThan(min(midnight.azimuth, 360 - midnight.azimuth), 3, "due north at solar midnight")
        XCTAssertTrue((0..<360).contains(midnight.azimuth))
    }

    func testNightIsDimAndDayIsBright() throws {
        let night = SceneLighting.forSun(azimuth: 0, elevation: -20)
        let day = SceneLighting.forSun(azimuth: 180, elevation: 50)
        XCTAssertEqual(night.sunIntensity, 0)
        XCTAssertLessThan(night.skyZenithColor.max(), 0.1, "a dark sky at night")
        XCTAssertLessThan(night.ambientIntensity + night.skyLightIntensity, 0.2)
        XCTAssertEqual(day.sunIntensity, 1, accuracy: 0.001)
        XCTAssertGreaterThan(day.skyZenithColor.z, 0.7, "a blue sky by day")
        let sunset = SceneLighting.forSun(azimuth: 270, elevation: 1)
        XCTAssertGreaterThan(sunset.skyHorizonColor.x, sunset.skyHorizonColor.z, "a reddened horizon at sunset")
        // The date-based lighting at Paris midnight is the night one.
        let midnight = SceneLighting.at(date: Date(timeIntervalSince1970: 1_718_927_460), latitude: 48.85, longitude: 2.35)
        XCTAssertEqual(midnight.sunIntensity, 0)
        // The direction helper: azimuth 90 is east, elevation 90 straight up.
        let east = SceneLighting.sunDirection(azimuth: 90, elevation: 0)
        XCTAssertEqual(east.x, 1, accuracy: 1e-12)
        XCTAssertEqual(east.y, 0, accuracy: 1e-12)
        XCTAssertEqual(SceneLighting.sunDirection(azimuth: 0, elevation: 90).z, 1, accuracy: 1e-12)
        // A scene at night renders darker than by day.
        let rasterizer = try SceneRasterizer()
        let camera = SceneCamera(x: 0, y: 0, z: 1.5, heading: 0, width: 64, height: 48)
        let dayImage = try rasterizer.render(TestMeshes.redBox(), labelAtlas: nil, camera: camera, lighting: day)
        let nightImage = try rasterizer.render(TestMeshes.redBox(), labelAtlas: nil, camera: camera, lighting: night)
        func brightness(_ image: SceneImage) -> Int {   // red, green and blue; alpha is always 255
            image.pixels.enumerated().reduce(0) { $1.offset % 4 == 3 ? $0 : $0 + Int($1.element) }
        }
        XCTAssertLessThan(brightness(nightImage) * 3, brightness(dayImage))
    }
}
