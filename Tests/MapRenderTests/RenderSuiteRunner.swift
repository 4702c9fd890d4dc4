import Foundation
import MapGeometry
import MapRender
import MapStyle
import XCTest

/// A folder of render cases in the shared conformance suite's layout (see
/// `../shared/conformance/render/README.md`): `<group>/<case>/{style.json,case.json,expected.png}`,
/// a case folder being any folder below the suite that holds a `case.json`. Each case's style is
/// drawn for its camera and compared with MapLibre Native's image using pixelmatch's rule
/// (``ImageComparison``); one line per case and the pass count per group are printed, and our
/// images are written to a temporary folder for looking at.
///
/// The run is a ratchet: the cases that fail must be exactly `knownFailures`. A case that starts
/// passing, or one that starts failing, fails the test until the list is updated.
struct RenderSuiteRunner {
    /// Where the suite lives.
    let suite: URL
    /// A short name, used for the folder our images are written to.
    let name: String
    /// Folders below the suite that hold shared data, not cases.
    let dataFolders: Set<String>
    /// The tolerance for a case whose case.json gives none, by group.
    let defaultTolerance: (_ group: String) -> Double
    /// Cases that are expected to fail, with why.
    let knownFailures: [String: String]

    struct CaseResult { var differing: Int; var pixels: Int; var allowed: Double; var milliseconds: Double }

    func run(file: StaticString = #filePath, line: UInt = #line) throws {
        // Missing data is a failure, not a skip: a suite that silently does not run proves nothing.
        guard FileManager.default.fileExists(atPath: suite.appendingPathComponent("README.md").path) else {
            return XCTFail("render suite not found at \(suite.path)", file: file, line: line)
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-\(name)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        print("rendered images: \(output.path)")
        var failures: [String: String] = [:]
        var passed: [String: Int] = [:], total: [String: Int] = [:]
        let started = Date()
        for id in try caseIDs() {
            let group = String(id.prefix { $0 != "/" })
            total[group, default: 0] += 1
            let folder = suite.appendingPathComponent(id)
            do {
                let result = try runCase(folder, group: group,
                                         writingTo: output.appendingPathComponent(id.replacingOccurrences(of: "/", with: "-") + ".png"))
                let fraction = Double(result.differing) / Double(result.pixels)
                let verdict = fraction <= result.allowed
                print(String(format: "%@ %@ mismatch %.5f (allowed %.5f, %d px) %.1f ms", verdict ? "PASS" : "FAIL", id,
                             fraction, result.allowed, result.differing, result.milliseconds))
                if verdict { passed[group, default: 0] += 1 } else { failures[id] = String(format: "mismatch %.5f", fraction) }
            } catch {
                print("FAIL \(id): \(error)")
                failures[id] = "\(error)"
            }
        }
        for group in total.keys.sorted() { print("group \(group): \(passed[group] ?? 0)/\(total[group]!) pass") }
        let passes = passed.values.reduce(0, +), cases = total.values.reduce(0, +)
        print(String(format: "%@: %d of %d cases pass in %d groups (%.1f s)", name, passes, cases, total.count,
                     Date().timeIntervalSince(started)))
        let unexpected = Set(failures.keys).subtracting(knownFailures.keys).sorted()
        let fixed = Set(knownFailures.keys).subtracting(failures.keys).sorted()
        for id in unexpected { print("NEW FAILURE \(id): \(failures[id]!)") }
        XCTAssertEqual(unexpected, [], "cases that newly fail", file: file, line: line)
        XCTAssertEqual(fixed, [], "cases that now pass: remove them from knownFailures", file: file, line: line)
    }

    /// Every case folder, as a path relative to the suite, sorted.
    func caseIDs() throws -> [String] {
        var ids: [String] = []
        func walk(_ relative: String) throws {
            let url = relative.isEmpty ? suite : suite.appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("case.json").path) { return ids.append(relative) }
            for name in try Self.sortedDirectories(url) where !(relative.isEmpty && dataFolders.contains(name)) {
                try walk(relative.isEmpty ? name : relative + "/" + name)
            }
        }
        try walk("")
        return ids.sorted()
    }

    private func runCase(_ folder: URL, group: String, writingTo imageURL: URL) throws -> CaseResult {
        let style = try Style(data: [UInt8](Data(contentsOf: folder.appendingPathComponent("style.json"))))
        let camera = try JSONValue.parse([UInt8](Data(contentsOf: folder.appendingPathComponent("case.json"))))
        let center = camera["center"]?.arrayValue?.compactMap(\.numberValue) ?? [0, 0]
        let loader = StyleResourceLoader.files(relativeTo: folder.path, style: style)
        let start = Date()
        let renderer = try StyleRenderer(style: style, loader: loader)
        let canvas = try renderer.render(center: CLLocationCoordinate2D(latitude: center[1], longitude: center[0]),
                                         zoom: camera["zoom"]?.numberValue ?? 0, bearing: camera["bearing"]?.numberValue ?? 0,
                                         pitch: camera["pitch"]?.numberValue ?? 0,
                                         width: camera["width"]?.numberValue ?? 512, height: camera["height"]?.numberValue ?? 512,
                                         pixelRatio: camera["pixelRatio"]?.numberValue ?? 1)
        let milliseconds = Date().timeIntervalSince(start) * 1000
        try Data(canvas.pngData()).write(to: imageURL)
        let expected = try RenderCanvas.readPNG(path: folder.appendingPathComponent("expected.png").path)
        guard expected.width == canvas.pixelWidth, expected.height == canvas.pixelHeight else {
            throw RenderError("size \(canvas.pixelWidth)×\(canvas.pixelHeight), expected \(expected.width)×\(expected.height)")
        }
        let comparison = ImageComparison(width: expected.width, height: expected.height, expected: expected.rgba, actual: canvas.rgbaPixels())
        return CaseResult(differing: comparison.differingPixels(), pixels: expected.width * expected.height,
                          allowed: camera["allowedDiffFraction"]?.numberValue ?? defaultTolerance(group), milliseconds: milliseconds)
    }

    private static func sortedDirectories(_ url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory) && isDirectory.boolValue
        }.sorted()
    }
}
