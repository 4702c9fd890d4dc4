// MKMapView's annotation clustering: annotations whose views share a clusteringIdentifier are
// grouped by screen distance into MKClusterAnnotations, shown by a cluster view of their own.
//
// The map learns an annotation's clustering identifier and display priority from its view, so
// an annotation takes part once it has had a view (it came on screen), and keeps taking part
// while off screen. Each identifier has one PointClusterIndex, which clusters the whole world at
// every zoom level at load; the map asks it for the items around the visible rectangle. The
// clusters at a zoom level are therefore fixed: panning only reveals more of them, and they are
// recomputed when the whole-number zoom level changes or the members change (added, removed,
// moved, newly seen, or their view's identifier or priority changed). A cluster with the same
// members keeps its MKClusterAnnotation object across recomputations.

import Foundation
import MapGeometry

/// What an annotation's view said about clustering, and where the annotation was, when the map
/// last looked.
struct ClusterKey: Equatable {
    var identifier: String
    var priority: Float
    var latitude: Double
    var longitude: Double
}

/// The annotations sharing one clustering identifier and their index.
struct ClusterGroup {
    var index: PointClusterIndex
    /// In load order (descending display priority, then the order added); a point's payload is
    /// its place here.
    var members: [any MKAnnotation]
}

/// A cluster's identity across recomputations: its identifier and the set of its members.
struct ClusterMembership: Hashable {
    var identifier: String
    var members: Set<ObjectIdentifier>
}

/// A cluster of the index at the current zoom, by its id within its identifier's index.
struct ClusterItemKey: Hashable {
    var identifier: String
    var id: Int
}

/// A cluster the map knows at the current zoom.
struct MapViewCluster {
    let annotation: MKClusterAnnotation
    let membership: ClusterMembership
    /// In the group's load order (the highest display priority first).
    let members: [any MKAnnotation]
}

/// What a map view keeps for clustering.
struct MapViewClusterState {
    var keys: [ObjectIdentifier: ClusterKey] = [:]
    var groups: [String: ClusterGroup] = [:]
    /// Identifiers whose index must be rebuilt before the next query.
    var dirty: Set<String> = []
    /// The whole-number zoom level the clusters were computed for.
    var zoomKey: Int?
    /// The clusters found so far at `zoomKey` (around every rectangle shown since), in the order found.
    var clusters: [MapViewCluster] = []
    var byMembership: [ClusterMembership: Int] = [:]
    var byItem: [ClusterItemKey: Int] = [:]
    /// Each clustered annotation's cluster (an index into `clusters`).
    var memberOf: [ObjectIdentifier: Int] = [:]
    /// The cluster annotations of `clusters`.
    var annotationIDs: Set<ObjectIdentifier> = []

    /// Whether there is anything to do: some annotation's view has had a clustering identifier.
    var isActive: Bool { !keys.isEmpty || !groups.isEmpty || !clusters.isEmpty }

    mutating func clearClusters() {
        clusters = []
        byMembership = [:]
        byItem = [:]
        memberOf = [:]
        annotationIDs = []
    }
}

extension MKMapView {
    /// The default distance, in points, below which annotations sharing a clustering identifier
    /// cluster: the width of a marker balloon, so markers whose balloons would overlap merge.
    public static let defaultClusteringRadius: CGFloat = 2 * CGFloat(AnnotationDrawing.headRadius)

    /// How close on screen, in points, annotations sharing a clustering identifier must be to
    /// cluster (an OpenMapKit addition; MapKit tests its views' overlap). Clusters are fixed per
    /// whole zoom level, so between whole levels the distance on screen grows from this towards
    /// twice it. Non-finite or negative values are ignored.
    public var clusteringRadius: CGFloat {
        get { clusterRadius }
        set {
            guard newValue.isFinite, newValue >= 0, newValue != clusterRadius else { return }
            clusterRadius = newValue
            clusterState.dirty.formUnion(clusterState.groups.keys)
            withCallbacks { updateVisibleContent() }
        }
    }

    /// The cluster annotations the map shows now (an OpenMapKit addition): those with a view,
    /// in the order they were formed. They are not in ``annotations``.
    public var clusterAnnotations: [MKClusterAnnotation] {
        clusterState.clusters.compactMap { annotationViews[ObjectIdentifier($0.annotation)] == nil ? nil : $0.annotation }
    }

    /// The cluster `annotation` is part of now, or nil when it stands alone (an OpenMapKit
    /// addition; works whether or not the cluster is on screen).
    public func cluster(containing annotation: any MKAnnotation) -> MKClusterAnnotation? {
        clusterState.memberOf[ObjectIdentifier(annotation)].map { clusterState.clusters[$0].annotation }
    }

    /// Whether `annotation` is a cluster the map knows now.
    func isKnownCluster(_ annotation: any MKAnnotation) -> Bool {
        annotation is MKClusterAnnotation && clusterState.annotationIDs.contains(ObjectIdentifier(annotation))
    }

    /// Whether `annotation` is drawn now as part of a cluster (its own view, if any, is hidden).
    func isClusteredMember(_ annotation: any MKAnnotation) -> Bool {
        clusterState.memberOf[ObjectIdentifier(annotation)] != nil
    }

    /// Forgets removed annotations: their groups are rebuilt at the next pass. Whether any of
    /// them took part in clustering (a pass is then needed).
    func forgetClusterKeys(of removed: [any MKAnnotation]) -> Bool {
        var changed = false
        for annotation in removed {
            if let key = clusterState.keys.removeValue(forKey: ObjectIdentifier(annotation)) {
                clusterState.dirty.insert(key.identifier)
                changed = true
            }
        }
        return changed
    }

    /// The clustering step of a content pass, after the views of annotations on screen are in
    /// place: learns identifiers from those views, rebuilds changed indexes, finds the clusters
    /// around the visible rectangle, and gives views to those on screen (appended to `added`).
    func updateClusters(added: inout [MKAnnotationView]) {
        refreshClusterKeys()
        guard clusterState.isActive else { return }
        let rebuilt = rebuildDirtyGroups()
        guard hasArea else {
            removeClusters(keeping: [])
            return
        }
        let zoomKey = Int(max(-64, min(64, viewport.zoomLevel.rounded(.down))))
        if rebuilt || zoomKey != clusterState.zoomKey {
            recomputeClusters(zoomKey: zoomKey)
        } else {
            findClusters()
        }
        // A selected annotation that joined a cluster is deselected: its view is not shown.
        if let selected = selectedAnnotation, isClusteredMember(selected) {
            deselectAnnotation(selected, animated: false)
        }
        updateClusterViews(added: &added)
    }

    /// Reads each annotation's clustering identifier and priority from its view, and its
    /// coordinate; a change marks the groups concerned for rebuilding.
    private func refreshClusterKeys() {
        for annotation in annotationStore.list where !(annotation is MKUserLocation) {
            // A dragged annotation keeps its place in the clusters until it is dropped.
            if let drag = dragState, drag.annotation === annotation { continue }
            let id = ObjectIdentifier(annotation)
            var key = clusterState.keys[id]
            if let view = annotationViews[id] {
                if let identifier = view.clusteringIdentifier {
                    let c = MKMapView.comparable(annotation.coordinate)
                    key = ClusterKey(identifier: identifier, priority: view.displayPriority.rawValue,
                                     latitude: c.latitude, longitude: c.longitude)
                } else {
                    key = nil
                }
            } else if key != nil {
                // Off screen: the view it had decided the identifier; only the coordinate can change.
                let c = MKMapView.comparable(annotation.coordinate)
                key!.latitude = c.latitude
                key!.longitude = c.longitude
            }
            let old = clusterState.keys[id]
            guard old != key else { continue }
            if let old { clusterState.dirty.insert(old.identifier) }
            if let key { clusterState.dirty.insert(key.identifier) }
            clusterState.keys[id] = key
        }
    }

    /// The coordinate, or one fixed invalid value for every invalid coordinate, so that an
    /// annotation whose coordinate is NaN does not count as moved at every pass.
    private static func comparable(_ c: CLLocationCoordinate2D) -> CLLocationCoordinate2D {
        CLLocationCoordinate2DIsValid(c) ? c : CLLocationCoordinate2D(latitude: .infinity, longitude: .infinity)
    }

    /// Rebuilds the index of every dirty identifier; whether any was rebuilt.
    private func rebuildDirtyGroups() -> Bool {
        guard !clusterState.dirty.isEmpty else { return false }
        var members: [String: [(annotation: any MKAnnotation, priority: Float)]] = [:]
        for annotation in annotationStore.list {
            guard let key = clusterState.keys[ObjectIdentifier(annotation)], clusterState.dirty.contains(key.identifier),
                  CLLocationCoordinate2DIsValid(annotation.coordinate) else { continue }
            members[key.identifier, default: []].append((annotation, key.priority))
        }
        let options = PointClusterOptions(radius: Double(clusterRadius), extent: MapViewport.worldPointsAtZoomZero,
                                          minZoom: 0, maxZoom: Int(MKMapView.maximumZoomLevel))
        for identifier in clusterState.dirty {
            guard var list = members[identifier], var index = try? PointClusterIndex(options: options) else {
                clusterState.groups[identifier] = nil
                continue
            }
            // Clustering is greedy in input order: the higher priorities start clusters. The sort
            // is stable, so equal priorities keep the order added.
            list = list.enumerated().sorted { a, b in
                a.element.priority != b.element.priority ? a.element.priority > b.element.priority : a.offset < b.offset
            }.map(\.element)
            index.load(list.enumerated().map { PointClusterIndex.Point(coordinate: $1.annotation.coordinate, payload: $0) })
            clusterState.groups[identifier] = ClusterGroup(index: index, members: list.map(\.annotation))
        }
        clusterState.dirty = []
        return true
    }

    /// The map rectangle around the view whose clusters are looked up: the visible rectangle
    /// grown by the annotation margin and by the farthest a member can be from its cluster's
    /// centre (under twice the radius at the floored zoom, so four times it on screen), so every
    /// annotation with a view is found in its cluster.
    private func clusterQueryPieces() -> [MKMapRect] {
        let margin = (Double(MKMapView.annotationMargin) + 4 * Double(clusterRadius)) * viewport.mapPointsPerPoint
        return viewport.visibleMapRect.insetBy(dx: -margin, dy: -margin).worldPieces
    }

    /// Starts over at a new zoom level or after indexes changed: the clusters around the view
    /// now, keeping the annotation objects of clusters whose members are unchanged.
    private func recomputeClusters(zoomKey: Int) {
        let previous = clusterState.clusters, previousByMembership = clusterState.byMembership
        clusterState.clearClusters()
        clusterState.zoomKey = zoomKey
        let found = queryClusters()
        var kept: Set<ObjectIdentifier> = []
        var fresh: [(membership: ClusterMembership, members: [any MKAnnotation], item: ClusterItemKey)] = []
        for (item, membership, members) in found {
            if let old = previousByMembership[membership] {
                register(previous[old], item: item)
                kept.insert(ObjectIdentifier(previous[old].annotation))
            } else {
                fresh.append((membership, members, item))
            }
        }
        // Views of clusters that are gone leave before the delegate is asked for new ones.
        removeClusters(keeping: kept, among: previous)
        for entry in fresh { makeCluster(entry.membership, members: entry.members, item: entry.item) }
    }

    /// Same zoom, same indexes: adds the clusters that came into reach.
    private func findClusters() {
        for (item, membership, members) in queryClusters(skippingKnown: true) where clusterState.byMembership[membership] == nil {
            makeCluster(membership, members: members, item: item)
        }
    }

    /// The clusters of every group around the view at the current zoom, by identifier order.
    private func queryClusters(skippingKnown: Bool = false)
        -> [(item: ClusterItemKey, membership: ClusterMembership, members: [any MKAnnotation])] {
        var result: [(ClusterItemKey, ClusterMembership, [any MKAnnotation])] = []
        let pieces = clusterQueryPieces()
        let zoom = viewport.zoomLevel
        for identifier in clusterState.groups.keys.sorted() {
            let group = clusterState.groups[identifier]!
            var seen: Set<Int> = []
            for piece in pieces {
                for item in group.index.clusters(in: piece, zoom: zoom) {
                    guard let id = item.clusterID, seen.insert(id).inserted else { continue }
                    let itemKey = ClusterItemKey(identifier: identifier, id: id)
                    if skippingKnown, clusterState.byItem[itemKey] != nil { continue }
                    guard let leaves = try? group.index.leaves(of: id, limit: .max) else { continue }
                    let order = leaves.compactMap { leaf -> Int? in
                        if case .point(_, let payload) = leaf.kind { return payload }
                        return nil
                    }.sorted()
                    let members = order.map { group.members[$0] }
                    result.append((itemKey, ClusterMembership(identifier: identifier, members: Set(members.map(ObjectIdentifier.init))), members))
                }
            }
        }
        return result
    }

    /// Asks the delegate for the annotation of a new cluster and records it.
    private func makeCluster(_ membership: ClusterMembership, members: [any MKAnnotation], item: ClusterItemKey) {
        let annotation = delegate?.mapView(self, clusterAnnotationForMemberAnnotations: members)
            ?? MKClusterAnnotation(memberAnnotations: members)
        // The delegate may have changed the annotations; that asks for another pass, which
        // recomputes. Until then this cluster stands as found.
        register(MapViewCluster(annotation: annotation, membership: membership, members: members), item: item)
    }

    private func register(_ cluster: MapViewCluster, item: ClusterItemKey?) {
        let index: Int
        if let existing = clusterState.byMembership[cluster.membership] {
            index = existing
        } else {
            clusterState.clusters.append(cluster)
            index = clusterState.clusters.count - 1
            clusterState.byMembership[cluster.membership] = index
            clusterState.annotationIDs.insert(ObjectIdentifier(cluster.annotation))
            for member in cluster.members { clusterState.memberOf[ObjectIdentifier(member)] = index }
        }
        if let item { clusterState.byItem[item] = index }
    }

    /// Takes down the views of `clusters` (by default all known) other than those in `keeping`,
    /// deselecting a selected one first; with the default, forgets every cluster.
    private func removeClusters(keeping: Set<ObjectIdentifier>, among clusters: [MapViewCluster]? = nil) {
        let all = clusters ?? clusterState.clusters
        if clusters == nil {
            clusterState.clearClusters()
            clusterState.zoomKey = nil
        }
        for cluster in all where !keeping.contains(ObjectIdentifier(cluster.annotation)) {
            if let selected = selectedAnnotation, selected === cluster.annotation {
                deselectAnnotation(selected, animated: false)
            }
            if let view = annotationViews.removeValue(forKey: ObjectIdentifier(cluster.annotation)) { enqueueForReuse(view) }
        }
    }

    /// Gives views to clusters that are on screen, queues those of clusters that left it (the
    /// selected one keeps its view), and links member views to their cluster's view.
    private func updateClusterViews(added: inout [MKAnnotationView]) {
        for cluster in clusterState.clusters {
            let id = ObjectIdentifier(cluster.annotation)
            guard let view = annotationViews[id], !isOnScreen(cluster.annotation),
                  !(selectedAnnotation === cluster.annotation) else { continue }
            annotationViews[id] = nil
            enqueueForReuse(view)
        }
        let clusters = clusterState.clusters
        for cluster in clusters {
            let annotation = cluster.annotation
            let id = ObjectIdentifier(annotation)
            guard annotationViews[id] == nil, isOnScreen(annotation) else { continue }
            let supplied = delegate?.mapView(self, viewFor: annotation)
            let view = supplied ?? defaultView(for: annotation)
            // The delegate may have changed the annotations, and so the clusters.
            guard isKnownCluster(annotation), annotationViews[id] == nil else { continue }
            if supplied == nil, let marker = view as? MKMarkerAnnotationView, marker.glyphText == nil, marker.glyphImage == nil {
                // MapKit's default cluster view: a marker showing how many it stands for.
                marker.glyphText = MKMapView.clusterGlyphText(count: cluster.members.count)
            }
            view.annotation = annotation
            view.prepareForDisplay()
            annotationViews[id] = view
            added.append(view)
        }
        for annotation in annotationStore.list {
            guard let view = annotationViews[ObjectIdentifier(annotation)] else { continue }
            if let index = clusterState.memberOf[ObjectIdentifier(annotation)] {
                view.cluster = annotationViews[ObjectIdentifier(clusterState.clusters[index].annotation)]
            } else if view.cluster != nil {
                view.cluster = nil
            }
        }
    }

    /// A count that fits a marker's three glyph characters: exact below 1000, then in
    /// thousands ("12k"), and "k+" from 100 000 on.
    static func clusterGlyphText(count: Int) -> String {
        if count < 1000 { return "\(count)" }
        if count < 100_000 { return "\(count / 1000)k" }
        return "k+"
    }
}
