import CLZ4
import CZstd
import Foundation
import TestSupport
import XCTest
@testable import MapFormats

/// The OSM PBF reader against osmium on real extracts, and against hostile files built here.
final class OSMPBFTests: XCTestCase {
    static let dataFolder = TestData.shared("data/osm")
    static let extracts = ["monaco.osm.pbf", "andorra.osm.pbf", "liechtenstein.osm.pbf"]

    static func url(_ name: String) -> URL { dataFolder.appendingPathComponent(name) }

    // MARK: Helpers

    /// Runs a reference tool and returns its standard output; a missing or failing tool fails the test.
    func run(_ arguments: [String]) throws -> Data {
        let result = try runProcess(arguments[0], Array(arguments.dropFirst()))
        guard result.status == 0 else {
            XCTFail("`\(arguments.joined(separator: " "))` failed with status \(result.status) (is osmium-tool installed? make test installs it): \(result.stderr)")
            throw CocoaError(.executableLoad)
        }
        return result.standardOutput
    }

    func requireOsmium() throws {
        let found = FileManager.default.isExecutableFile(atPath: "/usr/bin/osmium")
            || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/osmium")
        guard found else {
            XCTFail("osmium is not installed: `apt-get install osmium-tool` (the Makefile's test dependencies include it)")
            throw XCTSkip("osmium missing")
        }
    }

    struct Totals: Equatable {
        var nodes = 0, ways = 0, relations = 0
        var nodeTags = 0, wayTags = 0, relationTags = 0
        var refs = 0, members = 0
        var checksum: Int64 = 0
    }

    func totals(_ url: URL, options: OSMPBFReadOptions = OSMPBFReadOptions(), concurrency: Int = 2) throws -> Totals {
        let reader = try OSMPBFReader(url: url)
        var t = Totals()
        try reader.forEachBlock(options: options, concurrency: concurrency) { block in
            t.nodes += block.nodes.count
            t.ways += block.ways.count
            t.relations += block.relations.count
            t.nodeTags += block.nodes.tags.count
            t.wayTags += block.ways.tags.count
            t.relationTags += block.relations.tags.count
            t.refs += block.ways.refs.count
            t.members += block.relations.memberRefs.count
            for (i, id) in block.nodes.ids.enumerated() {
                t.checksum = t.checksum &* 31 &+ id &+ Int64(block.nodes.locations[i].latitudeE7)
            }
            for r in block.ways.refs { t.checksum = t.checksum &* 31 &+ r }
        }
        return t
    }

    /// The framing of a file: (offset, length) of each blob's frame.
    func frames(_ bytes: [UInt8]) -> [(offset: Int, length: Int)] {
        var result: [(Int, Int)] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            let headerLength = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            var dataSize = 0
            bytes.withUnsafeBytes { raw in
                var reader = ProtobufReader(UnsafeRawBufferPointer(rebasing: raw[(offset + 4)..<(offset + 4 + headerLength)]))
                while let (field, wire) = try? reader.nextField() {
                    if field == 3 { dataSize = Int((try? reader.readVarint()) ?? 0) } else { try? reader.skip(wire) }
                }
            }
            result.append((offset, 4 + headerLength + dataSize))
            offset += 4 + headerLength + dataSize
        }
        return result
    }

    static func frame(type: String, blob: [UInt8], dataSize: Int? = nil) -> [UInt8] {
        var header = ProtobufWriter()
        header.writeStringField(1, type)
        header.writeVarintField(3, UInt64(bitPattern: Int64(dataSize ?? blob.count)))
        let n = header.bytes.count
        return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header.bytes + blob
    }

    static func rawBlob(_ payload: [UInt8]) -> [UInt8] {
        var blob = ProtobufWriter()
        blob.writeBytesField(1, payload)
        return blob.bytes
    }

    static func zlibBlob(_ payload: [UInt8], rawSize: Int?) throws -> [UInt8] {
        var blob = ProtobufWriter()
        if let rawSize { blob.writeVarintField(2, UInt64(rawSize)) }
        blob.writeBytesField(3, try Compression.deflate(payload, container: .zlib))
        return blob.bytes
    }

    static func headerBlock(required: [String] = ["OsmSchema-V0.6", "DenseNodes"]) -> [UInt8] {
        var header = ProtobufWriter()
        header.writeMessageField(1) { box in
            box.writeSInt64Field(1, 7_000_000_000)
            box.writeSInt64Field(2, 8_000_000_000)
            box.writeSInt64Field(3, 44_000_000_000)
            box.writeSInt64Field(4, 43_000_000_000)
        }
        for feature in required { header.writeStringField(4, feature) }
        header.writeStringField(5, "Sort.Type_then_ID")
        header.writeStringField(16, "OSMPBFTests")
        header.writeVarintField(32, 1_600_000_000)
        return header.bytes
    }

    /// A PrimitiveBlock with a string table and one group built by `group`.
    static func primitiveBlock(strings: [String], granularity: Int? = nil, latOffset: Int64? = nil,
                               _ group: (inout ProtobufWriter) -> Void) -> [UInt8] {
        var block = ProtobufWriter()
        block.writeMessageField(1) { table in for s in strings { table.writeStringField(1, s) } }
        block.writeMessageField(2, group)
        if let granularity { block.writeVarintField(17, UInt64(granularity)) }
        if let latOffset { block.writeVarintField(19, UInt64(bitPattern: latOffset)) }
        return block.bytes
    }

    static func dense(ids: [Int64], lats: [Int64], lons: [Int64], keysVals: [UInt64]? = nil) -> (inout ProtobufWriter) -> Void {
        func deltas(_ values: [Int64]) -> [UInt64] {
            var previous: Int64 = 0
            return values.map { v in defer { previous = v }; return ProtobufWriter.zigzag(v &- previous) }
        }
        return { group in
            group.writeMessageField(2) { dense in
                dense.writePackedVarints(1, deltas(ids))
                dense.writePackedVarints(8, deltas(lats))
                dense.writePackedVarints(9, deltas(lons))
                if let keysVals { dense.writePackedVarints(10, keysVals) }
            }
        }
    }

    /// A file of a header blob and data blobs holding `blocks`.
    static func file(header: [UInt8] = headerBlock(), blocks: [[UInt8]]) -> [UInt8] {
        var bytes = frame(type: "OSMHeader", blob: rawBlob(header))
        for block in blocks { bytes += frame(type: "OSMData", blob: rawBlob(block)) }
        return bytes
    }

    /// Where this process's test files go; removed when the tests of this class are done.
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("OSMPBFTests-\(getpid())")

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func temporaryFile(_ bytes: [UInt8], _ name: String = "case.osm.pbf") throws -> URL {
        let folder = Self.folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Reads a whole file; returns the error it throws, or nil if it reads cleanly.
    func readError(_ url: URL, concurrency: Int = 2) -> Error? {
        do {
            let reader = try OSMPBFReader(url: url)
            try reader.forEachBlock(concurrency: concurrency) { _ in }
            return nil
        } catch {
            return error
        }
    }

    func expectReason(_ bytes: [UInt8], _ check: (OSMPBFError.Reason) -> Bool, _ label: String,
                      file: StaticString = #filePath, line: UInt = #line) throws {
        let url = try temporaryFile(bytes)
        guard let error = readError(url) else { return XCTFail("\(label): no error", file: file, line: line) }
        guard let pbf = error as? OSMPBFError else { return XCTFail("\(label): untyped \(error)", file: file, line: line) }
        XCTAssertTrue(check(pbf.reason), "\(label): \(pbf)", file: file, line: line)
        print("hostile \(label): \(pbf)")
    }

    // MARK: Real extracts against osmium

    func testCountsAndHeaderMatchOsmium() throws {
        try requireOsmium()
        for name in Self.extracts {
            let url = Self.url(name)
            let json = try run(["osmium", "fileinfo", "-e", "-j", url.path])
            let info = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
            let data = try XCTUnwrap(info["data"] as? [String: Any])
            let count = try XCTUnwrap(data["count"] as? [String: Int])
            let t = try totals(url)
            XCTAssertEqual(t.nodes, count["nodes"], name)
            XCTAssertEqual(t.ways, count["ways"], name)
            XCTAssertEqual(t.relations, count["relations"], name)

            let reader = try OSMPBFReader(url: url)
            let header = try XCTUnwrap(info["header"] as? [String: Any])
            let boxes = try XCTUnwrap(header["boxes"] as? [[Double]])
            if boxes.isEmpty {
                XCTAssertNil(reader.header.boundingBox, name)   // liechtenstein's header has none
            } else {
                let box = try XCTUnwrap(reader.header.boundingBox, name)
                XCTAssertEqual(boxes.count, 1)
                for (ours, theirs) in zip([box.minLongitude, box.minLatitude, box.maxLongitude, box.maxLatitude], boxes[0]) {
                    XCTAssertEqual(ours, theirs, accuracy: 1e-7, name)
                }
            }
            let options = try XCTUnwrap(header["option"] as? [String: String])
            XCTAssertEqual(reader.header.writingProgram, options["generator"], name)
            if let sequence = options["osmosis_replication_sequence_number"] {
                XCTAssertEqual(reader.header.replicationSequenceNumber.map(String.init), sequence, name)
            }
            if let base = options["osmosis_replication_base_url"] { XCTAssertEqual(reader.header.replicationBaseURL, base, name) }

            // The data bounding box over all node locations.
            var minLat = Int32.max, maxLat = Int32.min, minLon = Int32.max, maxLon = Int32.min
            try reader.forEachBlock(options: OSMPBFReadOptions(kinds: .nodes, tags: false)) { block in
                for l in block.nodes.locations {
                    minLat = min(minLat, l.latitudeE7); maxLat = max(maxLat, l.latitudeE7)
                    minLon = min(minLon, l.longitudeE7); maxLon = max(maxLon, l.longitudeE7)
                }
            }
            let dataBox = try XCTUnwrap(data["bbox"] as? [Double])
            for (ours, theirs) in zip([minLon, minLat, maxLon, maxLat], dataBox) {
                XCTAssertEqual(Double(ours) / 1e7, theirs, accuracy: 1e-9, name)
            }
            let minid = try XCTUnwrap(data["minid"] as? [String: Int64])
            var firstIDs: [Int64] = []
            try reader.forEachBlock { block in
                if firstIDs.isEmpty, let id = block.nodes.ids.min() { firstIDs.append(id) }
            }
            XCTAssertEqual(firstIDs.first, minid["nodes"], name)
            print("\(name): \(t.nodes) nodes, \(t.ways) ways, \(t.relations) relations — equal to osmium")
        }
    }

    /// Decodes OPL's %xx% escapes.
    static func unescapeOPL(_ text: Substring) -> String {
        var result = ""
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] == "%", let close = text[text.index(after: i)...].firstIndex(of: "%"),
               let code = UInt32(text[text.index(after: i)..<close], radix: 16), let scalar = Unicode.Scalar(code) {
                result.unicodeScalars.append(scalar)
                i = text.index(after: close)
            } else {
                result.append(text[i])
                i = text.index(after: i)
            }
        }
        return result
    }

    static func oplTags(_ field: Substring) -> [(String, String)] {
        guard !field.isEmpty else { return [] }
        return field.split(separator: ",").map { pair in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (unescapeOPL(kv[0]), kv.count > 1 ? unescapeOPL(kv[1]) : "")
        }
    }

    func testEntitiesAndTagsMatchOsmiumOPL() throws {
        try requireOsmium()
        let url = Self.url("monaco.osm.pbf")
        let opl = String(decoding: try run(["osmium", "cat", url.path, "-f", "opl"]), as: UTF8.self)
        var oplTags = [0, 0, 0]
        var firstLines: [Character: Substring] = [:]
        var oplRefs = 0, oplMembers = 0
        for line in opl.split(separator: "\n") {
            guard let kind = line.first else { continue }
            if firstLines[kind] == nil { firstLines[kind] = line }
            let fields = line.split(separator: " ")
            let index = kind == "n" ? 0 : kind == "w" ? 1 : 2
            for f in fields where f.first == "T" { oplTags[index] += Self.oplTags(f.dropFirst()).count }
            for f in fields where f.first == "N" && f.count > 1 { oplRefs += f.split(separator: ",").count }
            for f in fields where f.first == "M" && f.count > 1 { oplMembers += f.split(separator: ",").count }
        }
        let t = try totals(url)
        XCTAssertEqual([t.nodeTags, t.wayTags, t.relationTags], oplTags)
        XCTAssertEqual(t.refs, oplRefs)
        XCTAssertEqual(t.members, oplMembers)

        // The first node, way and relation, entity by entity.
        let reader = try OSMPBFReader(url: url)
        var node: OSMNode?, taggedNode: OSMNode?, way: OSMWay?, relation: OSMRelation?
        try reader.read(nodes: { n in
            if node == nil { node = n }
            if taggedNode == nil, !n.tags.isEmpty { taggedNode = n }
        }, ways: { w in if way == nil { way = w } }, relations: { r in if relation == nil { relation = r } })

        let nodeLine = try XCTUnwrap(firstLines["n"]).split(separator: " ")
        XCTAssertEqual(node.map { "n\($0.id)" }, String(nodeLine[0]))
        let x = try XCTUnwrap(nodeLine.first { $0.first == "x" }).dropFirst()
        let y = try XCTUnwrap(nodeLine.first { $0.first == "y" }).dropFirst()
        XCTAssertEqual(node?.location.longitude ?? 0, Double(x) ?? .nan, accuracy: 1e-9)
        XCTAssertEqual(node?.location.latitude ?? 0, Double(y) ?? .nan, accuracy: 1e-9)

        let firstTagged = try XCTUnwrap(opl.split(separator: "\n").first { $0.hasPrefix("n") && !$0.contains(" T ") })
        let taggedFields = firstTagged.split(separator: " ")
        XCTAssertEqual(taggedNode.map { "n\($0.id)" }, String(taggedFields[0]))
        let expectedNodeTags = Self.oplTags(try XCTUnwrap(taggedFields.first { $0.first == "T" }).dropFirst())
        XCTAssertEqual(taggedNode?.tags.map { "\($0.key)=\($0.value)" }, expectedNodeTags.map { "\($0.0)=\($0.1)" })

        let wayFields = try XCTUnwrap(firstLines["w"]).split(separator: " ")
        XCTAssertEqual(way.map { "w\($0.id)" }, String(wayFields[0]))
        let refs = try XCTUnwrap(wayFields.first { $0.first == "N" }).dropFirst().split(separator: ",").map { String($0) }
        XCTAssertEqual(way?.nodeRefs.map { "n\($0)" }, refs)
        let wayTags = Self.oplTags(try XCTUnwrap(wayFields.first { $0.first == "T" }).dropFirst())
        XCTAssertEqual(way?.tags.value(for: "name"), wayTags.first { $0.0 == "name" }?.1)
        XCTAssertEqual(way?.tags.value(for: "highway"), wayTags.first { $0.0 == "highway" }?.1)

        let relationFields = try XCTUnwrap(firstLines["r"]).split(separator: " ")
        XCTAssertEqual(relation.map { "r\($0.id)" }, String(relationFields[0]))
        let members = try XCTUnwrap(relationFields.first { $0.first == "M" }).dropFirst().split(separator: ",").map { String($0) }
        XCTAssertEqual(relation?.members.map { "\($0.type.description.prefix(1))\($0.ref)@\($0.role)" }, members)
        let relationTags = Self.oplTags(try XCTUnwrap(relationFields.first { $0.first == "T" }).dropFirst())
        XCTAssertEqual(relation?.tags.count, relationTags.count)
        for key in ["name", "name:ja", "name:ru", "boundary"] {
            XCTAssertEqual(relation?.tags.value(for: key), relationTags.first { $0.0 == key }?.1, key)
        }
        print("monaco: tags \(oplTags), \(oplRefs) way refs, \(oplMembers) members — equal to osmium's OPL")
    }

    func testSkippingKindsAndConcurrencyAgree() throws {
        let url = Self.url("andorra.osm.pbf")
        let all = try totals(url, concurrency: 2)
        XCTAssertEqual(try totals(url, concurrency: 1), all)
        XCTAssertEqual(try totals(url, concurrency: 7), all)
        let waysOnly = try totals(url, options: OSMPBFReadOptions(kinds: [.ways, .relations]))
        XCTAssertEqual(waysOnly.nodes, 0)
        XCTAssertEqual(waysOnly.ways, all.ways)
        XCTAssertEqual(waysOnly.relations, all.relations)
        XCTAssertEqual(waysOnly.refs, all.refs)
        let untagged = try totals(url, options: OSMPBFReadOptions(tags: false))
        XCTAssertEqual(untagged.nodes, all.nodes)
        XCTAssertEqual(untagged.nodeTags + untagged.wayTags + untagged.relationTags, 0)

        // The entity API sees what the columns hold; the string table lookup finds keys.
        let reader = try OSMPBFReader(url: url)
        var entities = (0, 0, 0), highways = 0, highwaysByIndex = 0
        let summary = try reader.read(nodes: { _ in entities.0 += 1 }, ways: { w in
            entities.1 += 1
            if w.tags.value(for: "highway") != nil { highways += 1 }
        }, relations: { _ in entities.2 += 1 })
        XCTAssertEqual([entities.0, entities.1, entities.2], [all.nodes, all.ways, all.relations])
        XCTAssertEqual([summary.nodes, summary.ways, summary.relations], [all.nodes, all.ways, all.relations])
        try reader.forEachBlock(options: OSMPBFReadOptions(kinds: .ways)) { block in
            guard let key = block.strings.index(of: "highway") else { return }
            XCTAssertTrue(block.strings.string(at: key, equals: "highway"))
            highwaysByIndex += block.ways.tags.keys.lazy.filter { $0 == key }.count
        }
        XCTAssertEqual(highways, highwaysByIndex)
        XCTAssertGreaterThan(highways, 100)

        // Stopping early from the body propagates the body's error.
        struct Stop: Error {}
        var seen = 0
        XCTAssertThrowsError(try reader.forEachBlock { _ in seen += 1; if seen == 3 { throw Stop() } }) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(seen, 3)
    }

    /// Plain nodes, ways with LocationsOnWays and relations, built here and read back.
    func testCraftedNodesWaysRelations() throws {
        let strings = ["", "highway", "primary", "outer", "type", "multipolygon"]
        var block = ProtobufWriter()
        block.writeMessageField(1) { table in for s in strings { table.writeStringField(1, s) } }
        block.writeMessageField(2) { group in
            group.writeMessageField(1) { node in
                node.writeSInt64Field(1, -5)                       // negative ids occur in unsaved edits
                node.writePackedVarints(2, [1])
                node.writePackedVarints(3, [2])
                node.writeMessageField(4) { info in info.writeVarintField(1, 3) }   // Info, skipped
                node.writeSInt64Field(8, 437_384_000)
                node.writeSInt64Field(9, -74_246_000)
            }
        }
        block.writeMessageField(2) { group in
            group.writeMessageField(3) { way in
                way.writeVarintField(1, 10)
                way.writePackedVarints(2, [1])
                way.writePackedVarints(3, [2])
                way.writePackedVarints(8, [20, 2, 1].map { ProtobufWriter.zigzag($0) })       // 20, 22, 23
                way.writePackedVarints(9, [100, -1, 1].map { ProtobufWriter.zigzag($0) })
                way.writePackedVarints(10, [200, 5, -5].map { ProtobufWriter.zigzag($0) })
            }
        }
        block.writeMessageField(2) { group in
            group.writeMessageField(4) { relation in
                relation.writeVarintField(1, 99)
                relation.writePackedVarints(2, [4])
                relation.writePackedVarints(3, [5])
                relation.writePackedVarints(8, [3, 0])
                relation.writePackedVarints(9, [10, -10].map { ProtobufWriter.zigzag($0) })       // way 10, node 0
                relation.writePackedVarints(10, [1, 0])
            }
        }
        let header = Self.headerBlock(required: ["OsmSchema-V0.6", "LocationsOnWays"])
        let reader = try OSMPBFReader(url: try temporaryFile(Self.file(header: header, blocks: [block.bytes])))
        XCTAssertTrue(reader.header.hasLocationsOnWays)
        var nodes: [OSMNode] = [], ways: [OSMWay] = [], relations: [OSMRelation] = []
        var wayLocations: [OSMLocation] = []
        try reader.forEachBlock { b in
            nodes += b.makeNodes()
            ways += b.makeWays()
            relations += b.makeRelations()
            wayLocations += b.ways.locations
        }
        XCTAssertEqual(nodes.count, 1)
        XCTAssertEqual(nodes.first?.id, -5)
        XCTAssertEqual(nodes.first?.location, OSMLocation(latitudeE7: 437_384_000, longitudeE7: -74_246_000))
        XCTAssertEqual(nodes.first?.tags.value(for: "highway"), "primary")
        XCTAssertEqual(ways.first?.nodeRefs, [20, 22, 23])
        XCTAssertEqual(ways.first?.tags.value(for: "highway"), "primary")
        XCTAssertEqual(wayLocations, [OSMLocation(latitudeE7: 100, longitudeE7: 200), OSMLocation(latitudeE7: 99, longitudeE7: 205),
                                      OSMLocation(latitudeE7: 100, longitudeE7: 200)])
        XCTAssertEqual(relations.first?.id, 99)
        XCTAssertEqual(relations.first?.members, [OSMRelation.Member(type: .way, ref: 10, role: "outer"),
                                                  OSMRelation.Member(type: .node, ref: 0, role: "")])
        XCTAssertEqual(relations.first?.tags.value(for: "type"), "multipolygon")
    }

    // MARK: Blob encodings

    func testRawLZ4AndZstdBlobs() throws {
        let original = Self.url("monaco.osm.pbf")
        let bytes = [UInt8](try Data(contentsOf: original))
        let file = try OSMPBFFile(path: original.path)
        var rewrapped: [UInt8] = []
        var offset = 0, index = 0
        var encodings = [0, 0, 0]
        while let frame = try OSMPBFFrame.read(from: file, at: offset, index: index) {
            let payload = try frame.decompressed()
            var blob = ProtobufWriter()
            switch index % 3 {
            case 0:
                blob.writeBytesField(1, payload)
            case 1:
                let bound = Int(LZ4_compressBound(Int32(payload.count)))
                var out = [UInt8](repeating: 0, count: bound)
                let n = payload.withUnsafeBytes { src in
                    out.withUnsafeMutableBytes { dst in
                        LZ4_compress_default(src.baseAddress!.assumingMemoryBound(to: CChar.self),
                                             dst.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(payload.count), Int32(bound))
                    }
                }
                XCTAssertGreaterThan(n, 0)
                blob.writeVarintField(2, UInt64(payload.count))
                blob.writeBytesField(6, out[..<Int(n)])
            default:
                let bound = ZSTD_compressBound(payload.count)
                var out = [UInt8](repeating: 0, count: bound)
                let n = payload.withUnsafeBytes { src in
                    out.withUnsafeMutableBytes { dst in ZSTD_compress(dst.baseAddress, bound, src.baseAddress, payload.count, 3) }
                }
                XCTAssertEqual(ZSTD_isError(n), 0)
                blob.writeVarintField(2, UInt64(payload.count))
                blob.writeBytesField(7, out[..<n])
            }
            encodings[index % 3] += 1
            rewrapped += Self.frame(type: frame.type, blob: blob.bytes)
            offset = frame.nextOffset
            index += 1
        }
        XCTAssertEqual(offset, bytes.count)
        XCTAssertTrue(encodings.allSatisfy { $0 > 0 }, "\(encodings)")
        let url = try temporaryFile(rewrapped, "rewrapped.osm.pbf")
        XCTAssertEqual(try totals(url), try totals(original))
        print("raw/lz4/zstd blobs: \(encodings) blobs re-wrapped, same elements as zlib")
    }

    // MARK: Hostile files

    func testTruncatedCopiesFailWithTheBlobOffset() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.url("monaco.osm.pbf")))
        let framing = frames(bytes)
        XCTAssertEqual(framing.last.map { $0.offset + $0.length }, bytes.count)
        var cuts = Set<Int>([1, 2, 3, 4, 5, 10, bytes.count - 1])
        cuts.formUnion(framing.dropFirst().prefix(3).map(\.offset))   // whole blobs: valid shorter files
        for f in framing.prefix(6) { cuts.formUnion([f.offset + 1, f.offset + 3, f.offset + 4, f.offset + 6, f.offset + f.length / 2, f.offset + f.length - 1]) }
        var generator = SplitMix64(seed: 5)
        for _ in 0..<40 { cuts.insert(Int(generator.next() % UInt64(bytes.count - 1)) + 1) }
        var failures = 0, boundaries = 0
        for cut in cuts.sorted() {
            let url = try temporaryFile(Array(bytes[..<cut]))
            let containing = framing.last { $0.offset < cut }!
            let atBoundary = framing.contains { $0.offset == cut }
            let error = readError(url)
            if atBoundary {
                XCTAssertNil(error, "a cut at frame boundary \(cut) is a valid shorter file")
                boundaries += 1
                continue
            }
            guard let pbf = error as? OSMPBFError else { XCTFail("cut \(cut): \(String(describing: error))"); continue }
            guard case .truncated = pbf.reason else { XCTFail("cut \(cut): \(pbf)"); continue }
            XCTAssertEqual(pbf.blobOffset, containing.offset, "cut \(cut)")
            failures += 1
        }
        print("truncated monaco: \(cuts.count) cut points, \(failures) typed truncation errors, \(boundaries) at blob boundaries read cleanly")
        XCTAssertEqual(failures + boundaries, cuts.count)
    }

    func testNotPBFAndFramingErrors() throws {
        try expectReason([], { $0 == .emptyFile }, "empty file")
        try expectReason(Array("Hello, this is a text file.\n".utf8), { if case .notPBF = $0 { true } else { false } }, "text file")
        let xml = #"<?xml version="1.0" encoding="UTF-8"?><osm version="0.6"><node id="1" lat="1" lon="2"/></osm>"#
        try expectReason(Array(xml.utf8), { if case .notPBF = $0 { true } else { false } }, "XML .osm file")
        try expectReason([0, 0, 0, 3, 0xFF, 0xFF, 0xFF], { if case .notPBF = $0 { true } else { false } }, "garbage header")

        let good = Self.file(blocks: [Self.primitiveBlock(strings: [""], Self.dense(ids: [1], lats: [1], lons: [1]))])
        let headerFrame = Self.frame(type: "OSMHeader", blob: Self.rawBlob(Self.headerBlock()))
        // A second frame claiming a 65 537-byte header, and one claiming a 33 MiB blob.
        try expectReason(headerFrame + [0x00, 0x01, 0x00, 0x01] + [UInt8](repeating: 0, count: 100),
                         { $0 == .blobHeaderTooLarge(65_537) }, "oversize blob header")
        try expectReason([0x00, 0x01, 0x00, 0x01] + [UInt8](repeating: 0, count: 100),
                         { if case .notPBF = $0 { true } else { false } }, "oversize first blob header")
        try expectReason(headerFrame + Self.frame(type: "OSMData", blob: [], dataSize: 33 << 20),
                         { $0 == .blobTooLarge(33 << 20) }, "oversize blob")
        try expectReason(headerFrame + Self.frame(type: "OSMData", blob: [], dataSize: -1),
                         { if case .blobTooLarge = $0 { true } else { false } }, "negative datasize")
        try expectReason(Self.frame(type: "OSMData", blob: Self.rawBlob([])),
                         { $0 == .missingHeaderBlock(foundType: "OSMData") }, "no header block")
        try expectReason(Self.file(header: Self.headerBlock(required: ["OsmSchema-V0.6", "HistoricalInformation"]), blocks: []),
                         { $0 == .unsupportedFeature("HistoricalInformation") }, "history file")

        // Unknown blob types are skipped and counted.
        let withUnknown = headerFrame + Self.frame(type: "OSMFuture", blob: [1, 2, 3]) + Array(good[headerFrame.count...])
        let reader = try OSMPBFReader(url: try temporaryFile(withUnknown))
        var nodes = 0
        let summary = try reader.forEachBlock { nodes += $0.nodes.count }
        XCTAssertEqual(summary.skippedBlobs, 1)
        XCTAssertEqual(nodes, 1)
        XCTAssertEqual(reader.header.writingProgram, "OSMPBFTests")
        XCTAssertTrue(reader.header.isSortedByTypeThenID)
        XCTAssertEqual(reader.header.boundingBox?.minLatitude, 43)
    }

    func testBlobErrors() throws {
        let block = Self.primitiveBlock(strings: [""], Self.dense(ids: [1, 2], lats: [10, 20], lons: [30, 40]))
        let header = Self.frame(type: "OSMHeader", blob: Self.rawBlob(Self.headerBlock()))
        func data(_ blob: [UInt8]) -> [UInt8] { header + Self.frame(type: "OSMData", blob: blob) }

        try expectReason(data(try Self.zlibBlob(block, rawSize: block.count + 5)),
                         { $0 == .rawSizeMismatch(expected: block.count + 5, actual: block.count) }, "raw_size too big")
        try expectReason(data(try Self.zlibBlob(block, rawSize: block.count - 5)),
                         { if case .rawSizeMismatch = $0 { true } else { false } }, "raw_size too small")
        try expectReason(data(try Self.zlibBlob(block, rawSize: nil)), { $0 == .invalidRawSize(nil) }, "no raw_size")
        try expectReason(data(try Self.zlibBlob(block, rawSize: 1 << 30)), { $0 == .invalidRawSize(1 << 30) }, "1 GiB raw_size")
        var corrupt = try Self.zlibBlob(block, rawSize: block.count)
        for i in stride(from: corrupt.count - 12, to: corrupt.count - 4, by: 1) { corrupt[i] ^= 0x5A }
        try expectReason(data(corrupt), { if case .decompressionFailed = $0 { true } else { if case .rawSizeMismatch = $0 { true } else { false } } },
                         "corrupt zlib")
        var lzma = ProtobufWriter()
        lzma.writeVarintField(2, 10)
        lzma.writeBytesField(4, [1, 2, 3])
        try expectReason(data(lzma.bytes), { $0 == .unsupportedCompression("lzma") }, "lzma blob")
        try expectReason(data([0x08, 0x01]), { if case .malformedBlob = $0 { true } else { false } }, "blob without data")
        try expectReason(data([0x0A, 0x7F]), { if case .malformedBlob = $0 { true } else { false } }, "blob with broken protobuf")
        var badLZ4 = ProtobufWriter()
        badLZ4.writeVarintField(2, 100)
        badLZ4.writeBytesField(6, [0xFF, 0xFF, 0xFF, 0xFF])
        try expectReason(data(badLZ4.bytes), { if case .decompressionFailed = $0 { true } else { false } }, "corrupt lz4")
    }

    func testMalformedBlocks() throws {
        func block(strings: [String] = ["", "k", "v"], granularity: Int? = nil,
                   _ group: @escaping (inout ProtobufWriter) -> Void) -> [UInt8] {
            Self.file(blocks: [Self.primitiveBlock(strings: strings, granularity: granularity, group)])
        }
        try expectReason(block(Self.dense(ids: [1, 2], lats: [1, 2], lons: [1, 2], keysVals: [1, 9, 0, 0])),
                         { $0 == .stringIndexOutOfRange(index: 9, count: 3) }, "dense tag index out of range")
        try expectReason(block(Self.dense(ids: [1, 2], lats: [1], lons: [1, 2])),
                         { if case .denseArraysMismatch = $0 { true } else { false } }, "dense lats shorter")
        try expectReason(block(Self.dense(ids: [1, 2], lats: [1, 2], lons: [1, 2], keysVals: [1, 2, 0])),
                         { if case .denseArraysMismatch = $0 { true } else { false } }, "dense keys_vals for one of two nodes")
        try expectReason(block(Self.dense(ids: [1], lats: [1], lons: [1], keysVals: [1])),
                         { if case .denseArraysMismatch = $0 { true } else { false } }, "dense key without value")
        try expectReason(block(Self.dense(ids: [1], lats: [900_000_001], lons: [1])),
                         { if case .coordinateOutOfRange = $0 { true } else { false } }, "latitude beyond 90°")
        try expectReason(block(granularity: 1_000_000_000, Self.dense(ids: [1], lats: [1 << 40], lons: [1])),
                         { if case .coordinateOutOfRange = $0 { true } else { false } }, "overflowing coordinate")
        try expectReason(block { group in
            group.writeMessageField(3) { way in
                way.writeVarintField(1, 7)
                way.writePackedVarints(2, [1, 1])
                way.writePackedVarints(3, [2])
            }
        }, { $0 == .keysValuesMismatch(keys: 2, values: 1) }, "way keys/vals mismatch")
        try expectReason(block { group in
            group.writeMessageField(4) { relation in
                relation.writeVarintField(1, 7)
                relation.writePackedVarints(8, [1])
                relation.writePackedVarints(9, [ProtobufWriter.zigzag(5)])
                relation.writePackedVarints(10, [3])
            }
        }, { $0 == .invalidMemberType(3) }, "member type 3")
        try expectReason(block { group in
            group.writeMessageField(4) { relation in
                relation.writeVarintField(1, 7)
                relation.writePackedVarints(8, [1, 1])
                relation.writePackedVarints(9, [2])
                relation.writePackedVarints(10, [0])
            }
        }, { $0 == .memberArraysMismatch(roles: 2, ids: 1, types: 1) }, "member arrays mismatch")
        try expectReason(block { group in
            group.writeMessageField(4) { relation in
                relation.writeVarintField(1, 7)
                relation.writePackedVarints(8, [UInt64(bitPattern: -1)])
                relation.writePackedVarints(9, [2])
                relation.writePackedVarints(10, [0])
            }
        }, { if case .stringIndexOutOfRange = $0 { true } else { false } }, "negative role index")
        try expectReason(block { group in group.writeMessageField(1) { node in node.writeSInt64Field(1, 5) } },
                         { if case .malformedBlock = $0 { true } else { false } }, "node without lat/lon")
        try expectReason(block { group in group.writeVarintField(3, 5) },
                         { if case .malformedBlock = $0 { true } else { false } }, "way field with the wrong wire type")
        try expectReason(block(granularity: 0, Self.dense(ids: [1], lats: [1], lons: [1])),
                         { $0 == .invalidGranularity(0) }, "granularity 0")

        // Granularity and offsets apply: 1000 nanodegrees × 123 + 5 µ° offset.
        var custom = ProtobufWriter()
        custom.writeMessageField(1) { $0.writeStringField(1, "") }
        custom.writeMessageField(2, Self.dense(ids: [9], lats: [123], lons: [-123]))
        custom.writeVarintField(17, 1000)
        custom.writeVarintField(19, 5000)
        let reader = try OSMPBFReader(url: try temporaryFile(Self.file(blocks: [custom.bytes])))
        var location: OSMLocation?
        try reader.read(nodes: { location = $0.location })
        XCTAssertEqual(location, OSMLocation(latitudeE7: 1280, longitudeE7: -1230))
    }

    /// Byte flips in blob headers and blob data: each read ends cleanly or with a typed error.
    func testFlippedBytesNeverCrash() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.url("monaco.osm.pbf")))
        let framing = frames(bytes)
        var generator = SplitMix64(seed: 17)
        var outcomes: [String: Int] = [:]
        for trial in 0..<60 {
            var copy = bytes
            let f = framing[Int(generator.next() % UInt64(min(framing.count, 4)))]
            // Half the flips land in the length prefix or blob header, half in the blob.
            let position = trial % 2 == 0
                ? f.offset + Int(generator.next() % 20)
                : f.offset + 20 + Int(generator.next() % UInt64(f.length - 20))
            copy[position] ^= UInt8(1 << (generator.next() % 8))
            let error = readError(try temporaryFile(copy), concurrency: trial % 3 + 1)
            if let error {
                guard let pbf = error as? OSMPBFError else { XCTFail("flip at \(position): untyped \(error)"); continue }
                let label = "\(pbf.reason)".prefix { $0 != "(" }
                outcomes[String(label), default: 0] += 1
            } else {
                outcomes["read cleanly", default: 0] += 1
            }
        }
        print("flipped bytes in monaco: \(outcomes.sorted { $0.key < $1.key })")
    }
}
