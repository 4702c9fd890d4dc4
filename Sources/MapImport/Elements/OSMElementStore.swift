import Foundation
import GRDB
import MapFormats

// The OSM elements of an import, kept in the bundle so that change files can be applied to it
// later (osm2pgsql's "slim" tables play this part for its database). An osmChange names only the
// elements that changed; applying it needs everything around them: a moved node changes every
// way through it and every multipolygon those ways bound, and a changed way needs the locations
// of its unchanged nodes. So the store keeps
//
// - every node's location, and the tags of tagged nodes;
// - every way's node ids and tags, every relation's members and tags;
// - the references backwards: the ways through a node, the relations holding a node, way or
//   relation.
//
// One SQLite file (`osm.sqlite`): the import writes it in bulk, in file order; an update changes
// it in one transaction, so a failed update leaves it as it was. Tags, node lists and members are
// packed into protobuf-style blobs (varints, node ids delta-coded): compact, and read whole, as an
// update always needs them.

/// The schema shared by ``OSMElementStoreWriter`` and ``OSMElementStore``.
enum OSMElementSchema {
    /// Bumped when the tables change; a store of another version is refused with a reason.
    static let version = 1

    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE nodes (id INTEGER PRIMARY KEY, lat INTEGER NOT NULL, lon INTEGER NOT NULL, tags BLOB);
            CREATE TABLE ways (id INTEGER PRIMARY KEY, nodes BLOB NOT NULL, tags BLOB);
            CREATE TABLE relations (id INTEGER PRIMARY KEY, members BLOB NOT NULL, tags BLOB);
            -- Written unsorted during the import, copied sorted into the indexed tables at the end.
            CREATE TABLE staged_way_nodes (node INTEGER NOT NULL, way INTEGER NOT NULL);
            CREATE TABLE staged_members (type INTEGER NOT NULL, ref INTEGER NOT NULL, relation INTEGER NOT NULL);
            """)
        try db.execute(sql: "INSERT INTO metadata (key, value) VALUES ('schema', ?)", arguments: [String(version)])
    }

    /// The backward references, clustered by the referenced element (WITHOUT ROWID: the key is
    /// the row, so a lookup reads one run of a B-tree and nothing else).
    static func createReferenceTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE way_nodes (node INTEGER NOT NULL, way INTEGER NOT NULL, PRIMARY KEY (node, way)) WITHOUT ROWID;
            CREATE TABLE members (type INTEGER NOT NULL, ref INTEGER NOT NULL, relation INTEGER NOT NULL,
                                  PRIMARY KEY (type, ref, relation)) WITHOUT ROWID;
            """)
    }

    // MARK: Blobs

    static func encode(tags: OSMTags) -> [UInt8]? {
        guard !tags.isEmpty else { return nil }
        var writer = ProtobufWriter()
        for tag in tags {
            writer.writeStringField(1, tag.key)
            writer.writeStringField(2, tag.value)
        }
        return writer.bytes
    }

    static func decodeTags(_ data: Data?) throws -> OSMTags {
        guard let data, !data.isEmpty else { return [] }
        return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> OSMTags in
            var reader = ProtobufReader(bytes)
            var tags: OSMTags = []
            var key: String?
            while let field = try reader.nextField() {
                switch field.number {
                case 1: key = try reader.readString()
                case 2:
                    guard let k = key else { throw OSMElementStoreError.corrupt("a tag value without its key") }
                    tags.append((key: k, value: try reader.readString()))
                    key = nil
                default: try reader.skip(field.wireType)
                }
            }
            return tags
        }
    }

    static func encode(nodeRefs: [Int64]) -> [UInt8] {
        var packed = ProtobufWriter()
        var previous: Int64 = 0
        for ref in nodeRefs {
            packed.writeVarint(ProtobufWriter.zigzag(ref &- previous))
            previous = ref
        }
        return packed.bytes
    }

    static func decodeNodeRefs(_ data: Data) throws -> [Int64] {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> [Int64] in
            var reader = ProtobufReader(bytes)
            var refs: [Int64] = []
            var previous: Int64 = 0
            while !reader.isAtEnd {
                previous = previous &+ unzigzag(try reader.readVarint())
                refs.append(previous)
            }
            return refs
        }
    }

    static func encode(members: [OSMRelation.Member]) -> [UInt8] {
        var writer = ProtobufWriter()
        var previous: Int64 = 0
        for member in members {
            writer.writeVarintField(1, UInt64(member.type.rawValue))
            writer.writeSInt64Field(2, member.ref &- previous)
            writer.writeStringField(3, member.role)
            previous = member.ref
        }
        return writer.bytes
    }

    static func decodeMembers(_ data: Data) throws -> [OSMRelation.Member] {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> [OSMRelation.Member] in
            var reader = ProtobufReader(bytes)
            var members: [OSMRelation.Member] = []
            var type: OSMEntityType?
            var ref: Int64?
            var previous: Int64 = 0
            while let field = try reader.nextField() {
                switch field.number {
                case 1:
                    guard let t = OSMEntityType(rawValue: UInt8(truncatingIfNeeded: try reader.readVarint())) else {
                        throw OSMElementStoreError.corrupt("a member of an unknown type")
                    }
                    type = t
                case 2:
                    previous = previous &+ (try reader.readSInt64())
                    ref = previous
                case 3:
                    guard let t = type, let r = ref else { throw OSMElementStoreError.corrupt("a member role before its type and id") }
                    members.append(OSMRelation.Member(type: t, ref: r, role: try reader.readString()))
                    (type, ref) = (nil, nil)
                default: try reader.skip(field.wireType)
                }
            }
            return members
        }
    }

    static func unzigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))) }
}

/// What went wrong with a bundle's element store.
public enum OSMElementStoreError: Error, CustomStringConvertible, Equatable {
    /// The bundle has no element store: it was imported with `--no-update-data`, or before stores existed.
    case missing(String)
    /// The store was written by another version of the schema.
    case version(found: String, expected: Int)
    /// A blob or row that cannot be read.
    case corrupt(String)
    /// SQLite refused an operation.
    case database(String)

    public var description: String {
        switch self {
        case .missing(let path): "\(path) has no OSM element store: import the extract again without --no-update-data to update it"
        case .version(let found, let expected): "the OSM element store has schema \(found); this version reads \(expected): import the extract again"
        case .corrupt(let reason): "the OSM element store is damaged: \(reason)"
        case .database(let reason): "the OSM element store: \(reason)"
        }
    }
}

/// Writes a bundle's element store during an import: elements in file order, in bulk
/// (``BulkSQLiteWriter``: no journal, large transactions), the backward references sorted into
/// their tables by ``finish()``.
///
/// Blocks are written on a queue of the writer's own, so SQLite's work overlaps the import's;
/// at most ``maximumPendingBlocks`` wait (memory stays bounded when the disk is the slower side).
/// The first error stops the writing and is thrown by the next call.
public final class OSMElementStoreWriter: @unchecked Sendable {
    /// Blocks handed over and not yet written, at most.
    public static let maximumPendingBlocks = 16

    private let writer: BulkSQLiteWriter
    private let queue = DispatchQueue(label: "OSMElementStoreWriter")
    private let pending = DispatchSemaphore(value: OSMElementStoreWriter.maximumPendingBlocks)
    private let lock = NSLock()
    private var failure: (any Error)?
    public let url: URL

    public init(url: URL) throws {
        self.url = url
        writer = try BulkSQLiteWriter(url: url, cacheKilobytes: 64 * 1024, create: OSMElementSchema.create)
    }

    /// A block's nodes (every location, the tags of tagged ones), ways and relations.
    public func add(_ block: OSMPrimitiveBlock) throws {
        try rethrowFailure()
        pending.wait()
        queue.async { [self] in
            defer { pending.signal() }
            guard lock.withLock({ failure == nil }) else { return }
            do { try write(block) } catch { lock.withLock { failure = failure ?? error } }
        }
    }

    /// Records a value about the store (such as the extract's bounds), written with the elements.
    public func setMetadata(_ key: String, _ value: String) throws {
        try rethrowFailure()
        queue.async { [self] in
            guard lock.withLock({ failure == nil }) else { return }
            do {
                try writer.insert { try $0.execute(sql: "INSERT OR REPLACE INTO metadata (key, value) VALUES (?, ?)", arguments: [key, value]) }
            } catch {
                lock.withLock { failure = failure ?? error }
            }
        }
    }

    private func rethrowFailure() throws {
        if let error = lock.withLock({ failure }) { throw error }
    }

    private func write(_ block: OSMPrimitiveBlock) throws {
        let columns = block.nodes
        if columns.count > 0 {
            try writer.insert { db in
                let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO nodes (id, lat, lon, tags) VALUES (?, ?, ?, ?)")
                for i in 0..<columns.count {
                    let range = columns.tags.range(of: i)
                    let tags: OSMTags = range.map { (key: block.strings[columns.tags.keys[$0]], value: block.strings[columns.tags.values[$0]]) }
                    let location = columns.locations[i]
                    try statement.execute(arguments: [columns.ids[i], location.latitudeE7, location.longitudeE7,
                                                      OSMElementSchema.encode(tags: tags).map { Data($0) }])
                }
            }
        }
        try block.forEachWay { way in
            try writer.insert { db in
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO ways (id, nodes, tags) VALUES (?, ?, ?)")
                    .execute(arguments: [way.id, Data(OSMElementSchema.encode(nodeRefs: way.nodeRefs)), OSMElementSchema.encode(tags: way.tags).map { Data($0) }])
                let reference = try db.cachedStatement(sql: "INSERT INTO staged_way_nodes (node, way) VALUES (?, ?)")
                for node in Set(way.nodeRefs) { try reference.execute(arguments: [node, way.id]) }
            }
        }
        try block.forEachRelation { relation in
            try writer.insert { db in
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO relations (id, members, tags) VALUES (?, ?, ?)")
                    .execute(arguments: [relation.id, Data(OSMElementSchema.encode(members: relation.members)),
                                         OSMElementSchema.encode(tags: relation.tags).map { Data($0) }])
                let reference = try db.cachedStatement(sql: "INSERT INTO staged_members (type, ref, relation) VALUES (?, ?, ?)")
                for member in Set(relation.members.map { OSMElementKey(type: $0.type, id: $0.ref) }) {
                    try reference.execute(arguments: [Int(member.type.rawValue), member.id, relation.id])
                }
            }
        }
    }

    /// Waits for the blocks handed over, sorts the backward references into their clustered
    /// tables (one sort, rather than keeping B-trees in order through millions of out-of-order
    /// inserts) and closes the file.
    public func finish() throws {
        queue.sync {}
        try rethrowFailure()
        try writer.finish { db in
            try db.inTransaction {
                try OSMElementSchema.createReferenceTables(db)
                try db.execute(sql: """
                    INSERT OR IGNORE INTO way_nodes (node, way) SELECT node, way FROM staged_way_nodes ORDER BY node, way;
                    INSERT OR IGNORE INTO members (type, ref, relation) SELECT type, ref, relation FROM staged_members ORDER BY type, ref, relation;
                    DROP TABLE staged_way_nodes;
                    DROP TABLE staged_members;
                    """)
                return .commit
            }
            try db.execute(sql: "VACUUM")
        }
    }

    /// Stops writing (an import that failed or was cancelled): waits for the queue, writes nothing more.
    public func abandon() {
        lock.withLock { failure = failure ?? ImportError.cancelled }
        queue.sync {}
    }
}

/// A bundle's element store, for reading and for applying changes.
///
/// Reads see the store as it is; ``update(_:)`` runs changes in one transaction, so they land
/// whole or not at all (SQLite's rollback journal keeps the old pages until the commit).
public final class OSMElementStore: @unchecked Sendable {
    private let queue: DatabaseQueue
    public let url: URL

    /// Opens the store at `url`; `writable` for updates.
    public init(url: URL, writable: Bool = false) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { throw OSMElementStoreError.missing(url.deletingLastPathComponent().path) }
        self.url = url
        var configuration = Configuration()
        configuration.readonly = !writable
        do {
            queue = try DatabaseQueue(path: url.path, configuration: configuration)
            let schema = try queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM metadata WHERE key = 'schema'") }
            guard schema == String(OSMElementSchema.version) else {
                throw OSMElementStoreError.version(found: schema ?? "none", expected: OSMElementSchema.version)
            }
        } catch let error as OSMElementStoreError {
            throw error
        } catch {
            throw OSMElementStoreError.database("\(error)")
        }
    }

    /// Runs `body` with read access.
    public func read<T>(_ body: (OSMElementReader) throws -> T) throws -> T {
        do { return try queue.read { db in try body(OSMElementReader(db: db)) } } catch let error as OSMElementStoreError { throw error } catch {
            throw OSMElementStoreError.database("\(error)")
        }
    }

    /// Runs `body`'s reads and writes in one transaction: all of them land, or (when it throws) none.
    public func update<T>(_ body: (OSMElementWriter) throws -> T) throws -> T {
        do { return try queue.write { db in try body(OSMElementWriter(db: db)) } } catch let error as OSMElementStoreError { throw error } catch {
            throw OSMElementStoreError.database("\(error)")
        }
    }
}

/// Reads elements and backward references inside ``OSMElementStore/read(_:)`` or ``OSMElementStore/update(_:)``.
public struct OSMElementReader {
    let db: Database

    public func node(_ id: Int64) throws -> OSMNode? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT lat, lon, tags FROM nodes WHERE id = ?"), arguments: [id]) else { return nil }
        return OSMNode(id: id, location: OSMLocation(latitudeE7: row[0], longitudeE7: row[1]), tags: try OSMElementSchema.decodeTags(row[2]))
    }

    public func location(of id: Int64) throws -> OSMLocation? {
        // Both coordinates packed in one integer column: a single value costs SQLite and GRDB
        // far less than a row, and updates ask for every node of every way they reach.
        guard let packed = try Int64.fetchOne(db.cachedStatement(sql: "SELECT (lat << 32) | (lon & 4294967295) FROM nodes WHERE id = ?"),
                                              arguments: [id]) else { return nil }
        return OSMLocation(latitudeE7: Int32(truncatingIfNeeded: packed >> 32), longitudeE7: Int32(truncatingIfNeeded: packed))
    }

    public func way(_ id: Int64) throws -> OSMWay? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT nodes, tags FROM ways WHERE id = ?"), arguments: [id]) else { return nil }
        return OSMWay(id: id, nodeRefs: try OSMElementSchema.decodeNodeRefs(row[0]), tags: try OSMElementSchema.decodeTags(row[1]))
    }

    public func relation(_ id: Int64) throws -> OSMRelation? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT members, tags FROM relations WHERE id = ?"), arguments: [id]) else { return nil }
        return OSMRelation(id: id, members: try OSMElementSchema.decodeMembers(row[0]), tags: try OSMElementSchema.decodeTags(row[1]))
    }

    /// The ways that pass through node `id`, in id order.
    public func ways(through id: Int64) throws -> [Int64] {
        try Int64.fetchAll(db.cachedStatement(sql: "SELECT way FROM way_nodes WHERE node = ? ORDER BY way"), arguments: [id])
    }

    /// The relations that have the element as a member, in id order.
    public func relations(containing type: OSMEntityType, _ id: Int64) throws -> [Int64] {
        try Int64.fetchAll(db.cachedStatement(sql: "SELECT relation FROM members WHERE type = ? AND ref = ? ORDER BY relation"),
                           arguments: [Int(type.rawValue), id])
    }

    /// Elements of each kind.
    public func counts() throws -> (nodes: Int, ways: Int, relations: Int) {
        (try Int.fetchOne(db, sql: "SELECT count(*) FROM nodes") ?? 0,
         try Int.fetchOne(db, sql: "SELECT count(*) FROM ways") ?? 0,
         try Int.fetchOne(db, sql: "SELECT count(*) FROM relations") ?? 0)
    }

    /// A value the store keeps about itself (such as the replication sequence it has reached).
    public func metadata(_ key: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM metadata WHERE key = ?", arguments: [key])
    }
}

/// Changes elements inside ``OSMElementStore/update(_:)``, keeping the backward references in
/// step: a way's old nodes lose it, its new ones gain it.
public struct OSMElementWriter {
    let db: Database
    /// Reads see the transaction's own writes.
    public var reader: OSMElementReader { OSMElementReader(db: db) }

    public func put(_ node: OSMNode) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO nodes (id, lat, lon, tags) VALUES (?, ?, ?, ?)")
            .execute(arguments: [node.id, node.location.latitudeE7, node.location.longitudeE7, OSMElementSchema.encode(tags: node.tags).map { Data($0) }])
    }

    public func put(_ way: OSMWay) throws {
        let old = try reader.way(way.id).map { Set($0.nodeRefs) } ?? []
        let new = Set(way.nodeRefs)
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO ways (id, nodes, tags) VALUES (?, ?, ?)")
            .execute(arguments: [way.id, Data(OSMElementSchema.encode(nodeRefs: way.nodeRefs)), OSMElementSchema.encode(tags: way.tags).map { Data($0) }])
        for node in old.subtracting(new) {
            try db.cachedStatement(sql: "DELETE FROM way_nodes WHERE node = ? AND way = ?").execute(arguments: [node, way.id])
        }
        for node in new.subtracting(old) {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO way_nodes (node, way) VALUES (?, ?)").execute(arguments: [node, way.id])
        }
    }

    public func put(_ relation: OSMRelation) throws {
        let key = { (m: OSMRelation.Member) in OSMElementKey(type: m.type, id: m.ref) }
        let old = try reader.relation(relation.id).map { Set($0.members.map(key)) } ?? []
        let new = Set(relation.members.map(key))
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO relations (id, members, tags) VALUES (?, ?, ?)")
            .execute(arguments: [relation.id, Data(OSMElementSchema.encode(members: relation.members)),
                                 OSMElementSchema.encode(tags: relation.tags).map { Data($0) }])
        for member in old.subtracting(new) {
            try db.cachedStatement(sql: "DELETE FROM members WHERE type = ? AND ref = ? AND relation = ?")
                .execute(arguments: [Int(member.type.rawValue), member.id, relation.id])
        }
        for member in new.subtracting(old) {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO members (type, ref, relation) VALUES (?, ?, ?)")
                .execute(arguments: [Int(member.type.rawValue), member.id, relation.id])
        }
    }

    /// Removes an element and the references it made (references to it stay: a way whose node
    /// was deleted still lists it, as in OSM data that arrives out of step).
    public func delete(_ type: OSMEntityType, _ id: Int64) throws {
        switch type {
        case .node:
            try db.cachedStatement(sql: "DELETE FROM nodes WHERE id = ?").execute(arguments: [id])
        case .way:
            // The references are keyed by node: they are found through the way's own list.
            for node in Set(try reader.way(id)?.nodeRefs ?? []) {
                try db.cachedStatement(sql: "DELETE FROM way_nodes WHERE node = ? AND way = ?").execute(arguments: [node, id])
            }
            try db.cachedStatement(sql: "DELETE FROM ways WHERE id = ?").execute(arguments: [id])
        case .relation:
            for member in Set(try reader.relation(id)?.members.map { OSMElementKey(type: $0.type, id: $0.ref) } ?? []) {
                try db.cachedStatement(sql: "DELETE FROM members WHERE type = ? AND ref = ? AND relation = ?")
                    .execute(arguments: [Int(member.type.rawValue), member.id, id])
            }
            try db.cachedStatement(sql: "DELETE FROM relations WHERE id = ?").execute(arguments: [id])
        }
    }

    public func setMetadata(_ key: String, _ value: String) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO metadata (key, value) VALUES (?, ?)", arguments: [key, value])
    }
}


/// A store's elements as an import reads a PBF file: nodes, ways, then relations, each by id, in
/// blocks of ``blockSize`` — so the parts of a bundle made from the whole of the data (the place
/// index, the road graphs, the street scene) can be made again from the updated store with the
/// import's own code. Reads through `reader`, so inside an update's transaction it sees the
/// change before it is committed.
public struct OSMElementStoreBlocks: OSMBlockSource {
    public static let blockSize = 8000
    let reader: OSMElementReader
    public let header: OSMPBFHeader
    public let fileSize: Int

    public init(reader: OSMElementReader) throws {
        self.reader = reader
        var header = OSMPBFHeader()
        // The extract's box, as the import recorded it (the sea and cut boundaries close along it).
        if let bounds = try reader.metadata("bounds")?.split(separator: ",").compactMap({ Int64($0) }), bounds.count == 4 {
            header.boundingBox = OSMPBFHeader.BoundingBox(left: bounds[0], right: bounds[1], top: bounds[2], bottom: bounds[3])
        }
        self.header = header
        let counts = try reader.counts()
        fileSize = max(counts.nodes + counts.ways + counts.relations, 1)
    }

    public func scanBlocks(options: OSMPBFReadOptions, _ body: (OSMPrimitiveBlock) throws -> Void) throws {
        var position = 0, sequence = 0
        var builder = OSMPrimitiveBlockBuilder()
        func flush() throws {
            guard builder.count > 0 else { return }
            try body(builder.build(sequenceNumber: sequence, position: position))
            sequence += 1
            builder = OSMPrimitiveBlockBuilder()
        }
        let db = reader.db
        // Each kind's rows in id order, into blocks; a kind not asked for only moves the position on.
        func read(_ kind: OSMEntityKinds, _ sql: String, count: Int, _ add: (Row) throws -> Void) throws {
            guard options.kinds.contains(kind) else {
                position += count
                return
            }
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() {
                try add(row)
                position += 1
                if builder.count >= Self.blockSize { try flush() }
            }
            try flush()
        }
        let counts = try reader.counts()
        let tags = { (data: Data?) throws -> OSMTags in options.tags ? try OSMElementSchema.decodeTags(data) : [] }
        try read(.nodes, "SELECT id, lat, lon, tags FROM nodes ORDER BY id", count: counts.nodes) { row in
            builder.add(OSMNode(id: row[0], location: OSMLocation(latitudeE7: row[1], longitudeE7: row[2]), tags: try tags(row[3])))
        }
        try read(.ways, "SELECT id, nodes, tags FROM ways ORDER BY id", count: counts.ways) { row in
            builder.add(OSMWay(id: row[0], nodeRefs: try OSMElementSchema.decodeNodeRefs(row[1]), tags: try tags(row[2])))
        }
        try read(.relations, "SELECT id, members, tags FROM relations ORDER BY id", count: counts.relations) { row in
            builder.add(OSMRelation(id: row[0], members: try OSMElementSchema.decodeMembers(row[1]), tags: try tags(row[2])))
        }
    }
}
