import Foundation
import MapFormats
import TestSupport
import XCTest

@testable import MapImport

/// The multipolygon cases (categories 7 and 9) of the OSM test data grid
/// (https://github.com/osmcode/osm-testdata), read with the OSM XML reader and assembled with
/// ``MultipolygonAssembler``, compared with the areas each case's test.json lists.
///
/// Area policy (the caller's part, as osmium's old-style-aware handler did it when the grid was made):
/// relations with type=multipolygon or type=boundary are areas; a relation without tags of its own
/// (old style) takes the tags its outer ways share, and those ways are not areas on their own; inner ways
/// tagged like the area are not areas either; every other closed way with tags (other than `test:*`) and
/// without area=no is an area.
final class OSMTestdataConformanceTests: XCTestCase {

    static let gridData = TestData.shared("conformance/osm-testdata/grid/data")

    /// Valid cases whose expected result we knowingly do not reproduce, with the reason. Empty: all pass.
    static let knownValidFailures: [Int: String] = [:]

    /// Invalid cases whose outcome matches neither the strict (`default`) nor a repaired (`fix`,
    /// `fixed`, `location`) expectation, or that build without a problem report, with the reason.
    static let knownInvalidFailures: [Int: String] = [
        749: "marked invalid, but its description ('Valid multipolygon with two outer rings') and its default "
            + "expectation describe one valid area of two rings from way 749800, which is what is built; the "
            + "assembler finds nothing wrong to report",
        768: "the relation is reported (overlapping segments) and builds nothing, as the default says, but its two "
            + "member ways carry tags of their own and this test's area policy makes each a valid area; the "
            + "grid's default lists no area from them",
        780: "default expects no area and none is built, but nothing is reported: the way's end nodes are "
            + "different nodes, so this test's area policy (first node ref == last) never treats it as closed "
            + "and the assembler never sees it",
    ]

    /// How many invalid cases come out as the grid's strict `default` expectation says, and how many
    /// as one of its repaired variants instead (a case matching both counts as default). Exact: a
    /// change in either is a change in what the assembler builds from broken data.
    static let invalidMatchingDefault = 23
    static let invalidMatchingRepair = 11

    func testMultipolygonGrid() throws {
        let fm = FileManager.default
        guard fm.fileExists(atPath: Self.gridData.path) else {
            return XCTFail("osm-testdata grid not found at \(Self.gridData.path)")
        }
        var cases: [URL] = []
        for category in ["7", "9"] {
            let folder = Self.gridData.appendingPathComponent(category)
            for name in try fm.contentsOfDirectory(atPath: folder.path).sorted() where Int(name) != nil {
                cases.append(folder.appendingPathComponent(name))
            }
        }
        XCTAssertGreaterThan(cases.count, 100)

        var validPass = 0, validTotal = 0
        var invalidPass = 0, invalidTotal = 0, invalidKnown: [Int] = []
        var invalidDefaultMatch = 0, invalidFixMatch = 0
        var failures: [String] = []
        var skipped: [String] = []

        for folder in cases {
            let id = Int(folder.lastPathComponent) ?? 0
            let result = try String(contentsOf: folder.appendingPathComponent("result"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("test.json")))
            guard let test = json as? [String: Any] else {
                skipped.append("\(id): test.json is not an object")
                continue
            }
            let description = test["description"] as? String ?? ""
            let variants = (test["areas"] as? [String: Any]) ?? [:]
            let document: OSMXMLDocument
            do {
                document = try OSMXMLDocument.read(contentsOf: folder.appendingPathComponent("data.osm"))
            } catch {
                failures.append("\(id): data.osm does not parse: \(error)")
                continue
            }
            let built = buildAreas(document)
            let problems = built.flatMap { area in area.report.problems.map { "\(area.source): \($0)" } }
            let orientationOK = built.allSatisfy { $0.polygons.allSatisfy(isOriented) }

            var variantOutcome: [String: Bool] = [:]
            for (name, value) in variants {
                guard let list = value as? [[String: Any]] else { continue }
                variantOutcome[name] = matches(expected: list, built: built)
            }
            let defaultOK = variantOutcome["default"] ?? false

            let outcome: String
            if result == "valid" {
                validTotal += 1
                if defaultOK && orientationOK && !built.contains(where: { $0.report.hasFatalProblems }) {
                    validPass += 1
                    outcome = "pass"
                } else if let reason = Self.knownValidFailures[id] {
                    outcome = "KNOWN FAILURE: \(reason)"
                } else {
                    outcome = "FAIL"
                    failures.append("\(id) (valid): \(description) — built \(summary(built)); problems: \(problems)")
                }
            } else {
                // The grid's expectations for broken data: `default` (the strict reading: usually no
                // area, "INVALID") and, for some cases, repaired variants. The built areas must be
                // exactly one of them, and the problem must be reported on an object the case is about
                // (member ways tagged area=yes may make valid areas of their own, case 768).
                invalidTotal += 1
                let listed = Set(variants.values.compactMap { $0 as? [[String: Any]] }.joined().compactMap(areaSource))
                let reported = built.contains { listed.contains($0.source) && !$0.report.problems.isEmpty }
                let repair = variantOutcome.filter { $0.key != "default" && $0.value }.keys.sorted().first
                let matched = defaultOK ? "default" : repair
                if let matched, reported, orientationOK {
                    if defaultOK { invalidDefaultMatch += 1 } else { invalidFixMatch += 1 }
                    invalidPass += 1
                    outcome = "pass: matches \(matched), reported"
                } else {
                    let what = matched.map { "matches \($0) but " + (orientationOK ? "no problem reported" : "misoriented") }
                        ?? "matches no expectation (variants \(variants.keys.sorted()))"
                    if let reason = Self.knownInvalidFailures[id] {
                        outcome = "KNOWN FAILURE (\(what)): \(reason)"
                        invalidKnown.append(id)
                    } else {
                        outcome = "FAIL: \(what)"
                        failures.append("\(id) (invalid): \(description) — \(what); built \(summary(built)); problems: \(problems)")
                    }
                }
            }
            print("osm-testdata \(id) [\(result)] \(description) → \(outcome)")
            for line in problems { print("    \(line)") }
        }
        print("osm-testdata: \(validPass + invalidPass) of \(validTotal + invalidTotal) as expected; valid \(validPass)/\(validTotal); "
              + "invalid \(invalidPass)/\(invalidTotal) (\(invalidDefaultMatch) as the strict default, "
              + "\(invalidFixMatch) as a repaired variant)")
        for line in skipped { print("osm-testdata skipped: \(line)") }
        for line in failures { print("osm-testdata failure: \(line)") }
        XCTAssertTrue(skipped.isEmpty, "skipped: \(skipped)")
        XCTAssertTrue(failures.isEmpty, "failures:\n" + failures.joined(separator: "\n"))
        XCTAssertEqual(validPass + Self.knownValidFailures.count, validTotal)
        XCTAssertEqual(invalidKnown.sorted(), Self.knownInvalidFailures.keys.sorted(), "known invalid failures")
        XCTAssertEqual(invalidPass + Self.knownInvalidFailures.count, invalidTotal)
        XCTAssertEqual(invalidDefaultMatch, Self.invalidMatchingDefault, "invalid cases matching the default expectation")
        XCTAssertEqual(invalidFixMatch, Self.invalidMatchingRepair, "invalid cases matching a repaired variant")
    }

    // MARK: Area policy

    private func buildAreas(_ document: OSMXMLDocument) -> [AreaAssembly] {
        var locations: [Int64: OSMLocation] = [:]
        for node in document.nodes { locations[node.id] = node.location }
        var waysByID: [Int64: OSMWay] = [:]
        for way in document.ways { waysByID[way.id] = way }
        let assembler = MultipolygonAssembler()
        var areas: [AreaAssembly] = []
        var notAreas = Set<Int64>()
        for relation in document.relations {
            let type = relation.tags.value(for: "type")
            guard type == "multipolygon" || type == "boundary" else { continue }
            var areaTags = meaningfulTags(relation.tags)
            areaTags.removeValue(forKey: "type")
            let outerWays = relation.members.filter { $0.type == .way && $0.role == "outer" }.compactMap { waysByID[$0.ref] }
            if areaTags.isEmpty {
                // Old style: the tags the outer ways agree on describe the area.
                var common: [String: String]? = nil
                for way in outerWays {
                    let tags = meaningfulTags(way.tags)
                    common = common.map { $0.filter { tags[$0.key] == $0.value } } ?? tags
                }
                areaTags = common ?? [:]
                for way in outerWays where meaningfulTags(way.tags) == areaTags { notAreas.insert(way.id) }
            }
            for member in relation.members where member.type == .way && member.role == "inner" {
                if let way = waysByID[member.ref], meaningfulTags(way.tags) == areaTags { notAreas.insert(way.id) }
            }
            areas.append(assembler.assemble(relation: relation, way: { waysByID[$0] }, location: { locations[$0] }))
        }
        for way in document.ways where way.nodeRefs.count >= 4 && way.nodeRefs.first == way.nodeRefs.last {
            let tags = meaningfulTags(way.tags)
            guard !tags.isEmpty, tags["area"] != "no", !notAreas.contains(way.id) else { continue }
            areas.append(assembler.assemble(closedWay: way, location: { locations[$0] }))
        }
        return areas
    }

    private func meaningfulTags(_ tags: OSMTags) -> [String: String] {
        var out: [String: String] = [:]
        for (k, v) in tags where !k.hasPrefix("test:") { out[k] = v }
        return out
    }

    // MARK: Comparison

    private func areaSource(_ area: [String: Any]) -> AreaSource? {
        guard let typeName = area["from_type"] as? String, let id = (area["from_id"] as? NSNumber)?.int64Value else {
            return nil
        }
        return AreaSource(type: typeName == "way" ? .way : .relation, id: id)
    }

    private func matches(expected: [[String: Any]], built: [AreaAssembly]) -> Bool {
        var remaining = built.filter(\.isValid)
        for area in expected {
            guard let source = areaSource(area), let wkt = area["wkt"] as? String else { return false }
            let index = remaining.firstIndex { $0.source == source }
            if wkt == "INVALID" {
                if index != nil { return false }
                continue
            }
            guard let index, let polygons = parseMultipolygonWKT(wkt),
                  sameMultipolygon(polygons, remaining[index].polygons) else { return false }
            remaining.remove(at: index)
        }
        return remaining.isEmpty
    }

    private func summary(_ built: [AreaAssembly]) -> String {
        built.map { area in
            "\(area.source): " + (area.isValid ? area.polygons.map { "\($0.count) ring(s)" }.joined(separator: " + ") : "nothing")
        }.joined(separator: "; ")
    }

    private func isOriented(_ polygon: AreaPolygon) -> Bool {
        for (i, ring) in polygon.enumerated() {
            let a = signedArea(ring)
            if i == 0 ? a <= 0 : a >= 0 { return false }
        }
        return true
    }

    private func signedArea(_ ring: [OSMLocation]) -> Double {
        guard let o = ring.first else { return 0 }
        var sum = 0.0
        for i in 0..<(ring.count - 1) {
            let ax = Double(ring[i].longitudeE7 - o.longitudeE7), ay = Double(ring[i].latitudeE7 - o.latitudeE7)
            let bx = Double(ring[i + 1].longitudeE7 - o.longitudeE7), by = Double(ring[i + 1].latitudeE7 - o.latitudeE7)
            sum += ax * by - bx * ay
        }
        return sum / 2
    }
}

// MARK: - WKT and ring comparison, shared with the assembler tests

/// Parses `MULTIPOLYGON(((x y, …), (…)), ((…)))` into polygons of (longitude, latitude) rings.
func parseMultipolygonWKT(_ text: String) -> [[[(Double, Double)]]]? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard trimmed.uppercased().hasPrefix("MULTIPOLYGON") else { return nil }
    let body = trimmed.dropFirst("MULTIPOLYGON".count)
    var polygons: [[[(Double, Double)]]] = []
    var depth = 0
    var number = ""
    var point: [Double] = []
    var ring: [(Double, Double)] = []
    var polygon: [[(Double, Double)]] = []
    func flushNumber() -> Bool {
        guard !number.isEmpty else { return true }
        guard let value = Double(number) else { return false }
        point.append(value)
        number = ""
        return true
    }
    func flushPoint() -> Bool {
        guard flushNumber() else { return false }
        guard !point.isEmpty else { return true }
        guard point.count == 2 else { return false }
        ring.append((point[0], point[1]))
        point = []
        return true
    }
    for ch in body {
        switch ch {
        case "(":
            depth += 1
        case ")":
            guard flushPoint() else { return nil }
            if depth == 3 {
                polygon.append(ring)
                ring = []
            } else if depth == 2 {
                polygons.append(polygon)
                polygon = []
            }
            depth -= 1
        case ",":
            guard flushPoint() else { return nil }
        case " ":
            guard flushNumber() else { return nil }
        default:
            number.append(ch)
        }
    }
    return depth == 0 ? polygons : nil
}

/// Whether two multipolygons have the same polygons, each with the same outer ring and the same holes,
/// rings compared as cyclic point sequences in either direction with coordinates equal within 1e-7.
func sameMultipolygon(_ expected: [[[(Double, Double)]]], _ actual: [AreaPolygon]) -> Bool {
    guard expected.count == actual.count else { return false }
    var unused = Array(actual.indices)
    for polygon in expected {
        guard let k = unused.firstIndex(where: { samePolygon(polygon, actual[$0]) }) else { return false }
        unused.remove(at: k)
    }
    return true
}

private func samePolygon(_ expected: [[(Double, Double)]], _ actual: AreaPolygon) -> Bool {
    guard expected.count == actual.count, let outer = expected.first, let actualOuter = actual.first,
          sameRing(outer, actualOuter) else { return false }
    var unused = Array(actual.indices.dropFirst())
    for hole in expected.dropFirst() {
        guard let k = unused.firstIndex(where: { sameRing(hole, actual[$0]) }) else { return false }
        unused.remove(at: k)
    }
    return true
}

///
/// Nodes where a ring runs straight on are dropped from both first: they do not change the geometry, and the
/// grid's hand-written expectations keep them in some cases (750) and leave them out in others (760, 762).
func sameRing(_ expected: [(Double, Double)], _ actual: [OSMLocation]) -> Bool {
    let e = withoutStraightNodes(expected.map { (($0.0 * 1e7).rounded(), ($0.1 * 1e7).rounded()) })
    let a = withoutStraightNodes(actual.map { (Double($0.longitudeE7), Double($0.latitudeE7)) })
    guard e.count == a.count, let start = e.first else { return false }
    let n = e.count
    for offset in 0..<n where close(a[offset], start) {
        if (0..<n).allSatisfy({ close(e[$0], a[(offset + $0) % n]) }) { return true }
        if (0..<n).allSatisfy({ close(e[$0], a[(offset - $0 + n) % n]) }) { return true }
    }
    return false
}

/// Coordinates here are in 1e-7 degrees: equal within 1e-7 degrees.
private func close(_ p: (Double, Double), _ q: (Double, Double)) -> Bool {
    abs(p.0 - q.0) <= 1 && abs(p.1 - q.1) <= 1
}

/// An open ring (closing point removed) without the nodes where it goes straight on.
private func withoutStraightNodes(_ ring: [(Double, Double)]) -> [(Double, Double)] {
    var r = ring
    if let f = r.first, let l = r.last, r.count > 1, close(f, l) { r.removeLast() }
    var changed = true
    while changed && r.count > 3 {
        changed = false
        for i in r.indices {
            let a = r[(i + r.count - 1) % r.count], b = r[i], c = r[(i + 1) % r.count]
            let cross = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
            let dot = (b.0 - a.0) * (c.0 - b.0) + (b.1 - a.1) * (c.1 - b.1)
            if cross == 0 && dot > 0 {
                r.remove(at: i)
                changed = true
                break
            }
        }
    }
    return r
}
