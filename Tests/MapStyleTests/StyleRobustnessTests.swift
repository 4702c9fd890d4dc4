import Foundation
import MapStyle
import TestSupport
import XCTest

/// Style documents come from the network: any mutation of a valid document must give messages,
/// never a crash, and a document that validates must load.
final class StyleRobustnessTests: XCTestCase {
    func testMutatedDocumentsNeverCrash() throws {
        let directory = TestData.shared("conformance/style-spec")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".input.json") }.sorted()
        let documents = try names.map { try JSONValue.parse([UInt8](Data(contentsOf: directory.appendingPathComponent($0)))) }
        XCTAssertFalse(documents.isEmpty)
        var random = SplitMix64(seed: 0x5717_1E)
        var loaded = 0
        for round in 0..<1000 {
            var document = documents[round % documents.count]
            for _ in 0..<Int.random(in: 1...3, using: &random) { document = mutate(document, &random, depth: 0) }
            let problems = Style.validate(document)
            XCTAssertTrue(problems.allSatisfy { !$0.message.isEmpty })
            if let style = try? Style(json: document) {
                loaded += 1
                XCTAssertEqual(style.version, 8)
            }
        }
        XCTAssertGreaterThan(loaded, 0, "some mutations should leave a loadable document")
    }

    func testDeeplyNestedValues() {
        let deep = String(repeating: "[", count: 400) + String(repeating: "]", count: 400)
        let text = """
        {"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background",
         "filter": \(deep), "paint": {"background-opacity": \(deep)}}]}
        """
        XCTAssertFalse(Style.validate(text: text).isEmpty)
    }

    private func mutate(_ value: JSONValue, _ random: inout SplitMix64, depth: Int) -> JSONValue {
        let replaceHere = depth > 0 && random.next() % 4 == 0
        switch value {
        case .object(var object) where !replaceHere && object.count > 0:
            let key = object.keys[Int(random.next() % UInt64(object.count))]
            object.set(key, mutate(object[key]!, &random, depth: depth + 1), line: object.line(of: key) ?? 0)
            return .object(object)
        case .array(var array) where !replaceHere && !array.isEmpty:
            let index = Int(random.next() % UInt64(array.count))
            array[index] = mutate(array[index], &random, depth: depth + 1)
            return .array(array)
        default:
            return randomValue(&random, depth: 0)
        }
    }

    private func randomValue(_ random: inout SplitMix64, depth: Int) -> JSONValue {
        let strings = ["", "{name}", "#fff", "red", "get", "zoom", "interpolate", "case", "==", "$type", "identity",
                       "categorical", "vector", "raster-dem", "fill", "symbol", "none", "rgba(1,2,3,4)", "__proto__"]
        switch random.next() % (depth > 2 ? 5 : 8) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .number([-1e300, -1, 0, 0.33, 1, 8, 24, 1e21, 1e-7][Int(random.next() % 9)])
        case 3, 4: return .string(strings[Int(random.next() % UInt64(strings.count))])
        case 5: return .array([])
        case 6: return .array((0..<Int(random.next() % 5)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            let keys = ["stops", "type", "property", "base", "default", "zoom", "value", "id", "source"]
            return .object(JSONObject((0..<Int(random.next() % 4)).map { _ in
                (keys[Int(random.next() % UInt64(keys.count))], randomValue(&random, depth: depth + 1))
            }))
        }
    }
}
