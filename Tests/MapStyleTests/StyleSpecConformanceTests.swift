import Foundation
import MapStyle
import TestSupport
import XCTest

/// Runs MapLibre's style-spec validation fixtures (../shared/conformance/style-spec): each
/// `*.input.json` must produce exactly the messages of its `*.output.json`, in order, with the
/// same lines and severities where the fixture gives them.
final class StyleSpecConformanceTests: XCTestCase {
    /// Cases expected to fail, and why. The test fails when this set differs from the failing set,
    /// so both regressions and fixes show up (remove an entry when it starts passing).
    static let knownFailures: [String: String] = [:]

    /// The number of passing cases reached so far; raise it as cases are fixed, never lower it.
    static let minimumPassing = 38

    func testValidatorMatchesMapLibreFixtures() throws {
        let directory = TestData.shared("conformance/style-spec")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".input.json") }
            .map { String($0.dropLast(".input.json".count)) }
            .sorted()
        XCTAssertFalse(names.isEmpty, "no fixtures found in \(directory.path)")
        var passed = 0
        var failing: Set<String> = []
        for name in names {
            let input = try Data(contentsOf: directory.appendingPathComponent(name + ".input.json"))
            let output = try Data(contentsOf: directory.appendingPathComponent(name + ".output.json"))
            let expected = try XCTUnwrap(JSONValue.parse([UInt8](output)).arrayValue, name).map { item in
                (message: item["message"]?.stringValue ?? "", line: item["line"]?.numberValue.map { Int($0) },
                 severity: item["severity"]?.stringValue)
            }
            let actual = Style.validate(bytes: [UInt8](input))
            var matches = expected.count == actual.count
            for (want, got) in zip(expected, actual) where want.message != got.message || (want.line != nil && want.line != got.line)
                || (want.severity != nil && want.severity != got.severity.rawValue) {
                matches = false
            }
            if matches {
                passed += 1
                print("PASS \(name)")
            } else {
                failing.insert(name)
                print("FAIL \(name)")
                let wanted = expected.map { "\($0.line.map(String.init) ?? "-") \($0.severity ?? "error") \($0.message)" }
                let got = actual.map { "\($0.line.map(String.init) ?? "-") \($0.severity.rawValue) \($0.message)" }
                for line in wanted where !got.contains(line) { print("    - \(line)") }
                for line in got where !wanted.contains(line) { print("    + \(line)") }
            }
        }
        print("style-spec conformance: \(passed)/\(names.count) passed")
        XCTAssertGreaterThanOrEqual(passed, Self.minimumPassing, "conformance regressed")
        XCTAssertEqual(failing, Set(Self.knownFailures.keys),
                       "failing cases differ from knownFailures: newly failing \(failing.subtracting(Self.knownFailures.keys).sorted()), newly passing \(Set(Self.knownFailures.keys).subtracting(failing).sorted())")
    }
}
