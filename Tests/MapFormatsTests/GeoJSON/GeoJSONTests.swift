import Foundation
import XCTest
@testable import MapFormats

final class GeoJSONTests: XCTestCase {
    private func parse(_ text: String) throws -> GeoJSON {
        try GeoJSON.parse(Data(text.utf8))
    }

    /// Parses `text`, expecting failure; returns the error.
    private func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> GeoJSONError? {
        failure(Data(text.utf8), file: file, line: line)
    }

    private func failure(_ data: Data, file: StaticString = #filePath, line: UInt = #line) -> GeoJSONError? {
        do {
            let value = try GeoJSON.parse(data)
            XCTFail("expected an error, got \(value)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func p(_ lon: Double, _ lat: Double, _ alt: Double? = nil) -> GeoJSONPosition {
        GeoJSONPosition(longitude: lon, latitude: lat, altitude: alt)
    }

    // MARK: Reading

    func testEveryGeometryType() throws {
        XCTAssertEqual(try parse(#"{"type":"Point","coordinates":[1.5,2]}"#), .geometry(.point(p(1.5, 2))))
        XCTAssertEqual(try parse(#"{"type":"Point","coordinates":[1,2,30.5]}"#), .geometry(.point(p(1, 2, 30.5))))
        XCTAssertEqual(try parse(#"{"type":"MultiPoint","coordinates":[[1,2],[3,4]]}"#),
                       .geometry(.multiPoint([p(1, 2), p(3, 4)])))
        XCTAssertEqual(try parse(#"{"type":"MultiPoint","coordinates":[]}"#), .geometry(.multiPoint([])))
        XCTAssertEqual(try parse(#"{"type":"LineString","coordinates":[[1,2],[3,4]]}"#),
                       .geometry(.lineString([p(1, 2), p(3, 4)])))
        XCTAssertEqual(try parse(#"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[[5,6],[7,8],[9,10]]]}"#),
                       .geometry(.multiLineString([[p(1, 2), p(3, 4)], [p(5, 6), p(7, 8), p(9, 10)]])))
        let ring = [p(0, 0), p(10, 0), p(10, 10), p(0, 10), p(0, 0)]
        let hole = [p(2, 2), p(2, 4), p(4, 4), p(2, 2)]
        XCTAssertEqual(try parse(#"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[2,4],[4,4],[2,2]]]}"#),
                       .geometry(.polygon([ring, hole])))
        XCTAssertEqual(try parse(#"{"type":"MultiPolygon","coordinates":[[[[0,0],[10,0],[10,10],[0,10],[0,0]]]]}"#),
                       .geometry(.multiPolygon([[ring]])))
        XCTAssertEqual(try parse(#"{"type":"MultiPolygon","coordinates":[]}"#), .geometry(.multiPolygon([])))
        XCTAssertEqual(try parse(#"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"GeometryCollection","geometries":[]}]}"#),
                       .geometry(.geometryCollection([.point(p(1, 2)), .geometryCollection([])])))
    }

    func testFeatureAndCollection() throws {
        let text = #"""
        {"type": "FeatureCollection", "bbox": [-10, -10, 10, 10], "features": [
          {"type": "Feature", "id": 42, "geometry": {"type": "Point", "coordinates": [1, 2]},
           "properties": {"name": "Café \"Ü\"", "n": 1.50, "nested": {"a": [1, 2]}}},
          {"type": "Feature", "id": "abc", "geometry": null, "properties": null},
          {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}},
          {"type": "Feature", "id": 42.0, "bbox": [0, 0, 1, 1], "properties": {}, "geometry": null, "foreign": [1, {"x": true}]}
        ]}
        """#
        guard case .featureCollection(let features) = try parse(text) else { return XCTFail("not a collection") }
        XCTAssertEqual(features.count, 4)
        XCTAssertEqual(features[0].id, "42")
        XCTAssertTrue(features[0].idIsNumeric)
        XCTAssertEqual(features[0].geometry, .point(p(1, 2)))
        // properties are the input's bytes, verbatim (key order, spacing, 1.50 all kept).
        XCTAssertEqual(features[0].properties.map { String(decoding: $0, as: UTF8.self) },
                       #"{"name": "Café \"Ü\"", "n": 1.50, "nested": {"a": [1, 2]}}"#)
        let object = try JSONSerialization.jsonObject(with: features[0].properties!) as? [String: Any]
        XCTAssertEqual(object?["name"] as? String, "Café \"Ü\"")
        XCTAssertEqual(features[1].id, "abc")
        XCTAssertFalse(features[1].idIsNumeric)
        XCTAssertNil(features[1].geometry)
        XCTAssertNil(features[1].properties)
        XCTAssertNil(features[2].id)
        XCTAssertNil(features[2].properties)
        XCTAssertEqual(features[3].id, "42")
        XCTAssertEqual(features[3].bbox, [0, 0, 1, 1])
        XCTAssertEqual(features[3].properties, Data("{}".utf8))
    }

    func testNumericIdentifiers() throws {
        func id(_ literal: String) throws -> String? {
            guard case .feature(let f) = try parse(#"{"type":"Feature","id":\#(literal),"geometry":null,"properties":null}"#) else { return nil }
            return f.id
        }
        XCTAssertEqual(try id("42"), "42")
        XCTAssertEqual(try id("-7"), "-7")
        XCTAssertEqual(try id("42.0"), "42")
        XCTAssertEqual(try id("1e2"), "100")
        XCTAssertEqual(try id("4.5"), "4.5")
        XCTAssertEqual(try id("12345678901234567890123"), "12345678901234567890123")
        XCTAssertEqual(try id(#""0042""#), "0042")
        XCTAssertNil(try id("null"))
        XCTAssertEqual(failure(#"{"type":"Feature","id":1e400,"geometry":null}"#)?.path, "id")
        XCTAssertEqual(failure(#"{"type":"Feature","id":[1],"geometry":null}"#)?.path, "id")
    }

    func testEscapedMemberNamesAndForeignMembers() throws {
        XCTAssertEqual(try parse(#"{"typ\u0065":"Point","coordinates":[1,2],"crs":{"type":"name"},"title":"x"}"#),
                       .geometry(.point(p(1, 2))))
        // A byte-order mark is skipped; the last of duplicate members wins.
        XCTAssertEqual(try GeoJSON.parse(Data([0xEF, 0xBB, 0xBF]) + Data(#"{"type":"Point","coordinates":[9,9],"coordinates":[1,2]}"#.utf8)),
                       .geometry(.point(p(1, 2))))
    }

    func testNumbers() throws {
        let text = #"{"type":"MultiPoint","coordinates":[[-122.41941550000001,37.774929],[1E1,-0.5e-3],[0.1,0.2],[-0,2.2250738585072014e-308],[179.99999999999997,89.999999999999986]]}"#
        guard case .geometry(.multiPoint(let points)) = try parse(text) else { return XCTFail() }
        XCTAssertEqual(points[0].longitude, -122.41941550000001)
        XCTAssertEqual(points[0].latitude, 37.774929)
        XCTAssertEqual(points[1].longitude, 10)
        XCTAssertEqual(points[1].latitude, -0.0005)
        XCTAssertEqual(points[2], p(0.1, 0.2))
        XCTAssertEqual(points[3].latitude, 2.2250738585072014e-308)
        XCTAssertEqual(points[4], p(179.99999999999997, 89.999999999999986))
    }

    // MARK: Hostile input

    /// Each case: the input, the path the message must name, and a fragment of the problem.
    func testHostileInputsNameThePath() {
        let ring3 = #"[[0,0],[1,0],[0,0]]"#
        let cases: [(String, String, String, GeoJSONError.Kind)] = [
            ("", "top level", "end of input", .invalidJSON),
            ("   ", "top level", "end of input", .invalidJSON),
            (#"{"type":"Point","coordinates":[1,2]"#, "top level", "end of input", .invalidJSON),
            (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,"#,
             "features[0].geometry.coordinates[1]", "end of input", .invalidJSON),
            (#"{"type":"Point","coordinates":[1,2]} x"#, "top level", "after the end", .invalidJSON),
            (#"{"type":"Point","coordinates":[1,2,]}"#, "coordinates[2]", "expected a value", .invalidJSON),
            (#"{"type":"Point","coordinates":[01,2]}"#, "coordinates[0]", "expected ','", .invalidJSON),
            (#"{"type":"Point","coordinates":[NaN,2]}"#, "coordinates[0]", "unexpected 'N'", .invalidJSON),
            (#"{'type':'Point'}"#, "top level", "member name", .invalidJSON),
            ("{\"type\":\"Po\u{01}int\"}", "type", "control character", .invalidJSON),
            (#"{"type":"Point\x"}"#, "type", "invalid escape", .invalidJSON),
            ("[1, 2]", "top level", "expected a GeoJSON object, found an array", .invalidStructure),
            (#"{"coordinates":[1,2]}"#, "top level", "missing the \"type\" member", .invalidStructure),
            (#"{"type":7,"coordinates":[1,2]}"#, "type", "must be a string", .invalidStructure),
            (#"{"type":"Pointe","coordinates":[1,2]}"#, "type", "unknown GeoJSON type \"Pointe\"", .invalidStructure),
            (#"{"type":"point","coordinates":[1,2]}"#, "type", "unknown GeoJSON type", .invalidStructure),
            (#"{"type":"Point"}"#, "top level", "needs a \"coordinates\" member", .invalidStructure),
            (#"{"type":"Point","coordinates":null}"#, "coordinates", "found null", .invalidStructure),
            (#"{"type":"Point","coordinates":[1]}"#, "coordinates", "at least 2 numbers, found 1", .invalidStructure),
            (#"{"type":"Point","coordinates":["1","2"]}"#, "coordinates[0]", "expected a number, found a string", .invalidStructure),
            (#"{"type":"Point","coordinates":[1,2,true]}"#, "coordinates[2]", "found a boolean", .invalidStructure),
            (#"{"type":"Point","coordinates":[1e400,2]}"#, "coordinates[0]", "1e400 is out of range", .invalidValue),
            (#"{"type":"Point","coordinates":[1,-1e999999999999]}"#, "coordinates[1]", "out of range", .invalidValue),
            (#"{"type":"Point","coordinates":[123456789012345678901234567890,2]}"#, "coordinates", "longitude 123456789012345678901234567890 is outside", .invalidValue),
            (#"{"type":"Point","coordinates":[10,91]}"#, "coordinates", "latitude 91 is outside -90...90", .invalidValue),
            (#"{"type":"Point","coordinates":[-180.5,0]}"#, "coordinates", "longitude -180.5 is outside", .invalidValue),
            (#"{"type":"LineString","coordinates":[[1,2]]}"#, "coordinates", "at least 2 positions, found 1", .invalidStructure),
            (#"{"type":"LineString","coordinates":[]}"#, "coordinates", "at least 2 positions, found 0", .invalidStructure),
            (#"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[[1,2]]]}"#, "coordinates[1]", "at least 2 positions", .invalidStructure),
            (#"{"type":"Polygon","coordinates":[\#(ring3)]}"#, "coordinates[0]", "at least 4 positions, found 3", .invalidStructure),
            (#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}"#, "coordinates[0]", "must end where it starts", .invalidStructure),
            (#"{"type":"Polygon","coordinates":[]}"#, "coordinates", "at least one linear ring", .invalidStructure),
            (#"{"type":"Polygon","coordinates":[[0,0],[1,0],[1,1],[0,0]]}"#, "coordinates[0][0]", "expected a position", .invalidStructure),
            (#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[0,0],[1,0],[1,1],[0,0]],\#(ring3)]]}"#,
             "coordinates[1][1]", "at least 4 positions", .invalidStructure),
            (#"{"type":"GeometryCollection"}"#, "top level", "needs a \"geometries\" member", .invalidStructure),
            (#"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[0,0]},{"type":"Feature"}]}"#,
             "geometries[1].type", "unknown geometry type \"Feature\"", .invalidStructure),
            (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":[1]}"#, "properties", "must be an object or null", .invalidStructure),
            (#"{"type":"Feature","geometry":5}"#, "geometry", "expected a geometry object or null, found a number", .invalidStructure),
            (#"{"type":"Feature","geometry":{"type":"FeatureCollection","features":[]}}"#, "geometry.type", "unknown geometry type", .invalidStructure),
            (#"{"type":"FeatureCollection"}"#, "top level", "needs a \"features\" member", .invalidStructure),
            (#"{"type":"FeatureCollection","features":{}}"#, "features", "expected an array of features", .invalidStructure),
            (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null},{"type":"Point","coordinates":[1,2]}]}"#,
             "features[1].type", "expected a Feature", .invalidStructure),
            (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null},{"type":"Feature","geometry":null},{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]],[[0,0],[1,0],[1,1],[0,91],[0,0]]]}}]}"#,
             "features[2].geometry.coordinates[1][3]", "latitude 91", .invalidValue),
            (#"{"type":"Point","coordinates":[1,2],"bbox":[1,2,3]}"#, "bbox", "2·n numbers", .invalidStructure),
            (#"{"type":"Point","coordinates":[1,2],"bbox":[1,2,"3",4]}"#, "bbox[2]", "expected a number", .invalidStructure),
            (#"{"a b":[1,}"#, "[\"a b\"][1]", "expected a value", .invalidJSON),
            ("{\"" + String(repeating: "k", count: 100_000) + "\":[1,}", "[\"" + String(repeating: "k", count: 60) + "…\"][1]", "expected a value", .invalidJSON),
        ]
        for (input, path, fragment, kind) in cases {
            guard let error = failure(input) else { continue }
            XCTAssertEqual(error.kind, kind, "\(input) → \(error.message)")
            XCTAssertTrue(error.message.hasPrefix(path + ":"), "\(input): expected path \(path) in \(error.message)")
            XCTAssertTrue(error.message.contains(fragment), "\(input): expected \(fragment) in \(error.message)")
        }
    }

    func testInvalidUTF8() {
        let cases: [[UInt8]] = [
            [0xC3],                     // truncated
            [0xC0, 0xAF],               // overlong
            [0xED, 0xA0, 0x80],         // surrogate
            [0xF4, 0x90, 0x80, 0x80],   // above U+10FFFF
            [0xFF],
            [0x80],
        ]
        for bad in cases {
            let data = Data(#"{"type":"Feature","geometry":null,"properties":{"name":""#.utf8) + Data(bad) + Data(#""}}"#.utf8)
            let error = failure(data)
            XCTAssertEqual(error?.kind, .invalidJSON)
            XCTAssertTrue(error?.message.hasPrefix("properties.name:") ?? false, error?.message ?? "")
            XCTAssertTrue(error?.message.contains("UTF-8") ?? false, error?.message ?? "")
        }
        // Valid multi-byte text passes.
        XCTAssertNoThrow(try parse(#"{"type":"Feature","geometry":null,"properties":{"name":"日本 😀 \ud83d\ude00 \ud800"}}"#))
    }

    func testDepthBombs() {
        // JSONSerialization on Linux refuses more than 512 levels with an error rather than crashing;
        // this reader has the same limit and never recurses on JSON nesting.
        for depth in [10_000, 1_000_000] {
            let bomb = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            XCTAssertThrowsError(try JSONSerialization.jsonObject(with: Data(bomb.utf8)))
            let error = failure(bomb)
            XCTAssertEqual(error?.kind, .tooDeep)
            XCTAssertTrue(error?.message.hasPrefix("[0][0][0]") ?? false, error?.message ?? "")
            XCTAssertTrue(error?.message.contains("nested more than 512 deep") ?? false)
        }
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        XCTAssertEqual(failure(objects)?.kind, .tooDeep)
        let inProperties = #"{"type":"Feature","geometry":null,"properties":{"x":"# + String(repeating: "[", count: 20_000)
        let error = failure(inProperties)
        XCTAssertEqual(error?.kind, .tooDeep)
        XCTAssertTrue(error?.message.hasPrefix("properties.x[0]") ?? false, error?.message ?? "")
        // Just under the limit is fine in properties.
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        XCTAssertNoThrow(try parse(#"{"type":"Feature","geometry":null,"properties":{"x":\#(deep)}}"#))
        // Nested geometry collections are capped separately.
        var collection = #"{"type":"Point","coordinates":[0,0]}"#
        for _ in 0..<GeoJSON.maximumGeometryCollectionDepth {
            collection = #"{"type":"GeometryCollection","geometries":[\#(collection)]}"#
        }
        XCTAssertNoThrow(try parse(collection))
        collection = #"{"type":"GeometryCollection","geometries":[\#(collection)]}"#
        let tooDeep = failure(collection)
        XCTAssertEqual(tooDeep?.kind, .tooDeep)
        XCTAssertTrue(tooDeep?.message.hasPrefix("geometries[0].geometries[0]") ?? false, tooDeep?.message ?? "")
    }

    func testErrorsCarryLineAndColumnForSyntax() {
        let error = failure("{\n  \"type\": \"Point\",\n  \"coordinates\": [1, 2x]\n}")
        XCTAssertEqual(error?.kind, .invalidJSON)
        XCTAssertTrue(error?.message.contains("line 3, column 23") ?? false, error?.message ?? "")
        XCTAssertEqual(error?.byteOffset, 43)
    }

    // MARK: Writing

    func testWriterOutput() throws {
        let feature = GeoJSONFeature(id: "7", idIsNumeric: true,
                                     geometry: .polygon([[p(0, 0), p(1, 0), p(1, 1)]]),
                                     properties: Data(#"{ "b": 1, "a": [true, null] }"#.utf8), bbox: [0, 0, 1, 1])
        let text = String(decoding: try GeoJSON.feature(feature).serialized(), as: UTF8.self)
        XCTAssertEqual(text, #"{"type":"Feature","id":7,"bbox":[0,0,1,1],"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]},"properties":{ "b": 1, "a": [true, null] }}"#)

        let stringID = GeoJSONFeature(id: "a\"b\n", geometry: .point(p(0.1, -1e-7, 12.5)))
        XCTAssertEqual(String(decoding: try GeoJSON.feature(stringID).serialized(), as: UTF8.self),
                       #"{"type":"Feature","id":"a\"b\n","geometry":{"type":"Point","coordinates":[0.1,-1e-07,12.5]},"properties":null}"#)
        // A "numeric" id that is not a number literal is written as a string.
        let odd = GeoJSONFeature(id: "12 ; drop", idIsNumeric: true, geometry: nil)
        XCTAssertTrue(String(decoding: try GeoJSON.feature(odd).serialized(), as: UTF8.self).contains(#""id":"12 ; drop""#))
    }

    func testWriterRefusesWhatIsNotJSON() {
        let nan = GeoJSON.geometry(.lineString([p(0, 0), p(.nan, 1)]))
        XCTAssertThrowsError(try nan.serialized()) { error in
            let e = error as? GeoJSONError
            XCTAssertEqual(e?.kind, .unwritable)
            XCTAssertEqual(e?.path, "coordinates[1][0]")
        }
        let badProperties = GeoJSON.featureCollection([
            GeoJSONFeature(geometry: nil),
            GeoJSONFeature(geometry: nil, properties: Data("[1,2]".utf8)),
        ])
        XCTAssertThrowsError(try badProperties.serialized()) { error in
            XCTAssertEqual((error as? GeoJSONError)?.path, "features[1].properties")
        }
        let truncated = GeoJSON.feature(GeoJSONFeature(geometry: nil, properties: Data(#"{"a":"#.utf8)))
        XCTAssertThrowsError(try truncated.serialized())
    }

    func testRoundTrip() throws {
        let text = #"""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","id":1,"properties":{"name":"a","list":[1,2.5e10,{"deep":null}]},
           "geometry":{"type":"GeometryCollection","geometries":[
             {"type":"Point","coordinates":[-122.41941550000001,37.774929,-12.25]},
             {"type":"MultiPoint","coordinates":[[0,0],[1,1]]},
             {"type":"LineString","coordinates":[[179.5,0],[-179.5,1]]},
             {"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2],[3,3]]]},
             {"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[2,4],[4,4],[2,2]]]},
             {"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]]}]}},
          {"type":"Feature","id":"x","bbox":[-180,-90,180,90],"geometry":null,"properties":null}]}
        """#
        let first = try parse(text)
        let written = try first.serialized()
        let second = try GeoJSON.parse(written)
        XCTAssertEqual(first, second)
        XCTAssertEqual(try second.serialized(), written)
        // The writer's output is JSON that Foundation reads too.
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: written))
    }

    func testLargeLineString() throws {
        var text = #"{"type":"LineString","coordinates":["#
        for i in 0..<100_000 {
            if i > 0 { text += "," }
            text += "[\(Double(i) * 0.0017 - 170),\(Double(i % 1000) * 0.081 - 40)]"
        }
        text += "]}"
        guard case .geometry(.lineString(let positions)) = try parse(text) else { return XCTFail() }
        XCTAssertEqual(positions.count, 100_000)
        XCTAssertEqual(positions[99_999].longitude, 99_999 * 0.0017 - 170)
    }
}
