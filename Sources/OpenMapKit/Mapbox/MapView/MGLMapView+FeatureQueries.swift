// Mapbox's rendered-feature queries: the engine's (MKMapView's) query of what its last frame drew,
// answered as Mapbox's feature objects. The hit testing, layer filters and z-order are MapRender's
// (FeatureQuery.swift); this file only turns a predicate into a filter and a rendered feature
// into an MGLFeature.

import Foundation
import MapGeometry
import MapRender
import MapStyle

extension MGLMapView {
    /// The map's features drawn at `point` (in the map view's coordinates) in the last frame
    /// ``render()`` drew, topmost first (Mapbox's `visibleFeatures(at:)`).
    ///
    /// As Mapbox documents: only features some style layer drew (after its filter, zoom range and
    /// visibility) count; their `attributes` are the source's, not computed style values; a
    /// vector tile's geometry is cut at the tile's edge, and a feature without an identifier that
    /// spans tiles comes once per tile. Annotations and overlays are not map features.
    ///
    /// Differs from Mapbox: the answer is for the last frame drawn (there is no display link
    /// drawing continuously): render first. Nothing is found before the first frame or after
    /// one that failed.
    public func visibleFeatures(at point: CGPoint) -> [MGLFeature] {
        visibleFeatures(at: point, styleLayerIdentifiers: nil, predicate: nil)
    }

    /// The features drawn at `point` by the style layers named in `styleLayerIdentifiers` (all
    /// layers when nil), topmost first; see ``visibleFeatures(at:)``.
    public func visibleFeatures(at point: CGPoint, styleLayerIdentifiers: Set<String>?) -> [MGLFeature] {
        visibleFeatures(at: point, styleLayerIdentifiers: styleLayerIdentifiers, predicate: nil)
    }

    /// The features drawn at `point` by the named style layers that also satisfy `predicate`
    /// (evaluated on each feature as a layer filter is), topmost first; see ``visibleFeatures(at:)``.
    /// A predicate the style language cannot express finds nothing.
    public func visibleFeatures(at point: CGPoint, styleLayerIdentifiers: Set<String>?, predicate: NSPredicate?) -> [MGLFeature] {
        guard let filter = Self.filter(predicate) else { return [] }
        // Mapbox tests a point with a small box around it (the touch's slop); one point of
        // tolerance does the same for hairlines and polygon edges.
        return engine.renderedFeatures(at: point, tolerance: 1, layerIDs: styleLayerIdentifiers, filter: filter).map(Self.feature)
    }

    /// The map's features drawn in `rect` (in the map view's coordinates) in the last frame,
    /// topmost first (Mapbox's `visibleFeatures(in:)`); see ``visibleFeatures(at:)``.
    public func visibleFeatures(in rect: CGRect) -> [MGLFeature] {
        visibleFeatures(in: rect, styleLayerIdentifiers: nil, predicate: nil)
    }

    /// The features drawn in `rect` by the named style layers (all when nil), topmost first.
    public func visibleFeatures(in rect: CGRect, styleLayerIdentifiers: Set<String>?) -> [MGLFeature] {
        visibleFeatures(in: rect, styleLayerIdentifiers: styleLayerIdentifiers, predicate: nil)
    }

    /// The features drawn in `rect` by the named style layers that satisfy `predicate`, topmost first.
    public func visibleFeatures(in rect: CGRect, styleLayerIdentifiers: Set<String>?, predicate: NSPredicate?) -> [MGLFeature] {
        guard let filter = Self.filter(predicate) else { return [] }
        return engine.renderedFeatures(in: rect, layerIDs: styleLayerIdentifiers, filter: filter).map(Self.feature)
    }

    /// `predicate` as a boolean style expression: `.some(nil)` without a predicate, nil when the
    /// style language cannot express it.
    private static func filter(_ predicate: NSPredicate?) -> MapStyle.Expression?? {
        guard let predicate else { return .some(nil) }
        guard let json = try? predicate.mglJSON(), let expression = try? MapStyle.Expression.parse(json, expected: .boolean) else { return nil }
        return .some(expression)
    }

    /// A rendered feature as Mapbox's feature class for its geometry, with its identifier and attributes.
    static func feature(_ rendered: RenderedFeature) -> MGLFeature {
        let feature: MGLFeature & MGLShape
        switch rendered.geometry {
        case .points(let points) where points.count == 1:
            // A clustered shape source's cluster (MapRender gives it `cluster: true`).
            let point = rendered.properties["cluster"] == .bool(true) && rendered.sourceLayer == nil
                ? MGLPointFeatureCluster() : MGLPointFeature()
            point.coordinate = points[0]
            feature = point
        case .points(let points):
            feature = MGLPointCollectionFeature(coordinates: points)
        case .lines(let lines) where lines.count == 1:
            feature = MGLPolylineFeature(coordinates: lines[0])
        case .lines(let lines):
            feature = MGLMultiPolylineFeature(polylines: lines.map { MGLPolyline(coordinates: $0) })
        case .polygons(let polygons) where polygons.count == 1:
            let rings = polygons[0]
            feature = MGLPolygonFeature(coordinates: rings.first ?? [], interiorPolygons: Self.holes(rings))
        case .polygons(let polygons):
            feature = MGLMultiPolygonFeature(polygons: polygons.map { MGLPolygon(coordinates: $0.first ?? [], interiorPolygons: Self.holes($0)) })
        }
        feature.identifier = rendered.id.map(FoundationJSON.object)
        feature.attributes = Dictionary(rendered.properties.members.map { ($0.key, FoundationJSON.object($0.value)) },
                                        uniquingKeysWith: { _, last in last })
        return feature
    }

    /// The rings after the first (the outer one) as interior polygons; nil when there are none.
    private static func holes(_ rings: [[CLLocationCoordinate2D]]) -> [MGLPolygon]? {
        rings.count > 1 ? rings.dropFirst().map { MGLPolygon(coordinates: $0) } : nil
    }
}
