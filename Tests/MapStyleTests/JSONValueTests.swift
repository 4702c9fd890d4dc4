import MapStyle
import XCTest

final class JSONValueTests: XCTestCase {
    func testParsesKeepingOrderAndLines() throws {
        let document = """
        {
          "b": [1, 2.5, -3e2, true, null],
          "a": {"x": "\\u00e9\\ud83d\\ude00\\n"},
          "b": "last wins"
        }
        """
        let value = try JSONValue.parse(document)
        let object = try XCTUnwrap(value.objectValue)
        XCTAssertEqual(object.keys, ["b", "a"], "document order; a repeated key keeps its first place")
        XCTAssertEqual(object["b"], .string("last wins"))
        XCTAssertEqual(object.line(of: "a"), 3)
        XCTAssertEqual(value["a"]?["x"], .string("é😀\n"))
        XCTAssertEqual(try JSONValue.parse("[1, 2.5, -3e2, true, null]"), .array([.number(1), .number(2.5), .number(-300), .bool(true), .null]))
    }

    func testBadDocumentsAreTypedErrorsWithPositions() {
        for (text, line) in [("{\"a\": }", 1), ("[1,\n2,\n]", 3), ("\"open", 1), ("{} extra", 1), ("01x", 1), ("", 1),
                             (String(repeating: "[", count: 600), 1)] {
            XCTAssertThrowsError(try JSONValue.parse(text), text) { error in
                XCTAssertEqual((error as? JSONParseError)?.line, line, "\(text): \(error)")
            }
        }
    }
}
