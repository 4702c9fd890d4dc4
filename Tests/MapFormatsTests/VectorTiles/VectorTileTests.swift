import Foundation
import TestSupport
import XCTest
@testable import MapFormats

final class VectorTileTests: XCTestCase {
    typealias P = VectorTile.TilePoint
    typealias Feature = VectorTile.Feature

    /// Exterior squares are clockwise as drawn in y-down tile space (positive surveyor's area).
    static let square: [P] = [P(0, 0), P(10, 0), P(10, 10), P(0, 10)]
    static let hole: [P] = [P(2, 2), P(2, 8), P(8, 8), P(8, 2)]

    func roundTrip(_ tile: VectorTile, file: StaticString = #filePath, line: UInt = #line) throws -> VectorTile {
        let bytes = tile.encoded()
        var decoder = VectorTileDecoder(strict: true)
        let decoded = try decoder.decode(bytes)
        XCTAssertEqual(decoder.issues, [], file: file, line: line)
        return decoded
    }

    // MARK: Round trips

    func testGeometryRoundTrips() throws {
        let features: [Feature] = [
            Feature(id: 1, geometry: .points([P(25, 17)])),
            Feature(id: 2, geometry: .points([P(5, 7), P(3, 2), P(-4, 9000)])),
            Feature(geometry: .lines([[P(2, 2), P(2, 10), P(10, 10)]])),
            Feature(id: 4, geometry: .lines([[P(2, 2), P(2, 10), P(10, 10)], [P(1, 1), P(3, 5)]])),
            Feature(id: 5, geometry: .polygons([[Self.square, Self.hole]])),
            Feature(id: 6, geometry: .polygons([[Self.square], [Self.square.map { P($0.x + 20, $0.y) }, Self.hole.map { P($0.x + 20, $0.y) }]])),
            Feature(id: 7, geometry: .unknown(commands: [9, 50, 34])),
            Feature(id: UInt64.max, geometry: .points([P(Int32.max, Int32.min), P(Int32.min, Int32.max)])),
        ]
        let tile = VectorTile(layers: [
            VectorTile.Layer(name: "shapes", extent: 4096, features: features),
            VectorTile.Layer(name: "v1", version: 1, extent: 512, features: [Feature(geometry: .points([P(1, 1)]))]),
        ])
        let decoded = try roundTrip(tile)
        XCTAssertEqual(decoded, tile)
        XCTAssertEqual(decoded.layers[0].features[2].id, nil)
        XCTAssertEqual(decoded[layer: "v1"]?.extent, 512)
        // Decoding and encoding again is byte-stable.
        XCTAssertEqual(decoded.encoded(), tile.encoded())
    }

    func testSpecificationExamplesEncodeAsPublished() {
        // The specification's examples (section 4.3.5): point, line string, polygon command streams.
        let cases: [(VectorTile.Geometry, [UInt8])] = [
            (.points([P(25, 17)]), [9, 50, 34]),
            (.lines([[P(2, 2), P(2, 10), P(10, 10)]]), [9, 4, 4, 18, 0, 16, 16, 0]),
            (.polygons([[[P(3, 6), P(8, 12), P(20, 34)]]]), [9, 6, 12, 18, 10, 12, 24, 44, 15]),
        ]
        for (geometry, expected) in cases {
            let bytes = VectorTile(layers: [VectorTile.Layer(name: "l", features: [Feature(geometry: geometry)])]).encoded()
            XCTAssertNotNil(find(expected, in: bytes), "\(geometry) should contain \(expected) in \(bytes)")
        }
    }

    func testValueKindsSurviveRoundTrip() throws {
        let values: [VectorTile.Value] = [.string("Monaco"), .string(""), .float(3.1), .float(.nan), .double(-0.0), .double(1e300),
                                          .int(-1), .int(Int64.min), .uint(UInt64.max), .sint(-87948), .sint(0), .bool(true), .bool(false)]
        let properties = values.enumerated().map { VectorTile.Property("k\($0.offset)", $0.element) }
        let tile = VectorTile(layers: [VectorTile.Layer(name: "values", features: [Feature(id: 0, properties: properties, geometry: .points([P(1, 2)]))])])
        let decoded = try roundTrip(tile)
        XCTAssertEqual(decoded, tile)
        XCTAssertEqual(decoded.layers[0].features[0]["k9"], .sint(-87948))
        XCTAssertNotEqual(VectorTile.Value.int(5), .sint(5))
        XCTAssertNotEqual(VectorTile.Value.double(0), .double(-0.0))
    }

    func testGzipInputIsInflated() throws {
        let tile = VectorTile(layers: [VectorTile.Layer(name: "a", features: [Feature(id: 3, geometry: .points([P(1, 1)]))])])
        let gzipped = try Compression.deflate(tile.encoded(), container: .gzip)
        XCTAssertEqual(try VectorTile(decoding: Data(gzipped)), tile)
        gzipped.withUnsafeBytes { raw in XCTAssertEqual(try? VectorTile(decoding: raw), tile) }
        // A broken gzip stream is a typed compression error.
        var broken = gzipped
        broken.removeLast(broken.count / 2)
        XCTAssertThrowsError(try VectorTile(decoding: broken)) { error in
            guard case .compression = (error as? VectorTileError)?.reason else { return XCTFail("\(error)") }
        }
    }

    // MARK: Encoder normalisation

    func testKeysAndValuesAreDeduplicated() throws {
        let keys = ["class", "name", "rank"]
        let values: [VectorTile.Value] = [.string("park"), .string("lake"), .int(1), .int(2), .bool(true)]
        var generator = SplitMix64(seed: 7)
        let features = (0..<1000).map { i in
            Feature(id: UInt64(i), properties: keys.map { VectorTile.Property($0, values[Int(generator.next() % 5)]) },
                    geometry: .points([P(Int32(i % 4096), Int32(i / 4096))]))
        }
        let bytes = VectorTile(layers: [VectorTile.Layer(name: "pois", features: features)]).encoded()
        // Count the layer's keys (field 3) and values (field 4) on the wire.
        var keyCount = 0, valueCount = 0, featureCount = 0
        try bytes.withUnsafeBytes { raw in
            var tile = ProtobufReader(raw)
            while let (field, _) = try tile.nextField() {
                XCTAssertEqual(field, 3)
                var layer = try tile.readMessage()
                while let (field, wire) = try layer.nextField() {
                    switch field {
                    case 2: featureCount += 1; try layer.skip(wire)
                    case 3: keyCount += 1; try layer.skip(wire)
                    case 4: valueCount += 1; try layer.skip(wire)
                    default: try layer.skip(wire)
                    }
                }
            }
        }
        XCTAssertEqual(featureCount, 1000)
        XCTAssertEqual(keyCount, 3)
        XCTAssertEqual(valueCount, 5)
        let decoded = try VectorTile(decoding: bytes)
        XCTAssertEqual(decoded.layers[0].features, features)
    }

    func testWindingIsCorrectedOnEncode() throws {
        XCTAssertEqual(VectorTile.windingSign(of: Self.square), 1)
        XCTAssertEqual(VectorTile.windingSign(of: Self.hole), -1)
        XCTAssertEqual(VectorTile.windingSign(of: [P(0, 0), P(5, 5), P(10, 10)]), 0)
        // Near the Int32 limits the Int64 sum would overflow; the sign must still be right.
        let huge = [P(Int32.min, Int32.min), P(Int32.max, Int32.min), P(Int32.max, Int32.max), P(Int32.min, Int32.max)]
        XCTAssertEqual(VectorTile.windingSign(of: huge), 1)
        XCTAssertEqual(VectorTile.windingSign(of: huge.reversed()), -1)

        // Exterior given counter-clockwise and hole clockwise: both are flipped on the wire.
        let reversed = Feature(geometry: .polygons([[Self.square.reversed(), Self.hole.reversed()]]))
        let decoded = try roundTrip(VectorTile(layers: [VectorTile.Layer(name: "w", features: [reversed])]))
        let rings = decoded.layers[0].features[0].geometry.rings
        XCTAssertEqual(rings.count, 2)
        XCTAssertEqual(VectorTile.windingSign(of: rings[0]), 1)
        XCTAssertEqual(VectorTile.windingSign(of: rings[1]), -1)
        XCTAssertEqual(Set(rings[0]), Set(Self.square))
        XCTAssertEqual(Set(rings[1]), Set(Self.hole))
    }

    func testDegenerateGeometryAndRepeatedPointsAreDropped() throws {
        let features: [Feature] = [
            // Repeated points go; the closing point of a ring given closed goes.
            Feature(id: 1, geometry: .lines([[P(0, 0), P(0, 0), P(5, 5), P(5, 5), P(9, 0)], [P(3, 3), P(3, 3)]])),
            Feature(id: 2, geometry: .polygons([[Self.square + [Self.square[0]], [P(1, 1), P(2, 2), P(3, 3)]]])),
            // Nothing survives: the feature goes.
            Feature(id: 3, geometry: .lines([[P(4, 4)], [P(7, 7), P(7, 7)]])),
            Feature(id: 4, geometry: .polygons([[[P(0, 0), P(5, 5), P(10, 10)], Self.hole]])),
            Feature(id: 5, geometry: .points([])),
        ]
        var encoder = VectorTileEncoder()
        encoder.append(VectorTile.Layer(name: "d", features: features))
        encoder.append(VectorTile.Layer(name: "d", features: features))
        XCTAssertEqual(encoder.droppedFeatureCount, 3)
        XCTAssertEqual(encoder.droppedLayerCount, 1)
        var decoder = VectorTileDecoder(strict: true)
        let decoded = try decoder.decode(encoder.bytes)
        XCTAssertEqual(decoded.layers.count, 1)
        XCTAssertEqual(decoded.layers[0].features, [
            Feature(id: 1, geometry: .lines([[P(0, 0), P(5, 5), P(9, 0)]])),
            Feature(id: 2, geometry: .polygons([[Self.square]])),
        ])
    }

    // MARK: Decoder recovery and rejection

    /// A one-layer tile around one feature's raw fields, written by hand.
    func tile(featureFields: (inout ProtobufWriter) -> Void, keys: [String] = ["k"], values: [String] = ["v"], version: UInt64 = 2) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.writeMessageField(3) { layer in
            layer.writeVarintField(15, version)
            layer.writeStringField(1, "layer")
            layer.writeMessageField(2, featureFields)
            for key in keys { layer.writeStringField(3, key) }
            for value in values { layer.writeMessageField(4) { $0.writeStringField(1, value) } }
            layer.writeVarintField(5, 4096)
        }
        return writer.bytes
    }

    func geometryTile(type: UInt64, _ commands: [UInt64], version: UInt64 = 2) -> [UInt8] {
        tile(featureFields: { f in
            f.writeVarintField(1, 1)
            f.writeVarintField(3, type)
            f.writePackedVarints(4, commands)
        }, keys: [], values: [], version: version)
    }

    func decodeError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> VectorTileError? {
        do {
            let tile = try VectorTile(decoding: bytes)
            XCTFail("decoded \(tile)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testMalformedCommandStreamsAreRejected() {
        let huge = UInt64((1 << 29) - 1)
        let cases: [(String, UInt64, [UInt64], (VectorTileError.Reason) -> Bool)] = [
            ("MoveTo count 2^29-1, no params", 1, [huge << 3 | 1], { if case .commandCountExceedsData = $0 { true } else { false } }),
            ("LineTo count 2^29-1", 2, [9, 0, 0, huge << 3 | 2, 2, 2], { if case .commandCountExceedsData = $0 { true } else { false } }),
            ("ClosePath first", 3, [15, 50, 34], { if case .unexpectedCommand(7, .polygon) = $0 { true } else { false } }),
            ("ClosePath count 2", 3, [9, 6, 12, 18, 10, 12, 24, 44, 23], { if case .invalidCommandCount(7, 2) = $0 { true } else { false } }),
            ("ring without ClosePath", 3, [9, 6, 12, 18, 10, 12, 24, 44], { if case .unexpectedCommand(1, .polygon) = $0 { true } else { false } }),
            ("LineTo in a point", 1, [9, 2, 2, 10, 2, 2], { if case .unexpectedCommand(2, .point) = $0 { true } else { false } }),
            ("ClosePath in a line", 2, [9, 4, 4, 18, 0, 16, 16, 0, 7], { if case .unexpectedCommand(7, .lineString) = $0 { true } else { false } }),
            ("MoveTo count 2 in a line", 2, [17, 4, 4, 6, 6, 10, 2, 2], { if case .invalidCommandCount(1, 2) = $0 { true } else { false } }),
            ("unknown command 3", 1, [11, 2, 2], { if case .unknownCommand(3) = $0 { true } else { false } }),
            ("half a point", 1, [9, 50], { if case .commandCountExceedsData = $0 { true } else { false } }),
            ("parameter beyond uint32", 1, [9, 1 << 33, 2], { if case .integerOutOfRange = $0 { true } else { false } }),
        ]
        for (name, type, commands, matches) in cases {
            guard let error = decodeError(geometryTile(type: type, commands)) else { continue }
            XCTAssertTrue(matches(error.reason), "\(name): \(error)")
            XCTAssertEqual(error.layer, 0, name)
            XCTAssertEqual(error.feature, 0, name)
            XCTAssertGreaterThan(error.offset, 10, name)
        }
    }

    func testLayerAndValueErrors() {
        // Version 3, missing version, missing name, extent 0, dangling tags, a Value with two fields.
        var w = ProtobufWriter()
        w.writeMessageField(3) { $0.writeVarintField(15, 3); $0.writeStringField(1, "x") }
        XCTAssertEqual(decodeError(w.bytes)?.reason, .unsupportedVersion(3))
        w = ProtobufWriter()
        w.writeMessageField(3) { $0.writeStringField(1, "x") }
        XCTAssertEqual(decodeError(w.bytes)?.reason, .missingLayerVersion)
        w = ProtobufWriter()
        w.writeMessageField(3) { $0.writeVarintField(15, 2) }
        XCTAssertEqual(decodeError(w.bytes)?.reason, .missingLayerName)
        w = ProtobufWriter()
        w.writeMessageField(3) { $0.writeVarintField(15, 2); $0.writeStringField(1, "x"); $0.writeVarintField(5, 0) }
        XCTAssertEqual(decodeError(w.bytes)?.reason, .invalidExtent(0))
        w = ProtobufWriter()
        w.writeMessageField(3) { $0.writeVarintField(15, 2); $0.writeStringField(1, "x"); $0.writeMessageField(4) { v in v.writeVarintField(4, 1); v.writeVarintField(5, 1) } }
        XCTAssertEqual(decodeError(w.bytes)?.reason, .invalidValue("more than one field"))
        w = ProtobufWriter()
        w.writeStringField(3, "not a layer but a string field is still length-delimited")
        XCTAssertNotNil(decodeError(w.bytes))
        w = ProtobufWriter()
        w.writeVarintField(3, 7)
        XCTAssertEqual(decodeError(w.bytes)?.reason, .wrongWireType(field: "Tile.layers", wireType: 0))

        let dangling = tile(featureFields: { f in f.writePackedVarints(2, [0, 1]); f.writeVarintField(3, 1); f.writePackedVarints(4, [9, 2, 2]) })
        XCTAssertEqual(decodeError(dangling)?.reason, .tagOutOfRange(index: 1, tableCount: 1, isKey: false))
    }

    func testRecoverableProblemsSkipOnlyTheFeature() throws {
        var writer = ProtobufWriter()
        writer.writeMessageField(3) { layer in
            layer.writeVarintField(15, 2)
            layer.writeStringField(1, "mixed")
            layer.writeMessageField(2) { $0.writeVarintField(1, 1); $0.writeVarintField(3, 1); $0.writePackedVarints(4, [9, 2, 2]) }
            layer.writeMessageField(2) { $0.writeVarintField(1, 2); $0.writeVarintField(3, 9); $0.writePackedVarints(4, [9, 2, 2]) }
            layer.writeMessageField(2) { $0.writeVarintField(1, 3); $0.writeVarintField(3, 1) }
            layer.writeMessageField(2) { $0.writeVarintField(1, 4); $0.writePackedVarints(2, [0]); $0.writeVarintField(3, 1); $0.writePackedVarints(4, [9, 2, 2]) }
            layer.writeMessageField(2) { $0.writeVarintField(1, 5); $0.writeVarintField(3, 2); $0.writePackedVarints(4, [9, 4, 4, 18, 0, 16, 0, 0]) }
            // A line of one distinct point: nothing left to draw.
            layer.writeMessageField(2) { $0.writeVarintField(1, 6); $0.writeVarintField(3, 2); $0.writePackedVarints(4, [9, 4, 4, 10, 0, 0]) }
            // Version 2 polygon whose first ring winds the wrong way: read with orientation flipped.
            layer.writeMessageField(2) { $0.writeVarintField(1, 7); $0.writeVarintField(3, 3); $0.writePackedVarints(4, [9, 0, 0, 26, 0, 20, 20, 0, 0, 19, 15]) }
            layer.writeStringField(3, "k")
            layer.writeMessageField(4) { $0.writeStringField(1, "v") }
        }
        var decoder = VectorTileDecoder()
        let decoded = try decoder.decode(writer.bytes)
        XCTAssertEqual(decoded.layers[0].features.map(\.id), [1, 5, 7])
        XCTAssertEqual(decoded.layers[0].features[1].geometry, .lines([[P(2, 2), P(2, 10)]]))
        XCTAssertEqual(decoded.layers[0].features[2].geometry.rings.count, 1)
        let reasons = decoder.issues.map { "\($0.feature ?? -1):\($0.reason):\($0.action)" }
        XCTAssertEqual(reasons, [
            "1:unknownGeometryType(9):skippedFeature",
            "2:missingGeometry:skippedFeature",
            "3:oddTagCount(1):skippedFeature",
            "4:repeatedPoints:repairedGeometry",
            "5:repeatedPoints:repairedGeometry",
            "5:degenerateGeometry:repairedGeometry",
            "5:degenerateGeometry:skippedFeature",
            "6:reversedWinding:repairedGeometry",
        ])
        var strict = VectorTileDecoder(strict: true)
        XCTAssertThrowsError(try strict.decode(writer.bytes)) { error in
            XCTAssertEqual((error as? VectorTileError)?.reason, .recoverable(.unknownGeometryType(9)))
        }
    }

    func testIntegerOverflowWrapsLikeInt32() throws {
        // Fixture 049's construction: x = Int32.max, then +1.
        let bytes = geometryTile(type: 2, [9, 4294967294, 0, 10, 2, 2])
        let decoded = try VectorTile(decoding: bytes)
        XCTAssertEqual(decoded.layers[0].features[0].geometry, .lines([[P(Int32.max, 0), P(Int32.min, 1)]]))
        XCTAssertEqual(decoded.encoded(), bytes)
    }

    // MARK: Hostile bytes

    func testTruncatedAndGarbageInputNeverCrashes() throws {
        let valid = sampleTile().encoded()
        for length in 0..<valid.count {
            let prefix = Array(valid.prefix(length))
            do { _ = try VectorTile(decoding: prefix) } catch {
                XCTAssertTrue((0...valid.count).contains(error.offset), "\(error)")
            }
        }
        var generator = SplitMix64(seed: 99)
        for _ in 0..<500 {
            let garbage = (0..<Int(generator.next() % 200)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            _ = try? VectorTile(decoding: garbage)
        }
        // An empty buffer is the empty tile (fixture 001).
        XCTAssertEqual(try VectorTile(decoding: [UInt8]()), VectorTile())
    }

    func testHugeCountsFailFastWithoutAllocating() {
        // Each command claims 2^29-1 repetitions with no data behind it.
        let start = DispatchTime.now().uptimeNanoseconds
        for type: UInt64 in 1...3 {
            for id: UInt64 in [1, 2] {
                let bytes = geometryTile(type: type, type == 1 || id == 1 ? [((1 << 29) - 1) << 3 | id] : [9, 0, 0, ((1 << 29) - 1) << 3 | id])
                XCTAssertNotNil(decodeError(bytes))
            }
        }
        XCTAssertLessThan(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, 1)
    }

    func testMutationFuzz() throws {
        let valid = sampleTile().encoded()
        let gzipped = try Compression.deflate(valid)
        var generator = SplitMix64(seed: 2026)
        var successes = 0, failures = 0
        for iteration in 0..<3000 {
            var bytes = iteration % 10 == 9 ? gzipped : valid
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[position] ^= UInt8(1 << (generator.next() % 8))
                case 1: if bytes.count > 1 { bytes.remove(at: position) }
                default: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                }
            }
            do {
                let tile = try VectorTile(decoding: bytes)
                successes += 1
                // Whatever decodes re-encodes and decodes to itself.
                XCTAssertEqual(try VectorTile(decoding: tile.encoded()), tile)
            } catch {
                failures += 1
                XCTAssertLessThanOrEqual(error.offset, max(bytes.count, 64 << 20))
            }
        }
        print("vector tile mutation fuzz: \(successes) decoded, \(failures) typed errors")
        XCTAssertEqual(successes + failures, 3000)
        XCTAssertGreaterThan(failures, 100)
    }

    // MARK: Helpers

    func sampleTile() -> VectorTile {
        VectorTile(layers: [
            VectorTile.Layer(name: "roads", features: [
                Feature(id: 1, properties: [.init("class", .string("primary")), .init("lanes", .uint(2))], geometry: .lines([[P(0, 0), P(100, 50), P(200, 60)]])),
                Feature(id: 2, properties: [.init("class", .string("path"))], geometry: .lines([[P(5, 5), P(6, 90)], [P(10, 10), P(40, 40)]])),
            ]),
            VectorTile.Layer(name: "water", features: [
                Feature(id: 3, properties: [.init("area", .double(12.5))], geometry: .polygons([[Self.square, Self.hole]])),
            ]),
            VectorTile.Layer(name: "poi", extent: 512, features: [
                Feature(properties: [.init("name", .string("Café")), .init("rank", .sint(-3)), .init("open", .bool(true))], geometry: .points([P(7, 9), P(300, 1)])),
            ]),
        ])
    }

    func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for i in 0...(haystack.count - needle.count) where Array(haystack[i..<(i + needle.count)]) == needle { return i }
        return nil
    }
}
