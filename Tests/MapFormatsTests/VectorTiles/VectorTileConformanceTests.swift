import Foundation
import TestSupport
import XCTest
@testable import MapFormats

/// Runs the decoder over mapbox/mvt-fixtures (kept outside the repository in shared/).
final class VectorTileConformanceTests: XCTestCase {
    typealias Point = VectorTile.TilePoint

    static let root = TestData.shared("conformance/mvt-fixtures")

    /// Fixtures whose info.json validity is overridden by the fixtures' own README, with where it says so.
    static let readmeValid: [String: String] = [
        "003": "info.json says recoverable, but the README's 'Defaults and validity' section says a proto2 decoder "
            + "reads its missing type as the default UNKNOWN, 'so the fixture itself is interpreted as valid' "
            + "(it is byte-identical to fixture 016, which info.json calls valid)",
    ]

    /// Fixtures this decoder does not handle as info.json says: the exact outcome it gives instead
    /// (the failure text the loop below produces) and why. A fixture that fails differently, or
    /// starts passing, fails the test until this list is changed.
    static let knownFailures: [String: (outcome: String, reason: String)] = [
        "057": (outcome: "rejected: vector tile: command count 536870911 exceeds the 2 bytes of geometry left at byte 23, layer 0, feature 0",
                reason: "info.json says valid, but its geometry (one MoveTo with count 2^29-1 followed by a single point) "
                    + "is the same construction as fixture 051, which says fatal ('count too large'); the reference decoder "
                    + "vtzero rejects both with 'count too large', and so does this one: a command count must not exceed "
                    + "the parameters that follow it (spec 4.3), and accepting 057 would mean accepting 051"),
    ]

    /// How each invalid fixture must be handled: a typed error, or recovery with this issue.
    enum Expectation: CustomStringConvertible {
        case fatal
        case recover(VectorTile.Issue.Reason, VectorTile.Issue.Action)

        var description: String {
            switch self {
            case .fatal: return "fatal"
            case .recover(let reason, let action): return "recover \(reason) → \(action)"
            }
        }
    }

    /// Recoverable fixtures and the recovery expected of this decoder.
    static let recoveries: [String: (VectorTile.Issue.Reason, VectorTile.Issue.Action)] = [
        "004": (.missingGeometry, .skippedFeature),
        "005": (.oddTagCount(1), .skippedFeature),
        "006": (.unknownGeometryType(8), .skippedFeature),
        "015": (.duplicateLayerName("hello"), .skippedLayer),
        "030": (.repeatedGeometryField, .skippedFeature),
        "046": (.repeatedPoints, .repairedGeometry),
    ]

    func testFixtures() throws {
        let dir = Self.root.appendingPathComponent("fixtures")
        let ids = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertGreaterThan(ids.count, 70, "fixtures not found at \(dir.path)")
        var passed = 0, failed: [String: String] = [:], byteIdentical = 0
        for id in ids {
            let folder = dir.appendingPathComponent(id)
            let bytes = try Data(contentsOf: folder.appendingPathComponent("tile.mvt"))
            let info = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("info.json"))) as? [String: Any]
            let validity = info?["validity"] as? [String: Any]
            let validV2 = (validity?["v2"] as? Bool ?? false) || Self.readmeValid[id] != nil
            let errorKind = validity?["error"] as? String
            var decoder = VectorTileDecoder()
            let outcome: Result<VectorTile, VectorTileError> = Result { () throws(VectorTileError) in try decoder.decode(bytes) }
            var problem: String?
            let expectation: String
            if validV2 {
                expectation = "valid"
                switch outcome {
                case .failure(let error): problem = "rejected: \(error)"
                case .success(let tile):
                    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("tile.json")))
                    let expected = try expectedTile(json)
                    if tile != expected {
                        problem = "decoded \(tile) expected \(expected)"
                    } else if !decoder.issues.isEmpty {
                        problem = "valid tile reported issues \(decoder.issues)"
                    } else {
                        let reencoded = tile.encoded()
                        if reencoded == [UInt8](bytes) { byteIdentical += 1 }
                        let again = try? VectorTile(decoding: reencoded)
                        if again != tile { problem = "re-encoded tile decodes to \(String(describing: again))" }
                    }
                }
            } else if let (reason, action) = Self.recoveries[id] {
                expectation = "recoverable (\(reason))"
                switch outcome {
                case .failure(let error): problem = "recoverable case threw \(error)"
                case .success(let tile):
                    if !decoder.issues.contains(where: { $0.reason == reason && $0.action == action }) {
                        problem = "issues \(decoder.issues), wanted \(reason) → \(action)"
                    } else if action == .skippedFeature, tile.layers.contains(where: { !$0.features.isEmpty }) {
                        problem = "the bad feature was kept: \(tile)"
                    }
                    var strict = VectorTileDecoder(strict: true)
                    if (try? strict.decode(bytes)) != nil { problem = (problem ?? "") + " strict decoding accepted it" }
                }
            } else {
                // fatal, or no recommendation ("undefined", fixture 045): this decoder rejects.
                expectation = errorKind ?? "invalid (no error kind)"
                if case .success(let tile) = outcome { problem = "accepted \(tile)" }
            }
            let outcomeText: String
            switch outcome {
            case .success(let tile): outcomeText = "decoded \(tile.layers.count) layer(s), \(decoder.issues.count) issue(s)"
            case .failure(let error): outcomeText = "error: \(error)"
            }
            if let problem {
                failed[id] = problem
                let known = Self.knownFailures[id].map { $0.outcome == problem ? " (known failure: \($0.reason))" : "" } ?? ""
                print("mvt-fixture \(id) FAIL  expected \(expectation); \(outcomeText); \(problem)\(known)")
            } else {
                passed += 1
                print("mvt-fixture \(id) PASS  expected \(expectation); \(outcomeText)")
            }
        }
        print("mvt-fixtures: \(passed) of \(ids.count) passed, \(failed.count) known failure(s); "
              + "\(byteIdentical) valid tiles re-encode byte-identical")
        // Every fixture runs; the failures are exactly the known ones, failing exactly as recorded.
        XCTAssertEqual(passed + failed.count, ids.count)
        XCTAssertEqual(failed, Self.knownFailures.mapValues(\.outcome))
    }

    func testRealWorldTiles() throws {
        let dir = Self.root.appendingPathComponent("real-world")
        guard let walker = FileManager.default.enumerator(atPath: dir.path) else { return XCTFail("no \(dir.path)") }
        let files = walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".mvt") || $0.hasSuffix(".mvt.gz") }.sorted()
        XCTAssertGreaterThan(files.count, 50)
        var totalFeatures = 0
        for file in files {
            let data = try Data(contentsOf: dir.appendingPathComponent(file))
            var decoder = VectorTileDecoder()
            do {
                let tile = try decoder.decode(data)
                let features = tile.layers.reduce(0) { $0 + $1.features.count }
                totalFeatures += features
                XCTAssertGreaterThan(tile.layers.count, 0, file)
                XCTAssertGreaterThan(features, 0, file)
                for layer in tile.layers {
                    XCTAssertFalse(layer.name.isEmpty, file)
                    XCTAssertTrue((1...2).contains(layer.version), file)
                    XCTAssertTrue((256...65536).contains(layer.extent), "\(file) \(layer.name) extent \(layer.extent)")
                }
                // Re-encoding keeps every feature: the decoder already removed what the encoder would drop.
                let again = try VectorTile(decoding: tile.encoded())
                XCTAssertEqual(again, tile, file)
                let issueSummary = Dictionary(grouping: decoder.issues, by: { "\($0.reason)" }).mapValues(\.count)
                print("mvt real-world \(file): \(tile.layers.count) layers, \(features) features, issues \(issueSummary)")
            } catch {
                XCTFail("\(file): \(error)")
            }
        }
        print("mvt real-world: \(files.count) tiles, \(totalFeatures) features")
    }

    // MARK: tile.json → expected model

    struct FixtureError: Error { var message: String }

    func expectedTile(_ json: Any) throws -> VectorTile {
        guard let object = json as? [String: Any] else {
            throw FixtureError(message: "no layers")
        }
        return VectorTile(layers: try (object["layers"] as? [[String: Any]] ?? []).map(expectedLayer))
    }

    func expectedLayer(_ layer: [String: Any]) throws -> VectorTile.Layer {
        let keys = layer["keys"] as? [String] ?? []
        let values = try (layer["values"] as? [[String: Any]] ?? []).map(expectedValue)
        var features: [VectorTile.Feature] = []
        for feature in layer["features"] as? [[String: Any]] ?? [] {
            let tags = (feature["tags"] as? [NSNumber] ?? []).map(\.intValue)
            var properties: [VectorTile.Property] = []
            for i in stride(from: 0, to: tags.count - 1, by: 2) {
                properties.append(VectorTile.Property(keys[tags[i]], values[tags[i + 1]]))
            }
            let commands = (feature["geometry"] as? [NSNumber] ?? []).map(\.uint32Value)
            let type = (feature["type"] as? NSNumber)?.intValue ?? 0
            features.append(VectorTile.Feature(id: (feature["id"] as? NSNumber)?.uint64Value, properties: properties,
                                               geometry: referenceGeometry(type: type, commands)))
        }
        return VectorTile.Layer(name: layer["name"] as? String ?? "", version: (layer["version"] as? NSNumber)?.uint32Value ?? 1,
                                extent: (layer["extent"] as? NSNumber)?.uint32Value ?? 4096, features: features)
    }

    func expectedValue(_ value: [String: Any]) throws -> VectorTile.Value {
        guard let (kind, raw) = value.first, let number = raw as? NSNumber ?? (raw is String ? NSNumber(value: 0) : nil) else {
            throw FixtureError(message: "bad value \(value)")
        }
        switch kind {
        // Fixture 076's JSON writes the string "613" of its tile.mvt as a bare number.
        case "string_value": return .string(raw as? String ?? number.stringValue)
        case "float_value": return .float(number.floatValue)
        case "double_value": return .double(number.doubleValue)
        case "int_value": return .int(number.int64Value)
        case "uint_value": return .uint(number.uint64Value)
        case "sint_value": return .sint(number.int64Value)
        case "bool_value": return .bool(number.boolValue)
        default: throw FixtureError(message: "unknown value kind \(kind)")
        }
    }

    /// A deliberately plain reading of the command stream (no validation), independent of the decoder.
    func referenceGeometry(type: Int, _ commands: [UInt32]) -> VectorTile.Geometry {
        if type == 0 { return .unknown(commands: commands) }
        var parts: [[Point]] = []
        var x: Int32 = 0, y: Int32 = 0, i = 0
        while i < commands.count {
            let id = commands[i] & 7, count = Int(commands[i] >> 3)
            i += 1
            if id == 7 { continue }
            if id == 1 && type != 1 { parts.append([]) }
            if parts.isEmpty { parts.append([]) }
            for _ in 0..<count where i + 1 < commands.count {
                let dx = commands[i], dy = commands[i + 1]
                x &+= Int32(bitPattern: (dx >> 1) ^ (0 &- (dx & 1)))
                y &+= Int32(bitPattern: (dy >> 1) ^ (0 &- (dy & 1)))
                parts[parts.count - 1].append(Point(x, y))
                i += 2
            }
        }
        switch type {
        case 1: return .points(parts.flatMap { $0 })
        case 2: return .lines(parts)
        default:
            var polygons: [[[Point]]] = []
            for ring in parts {
                var area = 0.0
                for j in ring.indices {
                    let a = ring[j], b = ring[(j + 1) % ring.count]
                    area += Double(a.x) * Double(b.y) - Double(b.x) * Double(a.y)
                }
                if area > 0 || polygons.isEmpty { polygons.append([ring]) } else { polygons[polygons.count - 1].append(ring) }
            }
            return .polygons(polygons)
        }
    }
}
