import ArgumentParser
import Foundation
import MapFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `openmapkit osm`: tools for OpenStreetMap files.
struct OSMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osm",
        abstract: "Inspect OpenStreetMap PBF files.",
        subcommands: [Info.self]
    )

    /// `openmapkit osm info FILE [--json]`: the header and element counts, like `osmium fileinfo -e`.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info",
            abstract: "Show an .osm.pbf file's header, element counts, id ranges and data bounding box."
        )

        @Argument(help: "The .osm.pbf file.")
        var file: String

        @OptionGroup var format: JSONOption

        func run() throws {
            let report: OSMFileReport
            do {
                report = try OSMFileReport(path: file)
            } catch {
                FileHandle.standardError.write(Data("osm info: \(error)\n".utf8))
                throw ExitCode(1)
            }
            if format.json { try printJSON(report) } else { print(report.text) }
        }
    }
}

/// What `openmapkit osm info` prints, gathered in one pass over the file.
struct OSMFileReport: Encodable {
    struct File: Encodable {
        var name: String
        var size: Int
    }

    struct Header: Encodable {
        /// minlon, minlat, maxlon, maxlat.
        var bbox: [Double]?
        var requiredFeatures: [String]
        var optionalFeatures: [String]
        var writingProgram: String?
        var source: String?
        var replicationTimestamp: String?
        var replicationSequenceNumber: Int64?
        var replicationBaseURL: String?
    }

    struct PerKind: Encodable {
        var nodes: Int64 = 0
        var ways: Int64 = 0
        var relations: Int64 = 0
    }

    struct DataSummary: Encodable {
        /// minlon, minlat, maxlon, maxlat over the nodes; nil without nodes.
        var bbox: [Double]?
        var count = PerKind()
        var tags = PerKind()
        var minid = PerKind()
        var maxid = PerKind()
        /// Whether elements come sorted by type, then strictly increasing id.
        var objectsOrdered = true
        var blocks = 0
        var skippedBlobs = 0
    }

    var file: File
    var header: Header
    var data: DataSummary

    init(path: String) throws {
        let reader = try OSMPBFReader(url: URL(fileURLWithPath: path))
        let h = reader.header
        file = File(name: (path as NSString).lastPathComponent, size: reader.fileSize)
        header = Header(
            bbox: h.boundingBox.map { [$0.minLongitude, $0.minLatitude, $0.maxLongitude, $0.maxLatitude] },
            requiredFeatures: h.requiredFeatures, optionalFeatures: h.optionalFeatures,
            writingProgram: h.writingProgram, source: h.source,
            replicationTimestamp: h.replicationTimestamp.map(Self.iso8601),
            replicationSequenceNumber: h.replicationSequenceNumber, replicationBaseURL: h.replicationBaseURL)

        var data = DataSummary()
        var count = PerKind(), tags = PerKind(), minid = PerKind(), maxid = PerKind()
        var minLat = Int32.max, maxLat = Int32.min, minLon = Int32.max, maxLon = Int32.min
        // The last (kind, id) seen, for the ordering check; kinds are 0, 1, 2.
        var ordered = true, lastKind = -1, lastID = Int64.min
        func track(_ kind: Int, _ ids: [Int64], min: inout Int64, max: inout Int64, count: inout Int64) {
            guard let first = ids.first else { return }
            if count == 0 { min = first; max = first }
            var lo = min, hi = max, isOrdered = ordered
            var previousKind = lastKind, previous = lastID
            for id in ids {
                if id < lo { lo = id }
                if id > hi { hi = id }
                if isOrdered && (kind < previousKind || (kind == previousKind && id <= previous)) { isOrdered = false }
                previousKind = kind
                previous = id
            }
            min = lo
            max = hi
            count += Int64(ids.count)
            ordered = isOrdered
            lastKind = previousKind
            lastID = previous
        }
        let summary = try reader.forEachBlock { block in
            track(0, block.nodes.ids, min: &minid.nodes, max: &maxid.nodes, count: &count.nodes)
            track(1, block.ways.ids, min: &minid.ways, max: &maxid.ways, count: &count.ways)
            track(2, block.relations.ids, min: &minid.relations, max: &maxid.relations, count: &count.relations)
            tags.nodes += Int64(block.nodes.tags.count)
            tags.ways += Int64(block.ways.tags.count)
            tags.relations += Int64(block.relations.tags.count)
            for location in block.nodes.locations {
                minLat = Swift.min(minLat, location.latitudeE7)
                maxLat = Swift.max(maxLat, location.latitudeE7)
                minLon = Swift.min(minLon, location.longitudeE7)
                maxLon = Swift.max(maxLon, location.longitudeE7)
            }
        }
        data.count = count
        data.tags = tags
        data.minid = minid
        data.maxid = maxid
        data.objectsOrdered = ordered
        data.blocks = summary.blocks
        data.skippedBlobs = summary.skippedBlobs
        if data.count.nodes > 0 {
            data.bbox = [Double(minLon) / 1e7, Double(minLat) / 1e7, Double(maxLon) / 1e7, Double(maxLat) / 1e7]
        }
        self.data = data
    }

    static func iso8601(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "\(seconds)" }
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    var text: String {
        func box(_ b: [Double]?) -> String {
            guard let b else { return "none" }
            return "(\(b[0]),\(b[1]),\(b[2]),\(b[3]))"
        }
        var lines = [
            "File:",
            "  Name: \(file.name)",
            "  Format: PBF",
            "  Size: \(file.size)",
            "Header:",
            "  Bounding box: \(box(header.bbox))",
            "  Required features: \(header.requiredFeatures.joined(separator: ", "))",
            "  Optional features: \(header.optionalFeatures.joined(separator: ", "))",
        ]
        if let p = header.writingProgram { lines.append("  Writing program: \(p)") }
        if let s = header.source { lines.append("  Source: \(s)") }
        if let t = header.replicationTimestamp { lines.append("  Replication timestamp: \(t)") }
        if let n = header.replicationSequenceNumber { lines.append("  Replication sequence number: \(n)") }
        if let u = header.replicationBaseURL { lines.append("  Replication base URL: \(u)") }
        lines += [
            "Data:",
            "  Bounding box: \(box(data.bbox))",
            "  Objects ordered (by type and id): \(data.objectsOrdered ? "yes" : "no")",
            "  Number of nodes: \(data.count.nodes)",
            "  Number of ways: \(data.count.ways)",
            "  Number of relations: \(data.count.relations)",
            "  Number of tags: nodes \(data.tags.nodes), ways \(data.tags.ways), relations \(data.tags.relations)",
            "  Smallest node ID: \(data.minid.nodes)",
            "  Smallest way ID: \(data.minid.ways)",
            "  Smallest relation ID: \(data.minid.relations)",
            "  Largest node ID: \(data.maxid.nodes)",
            "  Largest way ID: \(data.maxid.ways)",
            "  Largest relation ID: \(data.maxid.relations)",
            "  Blocks: \(data.blocks) (unknown blobs skipped: \(data.skippedBlobs))",
        ]
        return lines.joined(separator: "\n")
    }
}
