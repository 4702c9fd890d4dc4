import Foundation
import MapBundle
import MapFormats
import MapGeometry
import MapRouting

/// Gathers the road network during an import's passes and builds the bundle's road graphs.
///
/// It keeps only what routing needs: each routable way's node ids and per-mode access, the
/// barrier nodes, the restriction relations, and (once ways are read) the locations of the nodes
/// routable ways use, looked up in the import's ``NodeLocationStore``.
public final class RoadNetworkCollector {
    public let network = RoadNetwork()
    public init() {}

    /// Restriction relations (`type=restriction`): from, via (node or ways), to.
    public func add(relation: OSMRelation) {
        guard relation.tags.value(for: "type") == "restriction",
              let (value, modes) = RoadProfiles.restrictionModes(relation.tags), !modes.isEmpty else { return }
        // Any no_*/only_* kind; *_on_red ones are advice to drivers at red lights, not restrictions.
        guard value.hasPrefix("no_") || value.hasPrefix("only_"), !value.hasSuffix("_on_red") else { return }
        let isOnly = value.hasPrefix("only_")
        let froms = relation.members.filter { $0.type == .way && $0.role == "from" }.map(\.ref)
        let tos = relation.members.filter { $0.type == .way && $0.role == "to" }.map(\.ref)
        let viaNodes = relation.members.filter { $0.type == .node && $0.role == "via" }.map(\.ref)
        let viaWays = relation.members.filter { $0.type == .way && $0.role == "via" }.map(\.ref)
        guard !froms.isEmpty, !tos.isEmpty, viaNodes.count + (viaWays.isEmpty ? 0 : 1) == 1 else { return }
        // Several from ways only make sense for no_entry, several to ways only for no_exit.
        if froms.count > 1 && value != "no_entry" || tos.count > 1 && value != "no_exit" { return }
        for from in froms {
            for to in tos {
                network.addRestriction(RoadNetwork.Restriction(fromWay: from, viaNode: viaNodes.first, viaWays: viaWays,
                                                               toWay: to, isOnly: isOnly, modes: modes))
            }
        }
    }

    /// A tagged node: barriers and node access tags.
    public func add(node id: Int64, tags: OSMTags) {
        guard tags.contains(where: { ["barrier", "access", "motorcar", "motor_vehicle", "vehicle", "foot", "bicycle"].contains($0.key) }) else { return }
        network.addBarrier(node: id, modes: RoadProfiles.blockedModes(node: tags))
    }

    /// The tagged nodes of a PBF block.
    public func addNodes(of block: OSMPrimitiveBlock) {
        let columns = block.nodes
        for i in 0..<columns.count {
            let range = columns.tags.range(of: i)
            guard !range.isEmpty else { continue }
            var interesting = false
            for k in range where block.strings.string(at: columns.tags.keys[k], equals: "barrier")
                || block.strings.string(at: columns.tags.keys[k], equals: "access")
                || block.strings.string(at: columns.tags.keys[k], equals: "motor_vehicle")
                || block.strings.string(at: columns.tags.keys[k], equals: "motorcar") {
                interesting = true
            }
            guard interesting else { continue }
            let tags: OSMTags = range.map { (key: block.strings[columns.tags.keys[$0]], value: block.strings[columns.tags.values[$0]]) }
            add(node: columns.ids[i], tags: tags)
        }
    }

    /// A way: kept when any mode may use it.
    public func add(way: OSMWay) {
        guard way.nodeRefs.count >= 2, way.tags.value(for: "highway") != nil || way.tags.value(for: "route") == "ferry" else { return }
        var access: [TravelMode: RoadNetwork.Access] = [:]
        for mode in TravelMode.allCases {
            let a = RoadProfiles.access(for: way.tags, mode: mode)
            if a.isOpen { access[mode] = a }
        }
        guard !access.isEmpty else { return }
        let duration = way.tags.value(for: "route") == "ferry" ? RoadProfiles.parseDuration(way.tags.value(for: "duration")) : nil
        network.addWay(id: way.id, nodes: way.nodeRefs, info: RoadProfiles.info(for: way.tags), access: access, duration: duration)
    }

    public func addWays(of block: OSMPrimitiveBlock) {
        block.forEachWay { add(way: $0) }
    }

    /// Fills in node locations from `lookup`; nodes it does not know (cut off at the extract's
    /// edge) are left out of their ways.
    public func resolveLocations(_ lookup: (Int64) -> OSMLocation?) {
        for id in network.nodesNeedingLocations() {
            if let location = lookup(id) { network.setLocation(id, latitudeE7: location.latitudeE7, longitudeE7: location.longitudeE7) }
        }
    }

    /// Hands the collected network's memory back.
    public func release() { network.removeAll() }


    /// Builds every mode's graph into `folder`; returns mode → file name, for the manifest.
    /// With `previous` (the folder of an earlier build's graphs, e.g. the bundle being updated),
    /// each mode keeps the node order of its previous graph where roads persist, skipping the
    /// nested dissection (see `RoadGraphBuilder.build(_:to:reusingOrderFrom:progress:)`); a mode
    /// without a previous graph gets a fresh order.
    /// `isCancelled` is asked before each mode: a cancelled build throws ``BuildError/cancelled``
    /// and leaves the graphs already written where they are.
    public func build(into folder: URL, reusingGraphsIn previous: URL? = nil, isCancelled: () -> Bool = { false },
                      progress: (Double) -> Void = { _ in }) throws -> [String: String] {
        var files: [String: String] = [:]
        let modes = TravelMode.allCases
        for (i, mode) in modes.enumerated() {
            if isCancelled() { throw BuildError.cancelled }
            let name = MapBundle.roadGraphFileName(for: mode)
            try RoadGraphBuilder(mode: mode).build(network, to: folder.appendingPathComponent(name),
                                                   reusingOrderFrom: previous?.appendingPathComponent(name)) {
                progress((Double(i) + $0) / Double(modes.count))
            }
            files[mode.rawValue] = name
        }
        return files
    }

    /// Why ``build(into:reusingGraphsIn:isCancelled:progress:)`` stopped early.
    public enum BuildError: Error { case cancelled }
}
