import Foundation
import TestSupport
import XCTest
@testable import MapFormats

/// Reading relations alone from a file declared sorted by type then id decodes only the file's
/// tail, and delivers exactly what a full forward scan finds.
final class OSMPBFRelationTailTests: XCTestCase {
    /// A relation with everything compared, tags flattened so that it is Equatable.
    struct Relation: Equatable, CustomStringConvertible {
        var id: Int64
        var members: [OSMRelation.Member]
        var tags: [String]

        init(_ relation: OSMRelation) {
            id = relation.id
            members = relation.members
            tags = relation.tags.map { "\($0.key)=\($0.value)" }
        }

        var description: String { "relation \(id)" }
    }

    /// The relations delivered by `forEachBlock`, in delivery order, and the scan's summary.
    func relations(_ url: URL, kinds: OSMEntityKinds, concurrency: Int) throws -> ([Relation], OSMPBFScanSummary) {
        var result: [Relation] = []
        var previous = -1
        let summary = try OSMPBFReader(url: url).forEachBlock(options: OSMPBFReadOptions(kinds: kinds), concurrency: concurrency) { block in
            XCTAssertGreaterThan(block.sequenceNumber, previous, "blocks arrive in file order")
            previous = block.sequenceNumber
            block.forEachRelation { result.append(Relation($0)) }
        }
        return (result, summary)
    }

    /// The frames of a whole file, walked by their headers.
    func framing(_ url: URL) throws -> [OSMPBFFrameHeader] {
        let file = try OSMPBFFile(path: url.path)
        var frames: [OSMPBFFrameHeader] = []
        while let frame = try OSMPBFFrameHeader.read(from: file, at: frames.last?.nextOffset ?? 0, index: frames.count) {
            frames.append(frame)
        }
        return frames
    }

    /// Where this process's test files go; removed when the tests of this class are done.
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("OSMPBFRelationTailTests-\(getpid())")

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func temporaryFile(_ bytes: [UInt8], _ name: String) throws -> URL {
        let folder = Self.folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// The bundled extracts are sorted but do not say so: a copy whose header declares
    /// `Sort.Type_then_ID`, with the data blobs byte for byte.
    func declaredSorted(_ name: String) throws -> (url: URL, bytes: [UInt8]) {
        let original = OSMPBFTests.url(name)
        let file = try OSMPBFFile(path: original.path)
        let header = try XCTUnwrap(try OSMPBFFrame.read(from: file, at: 0, index: 0))
        var feature = ProtobufWriter()
        feature.writeStringField(5, "Sort.Type_then_ID")
        // Appending a field to a message keeps the others.
        let payload = try header.decompressed() + feature.bytes
        let data = [UInt8](try Data(contentsOf: original))
        let bytes = OSMPBFTests.frame(type: "OSMHeader", blob: OSMPBFTests.rawBlob(payload)) + data[header.nextOffset...]
        let url = try temporaryFile(bytes, "sorted-\(name)")
        XCTAssertFalse(try OSMPBFReader(url: original).header.isSortedByTypeThenID, "\(name) now declares its sorting: test it as is")
        XCTAssertTrue(try OSMPBFReader(url: url).header.isSortedByTypeThenID)
        return (url, bytes)
    }

    func testRelationTailMatchesAForwardScanOnRealExtracts() throws {
        for name in OSMPBFTests.extracts {
            let (url, _) = try declaredSorted(name)
            let (forward, full) = try relations(url, kinds: .all, concurrency: 2)
            let (unsorted, unsortedSummary) = try relations(OSMPBFTests.url(name), kinds: .relations, concurrency: 2)
            XCTAssertGreaterThan(forward.count, 0, name)
            XCTAssertEqual(unsorted, forward, name)
            XCTAssertEqual(unsortedSummary.blocks, full.blocks, "\(name): undeclared sorting reads every block")
            for concurrency in [1, 3] {
                let (tail, summary) = try relations(url, kinds: .relations, concurrency: concurrency)
                XCTAssertEqual(tail, forward, "\(name), concurrency \(concurrency)")
                XCTAssertEqual(summary.relations, full.relations, name)
                XCTAssertEqual([summary.nodes, summary.ways, summary.skippedBlobs], [0, 0, full.skippedBlobs], name)
                XCTAssertLessThan(summary.blocks, full.blocks, "\(name): only blocks with relations are delivered")
            }
            let reader = try OSMPBFReader(url: url)
            let tail = try reader.relationTail(options: OSMPBFReadOptions(kinds: .relations), concurrency: 1)
            XCTAssertEqual(tail.blocks.map(\.sequenceNumber), Array((full.blocks - tail.blocks.count)..<full.blocks), name)
            // Andorra's last block holds ways and relations: it is the boundary and the whole tail.
            XCTAssertGreaterThanOrEqual(tail.decodedBlobs, tail.blocks.count, name)
            XCTAssertLessThan(tail.decodedBlobs, full.blocks, name)
            print("relation tail \(name): decoded \(tail.decodedBlobs) of \(full.blocks) data blobs, delivered \(tail.blocks.count)")
        }
    }

    /// Blob offsets and indices of the delivered blocks are the file's, as in a forward scan.
    func testTailBlocksKeepTheirPlaceInTheFile() throws {
        let (url, _) = try declaredSorted("liechtenstein.osm.pbf")
        let reader = try OSMPBFReader(url: url)
        var forward: [Int: (Int, Int)] = [:]
        try reader.forEachBlock(options: OSMPBFReadOptions(kinds: .ways)) { forward[$0.sequenceNumber] = ($0.blobIndex, $0.blobOffset) }
        var delivered = 0
        try reader.forEachBlock(options: OSMPBFReadOptions(kinds: .relations)) { block in
            delivered += 1
            XCTAssertGreaterThan(block.relations.count, 0)
            XCTAssertEqual(block.ways.count + block.nodes.count, 0)
            let place = try XCTUnwrap(forward[block.sequenceNumber])
            XCTAssertEqual(block.blobIndex, place.0)
            XCTAssertEqual(block.blobOffset, place.1)
        }
        XCTAssertGreaterThan(delivered, 0)
    }

    // MARK: Crafted files

    static func header(sorted: Bool) -> [UInt8] {
        var header = ProtobufWriter()
        for feature in ["OsmSchema-V0.6", "DenseNodes"] { header.writeStringField(4, feature) }
        if sorted { header.writeStringField(5, "Sort.Type_then_ID") }
        return header.bytes
    }

    static func nodes(_ ids: [Int64]) -> [UInt8] {
        OSMPBFTests.primitiveBlock(strings: [""], OSMPBFTests.dense(ids: ids, lats: ids.map { _ in 1 }, lons: ids.map { _ in 2 }))
    }

    static func way(_ id: UInt64) -> (inout ProtobufWriter) -> Void {
        { group in group.writeMessageField(3) { way in way.writeVarintField(1, id) } }
    }

    static func relation(_ id: UInt64) -> (inout ProtobufWriter) -> Void {
        { group in
            group.writeMessageField(4) { relation in
                relation.writeVarintField(1, id)
                relation.writePackedVarints(8, [1])
                relation.writePackedVarints(9, [ProtobufWriter.zigzag(7)])
                relation.writePackedVarints(10, [1])
            }
        }
    }

    /// A block of one group per builder.
    static func block(_ groups: ((inout ProtobufWriter) -> Void)...) -> [UInt8] {
        var block = ProtobufWriter()
        block.writeMessageField(1) { table in for s in ["", "outer"] { table.writeStringField(1, s) } }
        for group in groups { block.writeMessageField(2, group) }
        return block.bytes
    }

    /// The last block holding a way also holds the first relations: it is delivered, and
    /// nothing before it is decoded.
    func testMixedBoundaryBlock() throws {
        let blocks = [Self.nodes([1, 2]), Self.block(Self.way(5)), Self.block(Self.way(6), Self.relation(10)),
                      Self.block(Self.relation(11), Self.relation(12))]
        let url = try temporaryFile(OSMPBFTests.file(header: Self.header(sorted: true), blocks: blocks), "mixed.osm.pbf")
        let reader = try OSMPBFReader(url: url)
        let tail = try reader.relationTail(options: OSMPBFReadOptions(kinds: .relations), concurrency: 1)
        XCTAssertEqual(tail.blocks.map(\.sequenceNumber), [2, 3])
        XCTAssertEqual(tail.decodedBlobs, 2)
        for concurrency in [1, 4] {
            let (relations, summary) = try relations(url, kinds: .relations, concurrency: concurrency)
            XCTAssertEqual(relations.map(\.id), [10, 11, 12])
            XCTAssertEqual(relations.first?.members, [OSMRelation.Member(type: .way, ref: 7, role: "outer")])
            XCTAssertEqual(summary.blocks, 2)
            XCTAssertEqual(summary.relations, 3)
        }
    }

    /// Relations over several blocks, then a block without elements: all are found, at any
    /// concurrency, and the empty block neither stops the walk nor is delivered.
    func testTailOverSeveralBlocks() throws {
        let blocks = [Self.nodes([1]), Self.block(Self.way(5)), Self.block(Self.way(6)), Self.block(Self.relation(10)),
                      Self.block(Self.relation(11)), Self.block(Self.relation(12), Self.relation(13)), Self.block()]
        let url = try temporaryFile(OSMPBFTests.file(header: Self.header(sorted: true), blocks: blocks), "several.osm.pbf")
        let tail = try OSMPBFReader(url: url).relationTail(options: OSMPBFReadOptions(kinds: .relations), concurrency: 1)
        XCTAssertEqual(tail.blocks.map(\.sequenceNumber), [3, 4, 5])
        XCTAssertEqual(tail.decodedBlobs, 5)
        for concurrency in [1, 2, 3, 8] {
            let (relations, summary) = try relations(url, kinds: .relations, concurrency: concurrency)
            XCTAssertEqual(relations.map(\.id), [10, 11, 12, 13], "concurrency \(concurrency)")
            XCTAssertEqual(summary.blocks, 3)
        }
    }

    /// Without the promise, relations before the last way block are still found: the file is
    /// read forward in full.
    func testUndeclaredSortingReadsEveryBlock() throws {
        let blocks = [Self.block(Self.relation(10)), Self.nodes([1]), Self.block(Self.way(5)), Self.block(Self.relation(11))]
        let bytes = OSMPBFTests.file(header: Self.header(sorted: false), blocks: blocks)
        let url = try temporaryFile(bytes, "unsorted.osm.pbf")
        for concurrency in [1, 4] {
            let (relations, summary) = try relations(url, kinds: .relations, concurrency: concurrency)
            XCTAssertEqual(relations.map(\.id), [10, 11])
            XCTAssertEqual(summary.blocks, 4)
        }
    }

    // MARK: Faults

    /// The error the forward scan of every kind throws on `bytes`, which may not declare sorting.
    func forwardError(_ url: URL) -> OSMPBFError? {
        do {
            try OSMPBFReader(url: url).forEachBlock(options: OSMPBFReadOptions(kinds: .all), concurrency: 1) { _ in }
            return nil
        } catch {
            return error as? OSMPBFError
        }
    }

    func tailError(_ url: URL, concurrency: Int) -> Error? {
        do {
            try OSMPBFReader(url: url).forEachBlock(options: OSMPBFReadOptions(kinds: .relations), concurrency: concurrency) { _ in }
            return nil
        } catch {
            return error
        }
    }

    /// Cuts anywhere, in a frame header or a blob, fail as the forward scan does: the header walk
    /// finds them before any blob is decoded.
    func testTruncatedSortedFileThrowsTypedErrors() throws {
        let (sorted, bytes) = try declaredSorted("monaco.osm.pbf")
        let frames = try framing(sorted)
        var cuts = Set<Int>([bytes.count - 1, bytes.count - 100])
        for f in frames.dropFirst() { cuts.formUnion([f.offset + 2, f.offset + 5, f.blobStart + f.blobSize / 2]) }
        for cut in cuts.sorted() {
            let url = try temporaryFile(Array(bytes[..<cut]), "truncated.osm.pbf")
            let containing = frames.last { $0.offset < cut }!
            let expected = try XCTUnwrap(forwardError(url), "cut \(cut)")
            for concurrency in [1, 3] {
                let error = tailError(url, concurrency: concurrency)
                guard let pbf = error as? OSMPBFError else { XCTFail("cut \(cut): \(String(describing: error))"); continue }
                guard case .truncated = pbf.reason else { XCTFail("cut \(cut): \(pbf)"); continue }
                XCTAssertEqual(pbf.blobOffset, containing.offset, "cut \(cut)")
                XCTAssertEqual(pbf, expected, "cut \(cut)")
            }
        }
    }

    /// A broken blob in the tail fails with the error the forward scan gives for it.
    func testCorruptTailBlobThrowsTheForwardError() throws {
        var (sorted, bytes) = try declaredSorted("monaco.osm.pbf")
        let last = try XCTUnwrap(try framing(sorted).last)
        for i in (last.nextOffset - 40)..<(last.nextOffset - 20) { bytes[i] ^= 0x5A }
        let url = try temporaryFile(bytes, "corrupt.osm.pbf")
        let expected = try XCTUnwrap(forwardError(url))
        XCTAssertEqual(expected.blobOffset, last.offset)
        for concurrency in [1, 3] {
            XCTAssertEqual(tailError(url, concurrency: concurrency) as? OSMPBFError, expected)
        }
        print("corrupt relation tail: \(expected)")
    }
}
