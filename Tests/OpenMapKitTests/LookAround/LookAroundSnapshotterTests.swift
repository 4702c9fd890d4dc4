import Foundation
import MapRender
@testable import OpenMapKit
import XCTest

/// Look Around pictures from OpenStreetMap (issue 24, the snapshotter and the preview): a street of
/// the Monaco sample drawn from where a person stands, different from two headings, the same twice,
/// signed with OpenStreetMap's credit and the rendered mark; bad options are typed errors.
final class LookAroundSnapshotterTests: XCTestCase {
    /// A street near the Casino of Monte Carlo (the scene request's own test point).
    static let street = CLLocationCoordinate2D(latitude: 43.73895, longitude: 7.42630)
    /// Noon on a fixed day, so that the sun is the same in every run.
    static let noon = Date(timeIntervalSince1970: 1_781_870_400)

    private func scene() throws -> MKLookAroundScene {
        let request = MKLookAroundSceneRequest(coordinate: Self.street)
        request.dataSource = try MonacoBundle.dataSource()
        return try XCTUnwrap(try request.sceneHere())
    }

    private func snapshot(_ scene: MKLookAroundScene, _ configure: (MKLookAroundSnapshotter.Options) -> Void = { _ in }) throws -> UIImage {
        let options = MKLookAroundSnapshotter.Options()
        options.size = CGSize(width: 320, height: 240)
        options.date = Self.noon
        configure(options)
        let snapshotter = MKLookAroundSnapshotter(scene: scene, options: options)
        snapshotter.dataSource = try MonacoBundle.dataSource()
        return try snapshotter.snapshotHere().image
    }

    private func rgba(_ image: UIImage) -> [UInt8] { image.canvas.rgbaPixels() }

    /// The share of pixels whose colours differ by more than a few levels.
    private func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 1 }
        var differing = 0
        for i in stride(from: 0, to: a.count, by: 4) where (0..<3).contains(where: { abs(Int(a[i + $0]) - Int(b[i + $0])) > 12 }) { differing += 1 }
        return Double(differing) / Double(a.count / 4)
    }

    func testAStreetIsDrawnAndTwoHeadingsDiffer() throws {
        let scene = try scene()
        let ahead = try snapshot(scene) { $0.heading = scene.heading }
        let behind = try snapshot(scene) { $0.heading = (scene.heading + 180).truncatingRemainder(dividingBy: 360) }
        XCTAssertEqual(ahead.pixelSize.width, 320)
        XCTAssertEqual(ahead.pixelSize.height, 240)
        MonacoBundle.save(ahead, "lookaround-ahead")
        MonacoBundle.save(behind, "lookaround-behind")
        XCTAssertGreaterThan(difference(rgba(ahead), rgba(behind)), 0.2, "turning around shows another view")
        // Not one flat colour: a street has sky, walls and road.
        let pixels = rgba(ahead)
        var colours = Set<Int>()
        for i in stride(from: 0, to: pixels.count, by: 4 * 37) {
            let r = Int(pixels[i]) / 16, g = Int(pixels[i + 1]) / 16, b = Int(pixels[i + 2]) / 16
            colours.insert(r << 8 | g << 4 | b)
        }
        XCTAssertGreaterThan(colours.count, 12)
        // Looking up shows the sky: the top row is bluer than it is red.
        let up = try snapshot(scene) { $0.pitch = 50 }
        let top = up.canvas.pixel(x: 160, y: 2)
        XCTAssertGreaterThan(Int(top.blue), Int(top.red), "the sky at the top: \(top)")
    }

    func testTheSamePictureTwiceAndTheCreditOnIt() throws {
        let scene = try scene()
        let first = try snapshot(scene), second = try snapshot(scene)
        XCTAssertEqual(first.pngData(), second.pngData(), "drawing is deterministic")
        // The credit (bottom right) and the rendered mark (bottom left) sit on light label boxes.
        func lightShare(x: ClosedRange<Int>, y: ClosedRange<Int>) -> Double {
            var light = 0, all = 0
            for py in y { for px in x { let p = first.canvas.pixel(x: px, y: py); all += 1; if p.red > 150, p.green > 150, p.blue > 150 { light += 1 } } }
            return Double(light) / Double(all)
        }
        XCTAssertGreaterThan(lightShare(x: 200...310, y: 222...232), 0.5, "© OpenStreetMap contributors")
        XCTAssertGreaterThan(lightShare(x: 10...100, y: 222...232), 0.5, "Rendered from OpenStreetMap")
    }

    func testDarkAppearanceIsNight() throws {
        let scene = try scene()
        let day = rgba(try snapshot(scene)), night = rgba(try snapshot(scene) { $0.traitCollection = UITraitCollection(userInterfaceStyle: .dark) })
        func brightness(_ p: [UInt8]) -> Double {
            var sum = 0.0
            for i in stride(from: 0, to: p.count, by: 4) { sum += Double(p[i]) + Double(p[i + 1]) + Double(p[i + 2]) }
            return sum / Double(max(p.count, 1))
        }
        XCTAssertLessThan(brightness(night), brightness(day) * 0.6)
    }

    func testBadOptionsAreTypedErrors() throws {
        let scene = try scene()
        let cases: [(String, (MKLookAroundSnapshotter.Options) -> Void)] = [
            ("field of view", { $0.fieldOfView = 170 }), ("field of view", { $0.fieldOfView = .nan }),
            ("heading", { $0.heading = 400 }), ("heading", { $0.heading = -1 }), ("pitch", { $0.pitch = 95 }),
            ("size", { $0.size = CGSize(width: 0, height: 100) }), ("size", { $0.size = CGSize(width: 100_000, height: 100) }),
            ("size", { $0.size = CGSize(width: CGFloat.infinity, height: 100) }),
        ]
        for (word, configure) in cases {
            do {
                _ = try snapshot(scene, configure)
                XCTFail("\(word) out of range is refused")
            } catch let error as MKError {
                XCTAssertTrue(error.reason?.contains(word) == true, "\(word): \(error)")
            }
        }
    }

    func testTheAsyncFormAndCancellation() async throws {
        let scene = try scene()
        let options = MKLookAroundSnapshotter.Options()
        options.size = CGSize(width: 160, height: 120)
        let snapshotter = MKLookAroundSnapshotter(scene: scene, options: options)
        snapshotter.dataSource = try MonacoBundle.dataSource()
        let snapshot = try await snapshotter.snapshot
        XCTAssertEqual(snapshot.image.pixelSize.width, 160)
        let cancelled = MKLookAroundSnapshotter(scene: scene, options: options)
        cancelled.dataSource = try MonacoBundle.dataSource()
        cancelled.cancel()
        do {
            _ = try await cancelled.snapshot
            XCTFail("a cancelled snapshotter does not answer")
        } catch is CancellationError {}
    }

    func testPreviewDrawsItsSceneAndNothingWithout() throws {
        let scene = try scene()
        var preview = LookAroundPreview(initialScene: scene)
        preview.dataSource = try MonacoBundle.dataSource()
        let image = try XCTUnwrap(preview.image(size: CGSize(width: 300, height: 128)))
        XCTAssertEqual(image.pixelSize.height, 128)
        XCTAssertTrue(preview.image(size: CGSize(width: 300, height: 128)) === image, "kept for the next frame")
        XCTAssertNil(LookAroundPreview(initialScene: nil).image(size: CGSize(width: 300, height: 128)))
        // A binding: the preview follows the scene it holds.
        var held: MKLookAroundScene? = nil
        let bound = LookAroundPreview(scene: Binding(get: { held }, set: { held = $0 }))
        XCTAssertNil(bound.scene)
        held = scene
        XCTAssertTrue(bound.scene === scene)
    }

    func testBusinessFilterFollowsMapKitCategories() {
        XCTAssertTrue(LookAroundRendering.shows("shop=bakery", MKPointOfInterestFilter(including: [.bakery])))
        XCTAssertFalse(LookAroundRendering.shows("shop=bakery", MKPointOfInterestFilter(including: [.cafe])))
        XCTAssertFalse(LookAroundRendering.shows("amenity=cafe", MKPointOfInterestFilter(excluding: [.cafe])))
        XCTAssertTrue(LookAroundRendering.shows("office=lawyer", MKPointOfInterestFilter(excluding: [.cafe])))
        XCTAssertFalse(LookAroundRendering.shows("office=lawyer", MKPointOfInterestFilter(including: [.cafe])))
    }
}
