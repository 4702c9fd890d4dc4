import Foundation
import MapFormats

/// What an osmChange did to a bundle's elements, as the stages that remake features need it:
/// which elements to make again, which are gone, and where everything was before, so that what an
/// element used to cover (its old tiles, its old place in the index) can be cleared too.
///
/// A change reaches further than the elements it names. A moved node moves every way through it;
/// a way that moved, or changed its nodes, changes every relation holding it (a multipolygon's
/// outline, a route, a turn restriction), and those relations every relation holding them. A
/// change of tags alone stays with its element: a renamed node moves no way.
public struct ElementChanges: Sendable {
    /// Elements created, modified, or reached through a member, that exist after the change: their
    /// features, places and roads are made again from the store.
    public var remade: Set<OSMElementKey> = []
    /// Elements the change deleted (that existed before it).
    public var deleted: Set<OSMElementKey> = []
    /// Nodes whose location changed (moved, created or deleted).
    public var movedNodes: Set<Int64> = []
    /// Where the nodes the change moved or deleted were before it.
    public var formerLocations: [Int64: OSMLocation] = [:]
    /// The node lists, before the change, of the ways it modified or deleted.
    public var formerWayNodes: [Int64: [Int64]] = [:]
    /// The members, before the change, of the relations it modified or deleted.
    public var formerMembers: [Int64: [OSMRelation.Member]] = [:]

    public init() {}

    /// Every element whose features may differ: remade or deleted.
    public var affected: Set<OSMElementKey> { remade.union(deleted) }
}

extension OSMElementStore {
    /// Applies `change` to the store in one transaction — each element's last state in the file
    /// wins, as replication diffs are meant to be read — and says what it reached. A change that
    /// fails part-way leaves the store as it was.
    ///
    /// Deleting an element still referenced (a node of a way the change keeps) is applied as the
    /// file says: the way then misses that node, as ways at an extract's edge do.
    public func apply(_ change: OSMChange) throws -> ElementChanges {
        try update { writer in try writer.apply(change) }
    }
}

extension OSMElementWriter {
    /// Applies `change` inside the writer's transaction (see ``OSMElementStore/apply(_:)``).
    public func apply(_ change: OSMChange) throws -> ElementChanges {
        do {
            var result = ElementChanges()
            let writer = self
            let reader = writer.reader
            let net = change.netEffect
            var touchedWays = Set<Int64>(), touchedRelations = Set<Int64>()
            for entry in net.changes {
                let key = entry.key
                // Deletes or writes the element as the entry says; false for a delete of an
                // element the store never had (nothing to undo, nothing reached).
                func store(existed: Bool, put: () throws -> Void) throws -> Bool {
                    if entry.action == .delete {
                        guard existed else { return false }
                        try writer.delete(key.type, key.id)
                        result.deleted.insert(key)
                    } else {
                        try put()
                        result.remade.insert(key)
                    }
                    return true
                }
                switch entry.element {
                case .node(let node):
                    let before = try reader.location(of: node.id)
                    guard try store(existed: before != nil, put: { try writer.put(node) }) else { continue }
                    let after = entry.action == .delete ? nil : node.location
                    if before != after {
                        result.movedNodes.insert(node.id)
                        if let before { result.formerLocations[node.id] = before }
                    }
                case .way(let way):
                    let before = try reader.way(way.id)
                    if let before { result.formerWayNodes[way.id] = before.nodeRefs }
                    guard try store(existed: before != nil, put: { try writer.put(way) }) else { continue }
                    // A way whose node list changed changes the relations holding it; a retagged one does not.
                    if before?.nodeRefs != (entry.action == .delete ? nil : way.nodeRefs) { touchedWays.insert(way.id) }
                case .relation(let relation):
                    let before = try reader.relation(relation.id)
                    if let before { result.formerMembers[relation.id] = before.members }
                    guard try store(existed: before != nil, put: { try writer.put(relation) }) else { continue }
                    touchedRelations.insert(relation.id)
                }
            }

            // Outwards: ways through moved nodes, then relations holding anything touched,
            // relation by relation until nothing new is reached (relations may nest, even in cycles).
            for node in result.movedNodes {
                for way in try reader.ways(through: node) where !result.deleted.contains(OSMElementKey(type: .way, id: way)) {
                    result.remade.insert(OSMElementKey(type: .way, id: way))
                    touchedWays.insert(way)
                }
            }
            var frontier: [OSMElementKey] = result.movedNodes.map { OSMElementKey(type: .node, id: $0) }
                + touchedWays.map { OSMElementKey(type: .way, id: $0) } + touchedRelations.map { OSMElementKey(type: .relation, id: $0) }
            var reached = Set(frontier)
            while let member = frontier.popLast() {
                for relation in try reader.relations(containing: member.type, member.id) {
                    let key = OSMElementKey(type: .relation, id: relation)
                    guard !result.deleted.contains(key) else { continue }
                    result.remade.insert(key)
                    if reached.insert(key).inserted { frontier.append(key) }
                }
            }
            return result
        }
    }
}
