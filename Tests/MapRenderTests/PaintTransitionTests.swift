import Foundation
import MapFormats
import MapGeometry
@testable import MapRender
import MapStyle
import XCTest

/// Style transitions (`PaintTransitions`): a paint property changed in a style on screen blends
/// from the value shown to the new one over its transition, as MapLibre's `Transitioning` does.
final class PaintTransitionTests: XCTestCase {
    private let center = CLLocationCoordinate2D(latitude: 0, longitude: 0)

    /// A style of one background layer of `color`, with the extra JSON members `extra` in its
    /// paint and `root` at its top level.
    private func style(_ color: String, paint extra: String = "", root: String = "") throws -> Style {
        try Style(text: """
        {"version": 8, \(root) "sources": {"tiles": {"type": "vector", "tiles": ["none://{z}/{x}/{y}"]}},
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "\(color)" \(extra)}},
          {"id": "water", "type": "fill", "source": "tiles", "source-layer": "water",
           "paint": {"fill-color": ["match", ["get", "kind"], "sea", "#00ff00", "#00ffff"]}}
         ]}
        """)
    }

    /// The background's red, green and blue drawn by a renderer of `new` blending `transitions`
    /// at `time`.
    private func drawn(_ new: Style, _ transitions: PaintTransitions, at time: TimeInterval) throws -> [Double] {
        let renderer = try StyleRenderer(style: new, loader: StyleResourceLoader(tile: { _, _ in nil }), transitions: transitions)
        renderer.transitionTime = time
        let pixel = try renderer.render(center: center, zoom: 0, width: 16, height: 16).pixel(x: 8, y: 8)
        return [Double(pixel.red), Double(pixel.green), Double(pixel.blue)]
    }

    private func assertRGB(_ actual: [Double], _ expected: [Double], accuracy: Double = 1.5, _ message: String = "",
                           file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.count, 3, file: file, line: line)
        for (a, e) in zip(actual, expected) { XCTAssertEqual(a, e, accuracy: accuracy, "\(actual) vs \(expected) \(message)", file: file, line: line) }
    }

    /// MapLibre's transition easing, cubic-bezier(0, 0, 0.25, 1), at `x`.
    private func eased(_ x: Double) -> Double { UnitBezier(0, 0, 0.25, 1).solve(x, epsilon: 0.001) }

    func testAChangedColourBlendsOverTheStyleTransitionWithItsDelay() throws {
        let old = try style("#ff0000"), new = try style("#0000ff", root: #""transition": {"duration": 1000, "delay": 500},"#)
        var transitions = PaintTransitions()
        transitions.styleChanged(from: old, to: new, at: 10)
        XCTAssertTrue(transitions.isRunning(at: 11.4))
        XCTAssertFalse(transitions.isRunning(at: 11.5))
        assertRGB(try drawn(new, transitions, at: 10), [255, 0, 0], "before the delay ends the old colour shows")
        assertRGB(try drawn(new, transitions, at: 10.5), [255, 0, 0])
        let t = eased(0.5)
        XCTAssertGreaterThan(t, 0.6, "the curve is ahead of linear half-way")
        assertRGB(try drawn(new, transitions, at: 11), [255 * (1 - t), 0, 255 * t], "half-way, eased")
        assertRGB(try drawn(new, transitions, at: 11.5), [0, 0, 255])
        assertRGB(try drawn(new, transitions, at: .infinity), [0, 0, 255])
        // Without a time set, a renderer shows the style as it is.
        let plain = try StyleRenderer(style: new, loader: StyleResourceLoader(tile: { _, _ in nil }), transitions: transitions)
        let pixel = try plain.render(center: center, zoom: 0, width: 16, height: 16).pixel(x: 8, y: 8)
        XCTAssertEqual([pixel.red, pixel.green, pixel.blue], [0, 0, 255])
    }

    func testTheDefaultTransitionIsThreeHundredMillisecondsAndAPropertyTransitionOverridesIt() throws {
        let old = try style("#000000"), new = try style("#ffffff")
        var transitions = PaintTransitions()
        transitions.styleChanged(from: old, to: new, at: 0)
        let half = 255 * eased(0.5)
        assertRGB(try drawn(new, transitions, at: 0.15), [half, half, half])
        XCTAssertFalse(transitions.isRunning(at: 0.3))
        let slow = try style("#ffffff", paint: #", "background-color-transition": {"duration": 2000}"#)
        transitions = PaintTransitions()
        transitions.styleChanged(from: old, to: slow, at: 0)
        XCTAssertTrue(transitions.isRunning(at: 1.9))
        let value = 255 * eased(0.25)
        assertRGB(try drawn(slow, transitions, at: 0.5), [value, value, value])
        // A zero transition shows the change at once: nothing runs.
        let instant = try style("#ffffff", root: #""transition": {"duration": 0, "delay": 0},"#)
        transitions = PaintTransitions()
        transitions.styleChanged(from: old, to: instant, at: 0)
        XCTAssertTrue(transitions.isEmpty)
    }

    func testAChangeDuringATransitionStartsFromTheValueShown() throws {
        let red = try style("#ff0000"), blue = try style("#0000ff"), green = try style("#00ff00")
        var transitions = PaintTransitions()
        transitions.styleChanged(from: red, to: blue, at: 0)
        // Half-way (by time) to blue, the colour turns to green.
        transitions.styleChanged(from: blue, to: green, at: 0.15)
        let shown = eased(0.5)
        assertRGB(try drawn(green, transitions, at: 0.15), [255 * (1 - shown), 0, 255 * shown], "no jump at the change")
        // Later, the first transition has ended (blue) and the second blends blue into green.
        let second = eased(0.5)
        assertRGB(try drawn(green, transitions, at: 0.3), [0, 255 * second, 255 * (1 - second)])
        assertRGB(try drawn(green, transitions, at: 0.45), [0, 255, 0])
    }

    /// The layer/property pairs in transition.
    private func blending(_ transitions: PaintTransitions) -> Set<String> {
        Set(transitions.running.keys.map { "\($0.layer)/\($0.property)" })
    }

    func testUnchangedNewAndDataDrivenPropertiesDoNotBlend() throws {
        let old = try style("#ff0000"), new = try style("#0000ff")
        var transitions = PaintTransitions()
        transitions.styleChanged(from: old, to: new, at: 0)
        XCTAssertEqual(blending(transitions), ["bg/background-color"])
        transitions.styleChanged(from: new, to: new, at: 0.1)
        XCTAssertEqual(blending(transitions), ["bg/background-color"], "an unchanged property goes on blending")
        transitions.styleChanged(from: new, to: new, at: 0.4)
        XCTAssertTrue(transitions.isEmpty, "and is forgotten once it has ended")

        let before = try Style(text: """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [{"id": "c", "type": "circle", "source": "s", "paint": {"circle-color": "#000000"}},
                    {"id": "gone", "type": "background", "paint": {"background-color": "#000000"}},
                    {"id": "retyped", "type": "background", "paint": {"background-opacity": 1}}]}
        """)
        let after = try Style(text: """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [{"id": "c", "type": "circle", "source": "s", "layout": {"visibility": "visible"},
                     "paint": {"circle-color": ["get", "colour"], "circle-radius": 9, "circle-pitch-scale": "viewport"}},
                    {"id": "new", "type": "background", "paint": {"background-color": "#00ff00"}},
                    {"id": "retyped", "type": "fill", "source": "s", "paint": {"fill-opacity": 0.5}}]}
        """)
        transitions = PaintTransitions()
        transitions.styleChanged(from: before, to: after, at: 0)
        // circle-color became data-driven (shown at once), circle-pitch-scale cannot blend, the
        // layout changed, "new" has no prior and "retyped" is another layer now: only the radius,
        // changed from its default, blends.
        XCTAssertEqual(blending(transitions), ["c/circle-radius"])
        // A property written back to its default blends to it, as any other change.
        transitions = PaintTransitions()
        let unset = try Style(text: #"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background"}]}"#)
        transitions.styleChanged(from: old, to: unset, at: 0)
        XCTAssertEqual(blending(transitions), ["bg/background-color"])
        assertRGB(try drawn(unset, transitions, at: 0), [255, 0, 0])
        assertRGB(try drawn(unset, transitions, at: 0.3), [0, 0, 0])
    }
}
