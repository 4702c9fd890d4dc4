import Foundation

// osmChange (https://wiki.openstreetmap.org/wiki/OsmChange) into the entity model of OSMEntities.swift:
// what `osmium derive-changes` writes and what the replication service publishes every minute, hour and
// day, so that a map bundle can follow OpenStreetMap without a new extract.
//
//   <osmChange version="0.6" generator="…">
//     <create> <node id lat lon version timestamp>…</node> <way>…</way> <relation>…</relation> </create>
//     <modify> … </modify>
//     <delete if-unused="true"> <node id version/> … </delete>
//   </osmChange>
//
// Blocks repeat and interleave in any order, and the file's order is the order to apply: an element may
// be created and then modified, or modified twice, in one file. The reader keeps that order
// (`OSMChange.changes`) and also gives the net effect, the last change of each element, which is what a
// consumer updating a store by id needs (`OSMChange.netEffect`).
//
// It shares OSMXML's scanner (OSMXMLScanner.swift), so well-formedness, entities and error positions are
// the same, but is stricter about structure: osmChange writers emit nothing but these elements, so
// anything else (an unknown action, an element outside an action, `<nd>` in a node) is reported rather
// than skipped — a change file read wrongly corrupts the store it is applied to.

/// An osmChange document: the changes to apply, in the file's order.
public struct OSMChange: Sendable {
    /// The block a change came from, which says what to do with its element.
    public enum Action: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The element is new: insert it.
        case create
        /// The element exists and is replaced whole by this version (tags, nodes, members and location
        /// are the complete new state, not a patch).
        case modify
        /// The element is removed; only its id (and version) matter.
        case delete

        public var description: String { rawValue }
    }

    /// The element a change carries: a whole node, way or relation in the entity model the other
    /// readers use, so code that builds a store from PBF or XML can apply changes with the same types.
    public enum Element: Sendable {
        case node(OSMNode)
        case way(OSMWay)
        case relation(OSMRelation)

        /// Which kind of element this is.
        public var type: OSMEntityType {
            switch self {
            case .node: .node
            case .way: .way
            case .relation: .relation
            }
        }

        /// The element's id (negative ids, placeholders in files prepared for upload, are kept).
        public var id: Int64 {
            switch self {
            case .node(let node): node.id
            case .way(let way): way.id
            case .relation(let relation): relation.id
            }
        }

        /// The element's tags, in file order.
        public var tags: OSMTags {
            switch self {
            case .node(let node): node.tags
            case .way(let way): way.tags
            case .relation(let relation): relation.tags
            }
        }

        /// Its type and id together, the key a store indexes elements by.
        public var key: OSMElementKey { OSMElementKey(type: type, id: id) }
    }

    /// One element in one action block.
    public struct Change: Sendable {
        /// What to do with the element.
        public var action: Action
        /// The element as the file gives it. A deleted node written without coordinates (the usual
        /// case) still carries an `OSMNode`, whose location is then (0, 0) and means nothing:
        /// ``hasLocation`` says which, ``location`` gives it only when it was written.
        public var element: Element
        /// The element's `version` attribute, if written.
        public var version: Int?
        /// The element's `timestamp` attribute, if written.
        public var timestamp: Date?
        /// The `timestamp` attribute as written, for consumers that store or compare the text itself.
        public var rawTimestamp: String?
        /// Whether the `<delete>` block carried `if-unused` (an upload instruction: delete only if no
        /// other element still uses it). Its presence counts, whatever its value, as in the OSM API.
        public var ifUnused: Bool
        /// False only for a node written without `lat`/`lon`, which only a delete may be.
        public var hasLocation: Bool

        public init(action: Action, element: Element, version: Int? = nil, timestamp: Date? = nil,
                    rawTimestamp: String? = nil, ifUnused: Bool = false, hasLocation: Bool = true) {
            self.action = action
            self.element = element
            self.version = version
            self.timestamp = timestamp
            self.rawTimestamp = rawTimestamp
            self.ifUnused = ifUnused
            self.hasLocation = hasLocation
        }

        /// The element's type and id.
        public var key: OSMElementKey { element.key }

        /// A node's location when the file gives one; nil for ways, relations and deleted nodes without
        /// coordinates.
        public var location: OSMLocation? {
            guard hasLocation, case .node(let node) = element else { return nil }
            return node.location
        }
    }

    /// The `version` attribute of `<osmChange>` ("0.6"), if given.
    public var version: String?
    /// The `generator` attribute of `<osmChange>`, if given.
    public var generator: String?
    /// Every change in file order, which is the order to apply them in.
    public var changes: [Change]

    public init(version: String? = nil, generator: String? = nil, changes: [Change] = []) {
        self.version = version
        self.generator = generator
        self.changes = changes
    }

    /// The last change of each element: what a consumer updating a store by id applies.
    public var netEffect: OSMChangeNetEffect { OSMChangeNetEffect(changes) }

    /// The largest document the readers decompress by default, 4 GiB: above any real change file (a
    /// day of the whole planet is some hundreds of MiB of XML), below what would exhaust a machine.
    public static let defaultDecompressedLimit = 4 << 30

    // MARK: Reading

    /// Decodes an uncompressed osmChange document.
    ///
    /// - Throws: ``OSMXMLError`` naming the line, column and byte offset of the first problem: malformed
    ///   XML, a root other than `<osmChange>` (``OSMXMLError/Kind/notOSMChange``), an unknown action or
    ///   an element where none belongs (``OSMXMLError/Kind/unexpectedElement``), a missing or invalid
    ///   attribute (no `id`; a created or modified node without `lat`/`lon`; `lat="95"`; `version="x"`;
    ///   a timestamp that is not ISO 8601).
    public static func parse(_ data: Data) throws(OSMXMLError) -> OSMChange {
        try parse(bytes: [UInt8](data))
    }

    static func parse(bytes: [UInt8]) throws(OSMXMLError) -> OSMChange {
        try bytes.withUnsafeBufferPointer { (buffer) throws(OSMXMLError) -> OSMChange in
            var scanner = OSMXMLScanner(buffer)
            return try scanner.readChangeDocument()
        }
    }

    /// Decodes an osmChange document that may be gzip- or bzip2-compressed, told apart by their magic
    /// bytes (`.osc`, `.osc.gz` and `.osc.bz2` files, or a replication source's bytes, whatever their names).
    ///
    /// - Parameter decompressedLimit: the most bytes a compressed document may decompress to; beyond
    ///   it the read stops with ``OSMXMLError/Kind/tooLarge`` after at most this much memory, so a
    ///   decompression bomb cannot exhaust the machine. Uncompressed data is not limited (it is already
    ///   in memory).
    /// - Throws: ``OSMXMLError``: ``OSMXMLError/Kind/corruptCompression`` for corrupt or truncated
    ///   compressed data, ``OSMXMLError/Kind/tooLarge`` past the limit, otherwise as ``parse(_:)``.
    public static func decode(_ data: Data, decompressedLimit: Int = defaultDecompressedLimit) throws(OSMXMLError) -> OSMChange {
        // Decompressed straight into the bytes the scanner reads: a large file is not copied again.
        try parse(bytes: try OSMChangeCompression.decompressedBytes(data, limit: decompressedLimit))
    }

    /// Reads and decodes an `.osc`, `.osc.gz` or `.osc.bz2` file, whose compression is found from its
    /// first bytes rather than its name; a name ending `.gz` or `.bz2` over data that is neither compressed
    /// nor XML is reported as corrupt compression rather than as malformed XML.
    ///
    /// - Throws: ``OSMXMLError`` with kind ``OSMXMLError/Kind/unreadable`` when the file cannot be read,
    ///   otherwise as ``decode(_:decompressedLimit:)``.
    public static func read(contentsOf url: URL, decompressedLimit: Int = defaultDecompressedLimit) throws(OSMXMLError) -> OSMChange {
        let data = try OSMXMLError.contents(of: url)
        let named = url.pathExtension.lowercased()
        if OSMChangeCompression(detecting: data) == .none, named == "gz" || named == "bz2" || named == "bzip2",
           !OSMChangeCompression.looksLikeXML(data) {
            throw OSMXMLError(kind: .corruptCompression, line: 0, column: 0, byteOffset: 0,
                              problem: "\(url.lastPathComponent) is named .\(named) but does not start with "
                                  + "\(named == "gz" ? "gzip" : "bzip2")'s magic bytes, nor with XML")
        }
        return try decode(data, decompressedLimit: decompressedLimit)
    }
}

/// An element's identity across the three id spaces (node 1 and way 1 are different elements), the key
/// under which change files and stores match elements.
public struct OSMElementKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Node, way or relation.
    public var type: OSMEntityType
    /// The id within that type.
    public var id: Int64

    public init(type: OSMEntityType, id: Int64) {
        self.type = type
        self.id = id
    }

    /// Nodes before ways before relations, each by id: the order elements are written and applied in.
    public static func < (a: OSMElementKey, b: OSMElementKey) -> Bool {
        a.type.rawValue != b.type.rawValue ? a.type.rawValue < b.type.rawValue : a.id < b.id
    }

    /// "n123", "w45", "r6", as osmium writes object ids.
    public var description: String {
        switch type {
        case .node: "n\(id)"
        case .way: "w\(id)"
        case .relation: "r\(id)"
        }
    }
}

/// The net effect of a change file: for each element the last change the file makes to it.
///
/// A file may touch an element several times (created, then modified; modified, then deleted); a store
/// that applies changes by id needs only the last, since `modify` carries the whole new element and
/// `delete` removes it whatever came before. "Last wins" is taken literally: an element created and then
/// modified in the same file counts as modified (its last change is a modify, applied as an insert-or-
/// replace), and one created and then deleted counts as deleted; ``firstAction(of:)`` tells such cases
/// apart for consumers that care.
public struct OSMChangeNetEffect: Sendable {
    /// Each changed element's last change, in the order of those last changes in the file.
    public private(set) var changes: [OSMChange.Change]
    private var indexByKey: [OSMElementKey: Int]
    private var firstActions: [OSMElementKey: OSMChange.Action]

    /// The net effect of changes given in file order.
    public init(_ ordered: [OSMChange.Change]) {
        var lastIndex: [OSMElementKey: Int] = [:]
        var first: [OSMElementKey: OSMChange.Action] = [:]
        lastIndex.reserveCapacity(ordered.count)
        for (i, change) in ordered.enumerated() {
            lastIndex[change.key] = i
            if first[change.key] == nil { first[change.key] = change.action }
        }
        var kept: [OSMChange.Change] = []
        var index: [OSMElementKey: Int] = [:]
        kept.reserveCapacity(lastIndex.count)
        index.reserveCapacity(lastIndex.count)
        for (i, change) in ordered.enumerated() where lastIndex[change.key] == i {
            index[change.key] = kept.count
            kept.append(change)
        }
        changes = kept
        indexByKey = index
        firstActions = first
    }

    /// How many distinct elements the file changes.
    public var count: Int { changes.count }

    /// The last change of an element, or nil when the file does not touch it.
    public subscript(key: OSMElementKey) -> OSMChange.Change? {
        indexByKey[key].map { changes[$0] }
    }

    /// The last change of an element by type and id, or nil.
    public subscript(type: OSMEntityType, id: Int64) -> OSMChange.Change? {
        self[OSMElementKey(type: type, id: id)]
    }

    /// The action of the element's first change in the file (``OSMChange/Action/create`` for an element
    /// the file creates and then modifies), or nil when the file does not touch it.
    public func firstAction(of key: OSMElementKey) -> OSMChange.Action? {
        firstActions[key]
    }

    /// The ids of the elements of one type whose last change is `action`.
    public func ids(_ action: OSMChange.Action, _ type: OSMEntityType) -> Set<Int64> {
        var ids = Set<Int64>()
        for change in changes where change.action == action && change.element.type == type {
            ids.insert(change.element.id)
        }
        return ids
    }

    /// The ids of the elements of `type` whose last change creates them.
    public func created(_ type: OSMEntityType) -> Set<Int64> { ids(.create, type) }
    /// The ids of the elements of `type` whose last change modifies them.
    public func modified(_ type: OSMEntityType) -> Set<Int64> { ids(.modify, type) }
    /// The ids of the elements of `type` whose last change deletes them.
    public func deleted(_ type: OSMEntityType) -> Set<Int64> { ids(.delete, type) }
}

/// How an osmChange file's bytes are compressed, as its first bytes say.
public enum OSMChangeCompression: Sendable, Hashable {
    /// Plain XML (`.osc`).
    case none
    /// gzip (`.osc.gz`, the replication service's form): magic bytes 1f 8b.
    case gzip
    /// bzip2 (`.osc.bz2`): magic bytes "BZh" and a block size digit.
    case bzip2

    /// The compression data starts with. Names are not consulted: files get renamed, and HTTP servers
    /// sometimes hand out a `.gz` already decompressed.
    public init<D: ContiguousBytes>(detecting data: D) {
        if Compression.isGzip(data) {
            self = .gzip
        } else if Compression.isBzip2(data) {
            self = .bzip2
        } else {
            self = .none
        }
    }

    /// The document inside `data`, decompressed if it is compressed, never beyond `limit` bytes.
    ///
    /// - Throws: ``OSMXMLError`` with kind ``OSMXMLError/Kind/corruptCompression`` or
    ///   ``OSMXMLError/Kind/tooLarge``.
    public static func decompress(_ data: Data, limit: Int = OSMChange.defaultDecompressedLimit) throws(OSMXMLError) -> Data {
        OSMChangeCompression(detecting: data) == .none ? data : Data(try decompressedBytes(data, limit: limit))
    }

    static func decompressedBytes(_ data: Data, limit: Int) throws(OSMXMLError) -> [UInt8] {
        let compression = OSMChangeCompression(detecting: data)
        do {
            switch compression {
            case .none: return [UInt8](data)
            case .gzip: return try Compression.gunzipFile(data, limit: max(limit, 0))
            case .bzip2: return try Compression.bunzip2File(data, limit: max(limit, 0))
            }
        } catch {
            throw OSMXMLError(kind: error.exceedsLimit ? .tooLarge : .corruptCompression, line: 0, column: 0, byteOffset: 0,
                              problem: "the \(compression == .gzip ? "gzip" : "bzip2")-compressed document: \(error.message)")
        }
    }

    /// Whether data starts, after white space or a byte order mark, with '<': plain XML rather than a
    /// corrupt compressed file.
    static func looksLikeXML(_ data: Data) -> Bool {
        for byte in data.prefix(64) {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF: continue
            case UInt8(ascii: "<"): return true
            default: return false
            }
        }
        return false
    }
}

// MARK: - Document structure

extension OSMXMLScanner {
    mutating func readChangeDocument() throws(OSMXMLError) -> OSMChange {
        var document = OSMChange()
        let root = try readRootElement(named: "osmChange", kind: .notOSMChange)
        (document.version, document.generator) = (root.version, root.generator)
        let rootTag = root.tag
        rejectsUnknownChildren = true
        if !rootTag.selfClosing {
            while case .start(let block) = try nextChild(of: rootTag) {
                let action: OSMChange.Action
                if equals(block.name, "create") {
                    action = .create
                } else if equals(block.name, "modify") {
                    action = .modify
                } else if equals(block.name, "delete") {
                    action = .delete
                } else if equals(block.name, "node") || equals(block.name, "way") || equals(block.name, "relation") {
                    throw failure(.unexpectedElement, at: block.offset,
                                  "<\(string(block.name))> directly inside <osmChange>; elements belong inside <create>, <modify> or <delete>")
                } else {
                    throw failure(.unexpectedElement, at: block.offset,
                                  "unknown action <\(string(block.name))> in <osmChange>; expected <create>, <modify> or <delete>")
                }
                let ifUnused = action == .delete && attribute(block, "if-unused") != nil
                if !block.selfClosing {
                    while case .start(let element) = try nextChild(of: block) {
                        document.changes.append(try readChange(element, action: action, ifUnused: ifUnused))
                    }
                }
            }
        }
        // Only comments, processing instructions and white space may follow the root.
        if case .start(let extra) = try nextEvent() {
            throw failure(.malformedXML, at: extra.offset, "a second root element <\(string(extra.name))> follows </osmChange>")
        }
        return document
    }

    private mutating func readChange(_ tag: XMLStartTag, action: OSMChange.Action, ifUnused: Bool) throws(OSMXMLError) -> OSMChange.Change {
        let isNode = equals(tag.name, "node")
        guard isNode || equals(tag.name, "way") || equals(tag.name, "relation") else {
            throw failure(.unexpectedElement, at: tag.offset,
                          "<\(string(tag.name))> inside <\(action)>; expected <node>, <way> or <relation>")
        }
        // The id first, so that an element without one is reported as such before anything else.
        let id = try integer(tag, "id")
        let version = try changeVersion(tag)
        var rawTimestamp: String?
        var timestamp: Date?
        if let a = attribute(tag, "timestamp") {
            let text = try unescaped(a.value, at: a.offset)
            guard let date = OSMTimestamp.parse(text) else {
                throw failure(.invalidAttribute, at: a.offset,
                              "<\(string(tag.name)) id=\"\(id)\"> timestamp=\"\(text)\" is not an ISO 8601 time like 2026-11-27T10:00:00Z")
            }
            rawTimestamp = text
            timestamp = date
        }
        let element: OSMChange.Element
        var hasLocation = true
        if isNode {
            let hasLat = attribute(tag, "lat") != nil
            let hasLon = attribute(tag, "lon") != nil
            var location = OSMLocation(latitudeE7: 0, longitudeE7: 0)
            if hasLat || hasLon || action != .delete {
                guard hasLat else { throw missingCoordinate("lat", tag, id: id, action: action) }
                guard hasLon else { throw missingCoordinate("lon", tag, id: id, action: action) }
                location = OSMLocation(latitudeE7: try degrees(tag, "lat", limit: 90), longitudeE7: try degrees(tag, "lon", limit: 180))
            } else {
                hasLocation = false
            }
            element = .node(OSMNode(id: id, location: location, tags: try readNodeChildren(tag)))
        } else if equals(tag.name, "way") {
            element = .way(try readWay(tag))
        } else {
            element = .relation(try readRelation(tag))
        }
        return OSMChange.Change(action: action, element: element, version: version, timestamp: timestamp,
                                rawTimestamp: rawTimestamp, ifUnused: ifUnused, hasLocation: hasLocation)
    }

    private func changeVersion(_ tag: XMLStartTag) throws(OSMXMLError) -> Int? {
        guard let a = attribute(tag, "version") else { return nil }
        let value = try integer(tag, "version")
        guard value >= 0 else {
            throw failure(.invalidAttribute, at: a.offset, "<\(string(tag.name))> version=\"\(value)\" is negative")
        }
        return Int(value)
    }

    private func missingCoordinate(_ name: String, _ tag: XMLStartTag, id: Int64, action: OSMChange.Action) -> OSMXMLError {
        let why = action == .delete
            ? "a deleted node gives both lat and lon or neither"
            : "a node in <\(action)> needs lat and lon"
        return failure(.missingAttribute, at: tag.offset, "<node id=\"\(id)\"> in <\(action)> has no \(name) attribute; \(why)")
    }
}
