import Foundation
import TestSupport
import XCTest

/// The WWDC23 trip planner (`trip-planner`, Examples/TripPlanner) driven as a person would, in its
/// window on a virtual X server: a search button puts markers on the map, a click on one selects
/// it, the drive time from the parking appears in the info panel, and the route is drawn.
final class TripPlannerTests: XCTestCase {
    var binary: URL { Bundle.main.bundleURL.appendingPathComponent("trip-planner") }

    func testSearchSelectAndDriveTimeInTheWindow() throws {
        guard ["/usr/bin/Xvfb", "/usr/bin/xdotool"].allSatisfy(FileManager.default.isExecutableFile(atPath:)) else {
            XCTFail("Xvfb and xdotool are needed (the Makefile's APT_BUILD installs them)")
            return
        }
        let bundle = try SampleBundle.monaco()
        let display = try VirtualDisplay(screen: "1024x768x24")
        defer { display.stop() }
        let screenshot = FileManager.default.temporaryDirectory.appendingPathComponent("trip-planner-\(UUID().uuidString).png")
        let app = try WindowProcess(binary: binary, display: display.name,
                                    arguments: [bundle.path, "--report", "--size", "900x600", "--screenshot", screenshot.path])
        defer { app.stop() }

        let first = try app.next("frame", timeout: 60)
        let buttons = try XCTUnwrap(first.buttons, "the panel's buttons are drawn")
        XCTAssertEqual(buttons.map(\.title), ["Playgrounds", "Beaches", "Monaco", "Larvotto"])
        let window = try display.xdotool(["search", "--sync", "--name", "Trip Planner"]).split(separator: "\n").first.map(String.init) ?? ""
        func click(_ x: Double, _ y: Double) throws {
            _ = try display.xdotool(["mousemove", "--window", window, String(Int(x)), String(Int(y)), "click", "1"])
        }

        // "Beaches": the search runs, its results become markers and the map frames them.
        let beaches = try XCTUnwrap(buttons.first { $0.title == "Beaches" })
        try click(beaches.x + beaches.width / 2, beaches.y + beaches.height / 2)
        XCTAssertEqual(try app.next("button").query, "Beaches")
        var markers: [ReportLine.Place] = []
        for _ in 0..<20 where markers.isEmpty {
            let camera = try app.next("camera", timeout: 30)
            markers = (camera.annotations ?? []).filter { $0.title.contains("Plage") || $0.title.contains("Crique") || $0.title.contains("Beach") }
        }
        let beach = try XCTUnwrap(markers.first, "beach markers are on the map")

        // A click on the marker's balloon selects it: the panel shows its name and the drive time.
        try click(try XCTUnwrap(beach.x), try XCTUnwrap(beach.y) - 25)
        let selected = try app.next("click", timeout: 30)
        XCTAssertEqual(selected.selected, beach.title)
        var info: String?
        var preview: ReportLine.Button?
        for _ in 0..<200 where info == nil {
            let frame = try app.next("frame", timeout: 30)
            info = frame.panel?.first { $0.contains("by car") }
            preview = preview ?? frame.preview
        }
        let line = try XCTUnwrap(info, "the drive time appears")
        XCTAssertTrue(line.hasPrefix(beach.title), line)
        XCTAssertNotNil(line.range(of: #"\d+ min"#, options: .regularExpression), line)

        // The info view's LookAroundPreview shows the beach from the street; a click on it opens Look Around.
        for _ in 0..<200 where preview == nil { preview = try app.next("frame", timeout: 30).preview }
        let card = try XCTUnwrap(preview, "the Look Around preview is drawn")
        XCTAssertGreaterThan(card.height, 60)
        try click(card.x + card.width / 2, card.y + card.height / 2)
        let looking = try app.next("lookAround", timeout: 60)
        XCTAssertNotNil(looking.lookAround)
        _ = try display.xdotool(["key", "--window", window, "Escape"])
        _ = try app.next("lookAroundClosed", timeout: 60)

        // The window closes; its last frame (map, route, markers, panel) is written out.
        _ = try display.xdotool(["key", "--window", window, "ctrl+q"])
        app.stop()
        let png = try Data(contentsOf: screenshot)
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        try? FileManager.default.createDirectory(atPath: "/tmp/openmapkit-snapshots", withIntermediateDirectories: true)
        try? png.write(to: URL(fileURLWithPath: "/tmp/openmapkit-snapshots/trip-planner.png"))
    }
}
