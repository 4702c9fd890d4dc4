import Foundation

// OSM XML (https://wiki.openstreetmap.org/wiki/OSM_XML) into the entity model of OSMEntities.swift.
//
// A small hand-written scanner (OSMXMLScanner.swift, shared with the osmChange reader) rather than
// FoundationXML's XMLParser: it is several times faster, needs no delegate class, reports exact lines and
// byte offsets, and the format uses only a sliver of XML (elements with attributes, no mixed content). It checks what matters for well-formedness here — tags nest and
// close, attributes are quoted and not repeated, entities are known — and skips the prolog, comments,
// processing instructions, CDATA and DOCTYPE. Elements it does not know (`<note>`, `<meta>`, changeset
// elements) are skipped with their children; attributes it does not use (version, timestamp, user …) are
// ignored.

/// The `<bounds>` element of an OSM XML file: the box the data was extracted for.
public struct OSMBounds: Hashable, Sendable {
    /// South-west corner.
    public var minimum: OSMLocation
    /// North-east corner.
    public var maximum: OSMLocation

    public init(minimum: OSMLocation, maximum: OSMLocation) {
        self.minimum = minimum
        self.maximum = maximum
    }
}

/// The content of an OSM XML file, in file order.
public struct OSMXMLDocument: Sendable {
    /// The `version` attribute of `<osm>` ("0.6" for current data), if given.
    public var version: String?
    /// The `generator` attribute of `<osm>`, if given.
    public var generator: String?
    /// The first `<bounds>` element, if any.
    public var bounds: OSMBounds?
    public var nodes: [OSMNode]
    public var ways: [OSMWay]
    public var relations: [OSMRelation]

    public init(version: String? = nil, generator: String? = nil, bounds: OSMBounds? = nil,
                nodes: [OSMNode] = [], ways: [OSMWay] = [], relations: [OSMRelation] = []) {
        self.version = version
        self.generator = generator
        self.bounds = bounds
        self.nodes = nodes
        self.ways = ways
        self.relations = relations
    }

    /// Decodes an OSM XML document.
    ///
    /// - Throws: ``OSMXMLError`` naming the line, column and byte offset of the first problem: malformed
    ///   XML, a missing `<osm>` root, a missing or invalid attribute (`lat="95"`, `id="abc"`).
    public static func parse(_ data: Data) throws(OSMXMLError) -> OSMXMLDocument {
        let bytes = [UInt8](data)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(OSMXMLError) -> OSMXMLDocument in
            var reader = OSMXMLScanner(buffer)
            return try reader.readDocument()
        }
    }

    /// Reads and decodes an OSM XML file.
    ///
    /// - Throws: ``OSMXMLError`` with kind ``OSMXMLError/Kind/unreadable`` when the file cannot be read,
    ///   otherwise as ``parse(_:)``.
    public static func read(contentsOf url: URL) throws(OSMXMLError) -> OSMXMLDocument {
        try parse(try OSMXMLError.contents(of: url))
    }
}

/// Why an OSM XML document could not be read, and where.
///
/// The osmChange reader (OSMChange.swift) throws it too, so code that reads both formats handles one
/// error type; its compression failures have no position in the XML and carry line 0.
public struct OSMXMLError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// What went wrong, for code that reacts differently to unreadable, hostile and merely unexpected input.
    public enum Kind: Hashable, Sendable {
        /// The file could not be read at all.
        case unreadable
        /// Not well-formed XML: a stray `<`, an unclosed tag, mismatched end tag, bad entity, truncation.
        case malformedXML
        /// The root element is not `<osm>`.
        case notOSM
        /// The root element is not `<osmChange>` (reading a change file).
        case notOSMChange
        /// A well-formed element where the format has none of its kind: an action other than `<create>`,
        /// `<modify>` or `<delete>`, an element outside an action block, an action inside an action.
        case unexpectedElement
        /// The gzip or bzip2 data around the document is corrupt or truncated.
        case corruptCompression
        /// The document decompresses to more than the caller's limit (a decompression bomb, or a file
        /// larger than the caller planned for).
        case tooLarge
        /// An element lacks an attribute the format requires (`id`, `lat`, `ref`, `k` …).
        case missingAttribute
        /// An attribute's value is not valid for it (a non-integer id, a latitude beyond ±90, an unknown
        /// member type).
        case invalidAttribute
    }

    public var kind: Kind
    /// 1-based line of the problem (0 when the file could not be read).
    public var line: Int
    /// 1-based column, counted in bytes.
    public var column: Int
    /// 0-based byte offset into the document.
    public var byteOffset: Int
    public var problem: String

    public init(kind: Kind, line: Int, column: Int, byteOffset: Int, problem: String) {
        self.kind = kind
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.problem = problem
    }

    public var message: String { "line \(line), column \(column): \(problem)" }
    public var description: String { "OSMXMLError(\(message))" }
    public var errorDescription: String? { message }
}

extension OSMXMLError {
    /// The bytes of the file at `url`; an ``Kind/unreadable`` error naming it when it cannot be read
    /// (both readers, OSM XML and osmChange, open their files this way).
    static func contents(of url: URL) throws(OSMXMLError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw OSMXMLError(kind: .unreadable, line: 0, column: 0, byteOffset: 0,
                              problem: "cannot read \(url.path): \(error.localizedDescription)")
        }
    }
}

// MARK: - Document structure

extension OSMXMLScanner {
    mutating func readDocument() throws(OSMXMLError) -> OSMXMLDocument {
        var document = OSMXMLDocument()
        let root = try readRootElement(named: "osm", kind: .notOSM)
        (document.version, document.generator) = (root.version, root.generator)
        if !root.tag.selfClosing {
            loop: while true {
                switch try nextEvent() {
                case .endOfInput:
                    throw failure(.malformedXML, at: index, "the document ends inside <osm>")
                case .end:
                    break loop
                case .start(let tag):
                    if equals(tag.name, "node") {
                        document.nodes.append(try readNode(tag))
                    } else if equals(tag.name, "way") {
                        document.ways.append(try readWay(tag))
                    } else if equals(tag.name, "relation") {
                        document.relations.append(try readRelation(tag))
                    } else if equals(tag.name, "bounds") {
                        let bounds = try readBounds(tag)
                        if document.bounds == nil { document.bounds = bounds }
                        try skipChildren(tag)
                    } else {
                        try skipChildren(tag)
                    }
                }
            }
        }
        // Only comments, processing instructions and white space may follow the root.
        if case .start(let extra) = try nextEvent() {
            throw failure(.malformedXML, at: extra.offset, "a second root element <\(string(extra.name))> follows </osm>")
        }
        return document
    }

    private mutating func readBounds(_ tag: XMLStartTag) throws(OSMXMLError) -> OSMBounds {
        let minLat = try degrees(tag, "minlat", limit: 90)
        let minLon = try degrees(tag, "minlon", limit: 180)
        let maxLat = try degrees(tag, "maxlat", limit: 90)
        let maxLon = try degrees(tag, "maxlon", limit: 180)
        return OSMBounds(minimum: OSMLocation(latitudeE7: minLat, longitudeE7: minLon),
                         maximum: OSMLocation(latitudeE7: maxLat, longitudeE7: maxLon))
    }
}
