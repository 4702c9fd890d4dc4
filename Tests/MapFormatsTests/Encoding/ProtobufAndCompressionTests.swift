import Foundation
import XCTest
@testable import MapFormats
import TestSupport

final class ProtobufAndCompressionTests: XCTestCase {
    /// CRC-32's published check value, and the CRC a gzip stream carries in its trailer.
    func testCRC32() throws {
        XCTAssertEqual(Compression.crc32(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(Compression.crc32([UInt8]()), 0)
        let text = Array("OpenMapKit draws maps".utf8)
        let gzip = try Compression.deflate(text, container: .gzip)
        let trailer = gzip[(gzip.count - 8)..<(gzip.count - 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        XCTAssertEqual(Compression.crc32(text), trailer)
    }

    func testVarintsZigzagAndFields() throws {
        var writer = ProtobufWriter()
        writer.writeVarintField(1, 150)                 // the protobuf guide's example: 08 96 01
        writer.writeSInt64Field(2, -3)
        writer.writeStringField(3, "testing")
        writer.writeFixed32Field(4, 0xDEADBEEF)
        writer.writeDoubleField(5, 43.7384)
        writer.writePackedVarints(6, [1, 300, UInt64.max])
        XCTAssertEqual(Array(writer.bytes.prefix(3)), [0x08, 0x96, 0x01])

        try writer.bytes.withUnsafeBytes { raw in
            var reader = ProtobufReader(raw)
            var seen: [Int] = []
            while let (field, wireType) = try reader.nextField() {
                seen.append(field)
                switch field {
                case 1: XCTAssertEqual(try reader.readVarint(), 150)
                case 2: XCTAssertEqual(try reader.readSInt64(), -3)
                case 3: XCTAssertEqual(try reader.readString(), "testing")
                case 4: XCTAssertEqual(try reader.readFixed32(), 0xDEADBEEF)
                case 5: XCTAssertEqual(try reader.readDouble(), 43.7384)
                case 6:
                    var values: [UInt64] = []
                    try reader.forEachPackedVarint { values.append($0) }
                    XCTAssertEqual(values, [1, 300, UInt64.max])
                default: try reader.skip(wireType)
                }
            }
            XCTAssertEqual(seen, [1, 2, 3, 4, 5, 6])
        }
        XCTAssertEqual(ProtobufWriter.zigzag(-1), 1)
        XCTAssertEqual(ProtobufWriter.zigzag(1), 2)
        XCTAssertEqual(ProtobufWriter.zigzag(Int64.min), UInt64.max)
    }

    func testHostileWireData() {
        let cases: [([UInt8], ProtobufError.Reason, Int)] = [
            ([0x08], .truncated, 1),                                   // key, then nothing
            ([0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], .varintTooLong, 1),
            ([0x0B], .invalidWireType(3), 0),                           // start group
            ([0x00], .invalidFieldNumber, 0),
            ([0x0A, 0x05, 0x01], .lengthOutOfBounds(5), 1),
            ([0x0D, 0x01, 0x02], .truncated, 1),                        // fixed32 cut short
        ]
        for (bytes, reason, offset) in cases {
            bytes.withUnsafeBytes { raw in
                var reader = ProtobufReader(raw)
                do {
                    while let (_, wireType) = try reader.nextField() { try reader.skip(wireType) }
                    XCTFail("\(bytes) did not fail")
                } catch let error as ProtobufError {
                    XCTAssertEqual(error.reason, reason, "\(bytes)")
                    XCTAssertEqual(error.offset, offset, "\(bytes)")
                } catch {
                    XCTFail("untyped \(error)")
                }
            }
        }
    }

    func testCompressionRoundTrips() throws {
        let text = Array(String(repeating: "OpenStreetMap contributors ", count: 200).utf8)
        for container in [Compression.Container.gzip, .zlib, .raw] {
            let packed = try Compression.deflate(text, container: container)
            XCTAssertLessThan(packed.count, text.count / 10)
            let automatic: Compression.Container = container == .raw ? .raw : .automatic
            XCTAssertEqual(try Compression.inflate(packed, container: automatic), text)
            XCTAssertEqual(try Compression.inflate(packed, container: automatic, expectedSize: 3), text)
        }
        XCTAssertTrue(try Compression.deflate(text).withUnsafeBytes(Compression.isGzip))
    }

    /// libdeflate's whole-buffer zlib streams inflate with zlib to the input.
    func testWholeBufferZlibDeflateRoundTrips() throws {
        var random = SplitMix64(seed: 7)
        // Runs of repeated bytes between noise, like image rows: some compress, some do not.
        var input: [UInt8] = []
        while input.count < 300_001 {
            let byte = UInt8(truncatingIfNeeded: random.next())
            input += random.next() % 3 == 0 ? [byte] : [UInt8](repeating: byte, count: Int(random.next() % 300))
        }
        for level: Int32 in [0, 1, 6, 12] {
            let packed = try input.withUnsafeBytes { try Compression.wholeBufferZlibDeflate($0, level: level) }
            XCTAssertEqual(try Compression.inflate(packed, container: .zlib), input, "level \(level)")
            if level > 0 { XCTAssertLessThan(packed.count, input.count / 2) }
        }
        XCTAssertEqual(try Compression.inflate([UInt8]().withUnsafeBytes { try Compression.wholeBufferZlibDeflate($0, level: 1) },
                                               container: .zlib), [])
    }

    func testCorruptAndOversizedInput() throws {
        let packed = try Compression.deflate(Array(repeating: UInt8(0), count: 100_000), container: .zlib)
        XCTAssertThrowsError(try Compression.inflate(Array(packed.prefix(packed.count / 2)), container: .zlib))
        XCTAssertThrowsError(try Compression.inflate([0x78, 0x9C, 0xFF, 0xFF, 0x00], container: .zlib))
        XCTAssertThrowsError(try Compression.inflate(packed, container: .zlib, limit: 1000)) // a bomb is refused
        XCTAssertThrowsError(try Compression.inflate([UInt8](), container: .zlib))
        XCTAssertThrowsError(try [UInt8](repeating: 7, count: 10).withUnsafeBytes {
            try Compression.lz4Decompress($0, decompressedSize: 100)
        })
        XCTAssertThrowsError(try [UInt8](repeating: 7, count: 10).withUnsafeBytes {
            try Compression.zstdDecompress($0, decompressedSize: 100)
        })
    }
}
