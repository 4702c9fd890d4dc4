import Foundation
import MapFormats
import XCTest

final class SpillFileTests: XCTestCase {
    func testAppendsAcrossChunksReadBackAfterSealing() throws {
        var spill = try SpillFile(directory: NSTemporaryDirectory(), chunkSize: 1000)
        var expected: [UInt8] = []
        var offsets: [Int] = []
        for i in 0..<500 {
            let bytes = (0..<(i % 37)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) }
            offsets.append(try spill.append(bytes))
            expected.append(contentsOf: bytes)
        }
        XCTAssertEqual(try spill.append(value: UInt32(0xDEAD_BEEF)), expected.count)
        expected.append(contentsOf: [0xEF, 0xBE, 0xAD, 0xDE])
        XCTAssertEqual(spill.count, expected.count)
        XCTAssertFalse(spill.isSealed)
        try spill.seal()
        XCTAssertTrue(spill.isSealed)
        spill.withBytes { XCTAssertEqual(Array($0), expected) }
        XCTAssertEqual(offsets[100], (0..<100).reduce(0) { $0 + $1 % 37 })
        spill.releaseResidentPages()
        spill.withBytes { XCTAssertEqual(Array($0), expected, "released pages read back from the file") }
    }

    func testTheFileIsUnlinkedAtOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spill-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var spill = try SpillFile(directory: directory.path)
        try spill.append([1, 2, 3])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [], "nothing to leave behind if the process dies")
        try spill.seal()
        spill.withBytes { XCTAssertEqual(Array($0), [1, 2, 3]) }
    }

    func testAnEmptySpillSealsAndReadsEmpty() throws {
        var spill = try SpillFile(directory: NSTemporaryDirectory())
        try spill.seal()
        spill.withBytes { XCTAssertEqual($0.count, 0) }
    }

    func testAnUnwritableDirectoryIsATypedError() {
        do {
            _ = try SpillFile(directory: "/nonexistent/openmapkit")
            XCTFail("created a scratch file in a missing directory")
        } catch {
            XCTAssertTrue("\(error)".contains("/nonexistent/openmapkit"), "\(error)")
        }
    }
}
