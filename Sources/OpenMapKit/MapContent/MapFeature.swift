// Selecting the map's own features from a `Map { }` (SwiftUI's `MapFeature`, iOS 17): a map whose
// selection binding is of type `MapFeature?` lets a person select the points of interest,
// places and physical features the map draws, through the map view's selectable map features
// (MKMapView+MapFeatures.swift) — the same engine capability, another face.

import Foundation

/// A feature the map draws itself that a person selected (SwiftUI's `MapFeature`): a point of
/// interest, a territory or a physical feature. Resolve it to an ``MKMapItem`` with
/// ``MKMapItemRequest/init(feature:)``.
public struct MapFeature: Hashable, @unchecked Sendable {
    /// The kinds of feature (SwiftUI's `MapFeature.FeatureKind`).
    public enum FeatureKind: Sendable, Hashable {
        case pointOfInterest, territory, physicalFeature
    }

    /// The kind of feature.
    public let kind: FeatureKind
    /// The name the map shows.
    public let title: String?
    /// Where its label is.
    public let coordinate: CLLocationCoordinate2D
    /// The point of interest's category; nil for other features or an unknown category.
    public let pointOfInterestCategory: MKPointOfInterestCategory?
    /// The colour of the point of interest's icon; nil for other features.
    public let backgroundColor: Color?
    /// The point of interest's glyph; nil for other features.
    public let image: Image?

    /// The map view's annotation it was made from, which resolving it reads.
    let annotation: MKMapFeatureAnnotation

    init(_ annotation: MKMapFeatureAnnotation) {
        self.annotation = annotation
        kind = switch annotation.featureType {
        case .pointOfInterest: .pointOfInterest
        case .territory: .territory
        case .physicalFeature: .physicalFeature
        }
        title = annotation.title
        coordinate = annotation.coordinate
        pointOfInterestCategory = annotation.pointOfInterestCategory
        backgroundColor = annotation.iconStyle.map { Color($0.backgroundColor) }
        image = annotation.iconStyle.map { Image(uiImage: $0.image) }
    }

    /// Features are the same when they are the same label of the same map: kind, name and place.
    public static func == (a: MapFeature, b: MapFeature) -> Bool {
        a.kind == b.kind && a.title == b.title && a.coordinate.latitude == b.coordinate.latitude
            && a.coordinate.longitude == b.coordinate.longitude
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(title)
        hasher.combine(coordinate.latitude)
        hasher.combine(coordinate.longitude)
    }
}

extension MKMapItemRequest {
    /// A request for the map item a selected ``MapFeature`` stands for.
    public convenience init(feature: MapFeature) {
        self.init(mapFeatureAnnotation: feature.annotation)
    }
}

extension Map {
    /// Which features a person may not select (SwiftUI's `mapFeatureSelectionDisabled`): those
    /// `isDisabled` returns true for stay unselected.
    public func mapFeatureSelectionDisabled(_ isDisabled: @escaping (MapFeature) -> Bool) -> Map {
        var copy = self
        copy.featureSelectionDisabled = isDisabled
        return copy
    }
}
