// Selectable map features: a tap on a label the map drew itself (a point of interest, a place, a
// water or peak name) selects it as an MKMapFeatureAnnotation, as MapKit does from iOS 16. What
// was drawn where comes from the engine's feature query over the last frame
// (MKMapView+FeatureQueries.swift); the OpenMapTiles layer the label came from gives its kind.

import Foundation
import MapGeometry
import MapRender
import MapSearch
import MapStyle

/// Which kinds of the map's own features a person can select (MapKit's `MKMapFeatureOptions`).
public struct MKMapFeatureOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    /// Options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Points of interest: museums, cafés, parks, schools, airports (OpenMapTiles' `poi`, `park`
    /// and `aerodrome_label` labels).
    public static let pointsOfInterest = MKMapFeatureOptions(rawValue: 1 << 0)
    /// Territories: countries, states, cities, towns, neighbourhoods (the `place` labels).
    public static let territories = MKMapFeatureOptions(rawValue: 1 << 1)
    /// Physical features: seas, lakes, rivers, peaks, islands (the `water_name`, `waterway` and
    /// `mountain_peak` labels, and `place` labels of islands).
    public static let physicalFeatures = MKMapFeatureOptions(rawValue: 1 << 2)
}

/// The look of a point of interest's icon on the map (MapKit's `MKIconStyle`): its category's
/// colour and its glyph.
public final class MKIconStyle: @unchecked Sendable {
    /// The colour of the disc behind the glyph.
    public let backgroundColor: UIColor
    /// The glyph, white on a clear 20-point square.
    public let image: UIImage

    init(backgroundColor: UIColor, image: UIImage) {
        (self.backgroundColor, self.image) = (backgroundColor, image)
    }
}

/// A feature the map draws itself, selected by a tap (MapKit's `MKMapFeatureAnnotation`): a
/// point of interest, a territory or a physical feature. The map view's delegate gets it in
/// `didSelect`; resolve it to an ``MKMapItem`` with ``MKMapItemRequest/init(mapFeatureAnnotation:)``.
///
/// It is not one of the map view's ``MKMapView/annotations``; it is in
/// ``MKMapView/selectedAnnotations`` while selected, and its view (the delegate's `viewFor`, or
/// a marker in the feature's colour with its glyph) is dropped when it is deselected.
public final class MKMapFeatureAnnotation: NSObject, MKAnnotation {
    /// The kinds of feature (MapKit's `MKMapFeatureAnnotation.FeatureType`).
    public enum FeatureType: Int, Sendable, Hashable {
        /// A point of interest.
        case pointOfInterest = 0
        /// A territory: a country, a state, a city, a neighbourhood.
        case territory = 1
        /// A physical feature: a sea, a lake, a river, a peak.
        case physicalFeature = 2

        /// The option that makes features of this kind selectable.
        var option: MKMapFeatureOptions {
            switch self {
            case .pointOfInterest: return .pointsOfInterest
            case .territory: return .territories
            case .physicalFeature: return .physicalFeatures
            }
        }
    }

    /// The kind of feature.
    public let featureType: FeatureType
    /// The point of interest's category; nil for other features or an unknown category.
    public let pointOfInterestCategory: MKPointOfInterestCategory?
    /// The icon the map draws for the point of interest; nil for other features.
    public let iconStyle: MKIconStyle?
    /// Where the label is.
    public let coordinate: CLLocationCoordinate2D
    /// The feature's name as the map shows it.
    public let title: String?
    /// Always nil, as MapKit's.
    public var subtitle: String? { nil }

    /// The OpenMapTiles layer and properties of the label (what resolving it searches with).
    let sourceLayer: String
    let properties: JSONObject

    init(featureType: FeatureType, category: MKPointOfInterestCategory?, iconStyle: MKIconStyle?, coordinate: CLLocationCoordinate2D,
         title: String, sourceLayer: String, properties: JSONObject) {
        self.featureType = featureType
        self.pointOfInterestCategory = category
        self.iconStyle = iconStyle
        self.coordinate = coordinate
        self.title = title
        self.sourceLayer = sourceLayer
        self.properties = properties
        super.init()
    }

    /// The kind of place in the index the feature stands for.
    var placeKinds: Set<PlaceKind> {
        switch featureType {
        case .pointOfInterest: return [.pointOfInterest, .physicalFeature]
        case .territory: return [.locality, .administrativeArea]
        case .physicalFeature: return [.physicalFeature]
        }
    }
}

extension MKMapView {
    /// Which kinds of the map's own features a tap selects (default none, as MapKit). A tap on a
    /// label of a kind in the set (where no annotation view is) selects it as an
    /// ``MKMapFeatureAnnotation``: `didSelect` with its view, then with the annotation.
    ///
    /// Labels are found in the last frame drawn; with a style file or an overlay that replaces
    /// the map's content, no labels are known and nothing is selected.
    public var selectableMapFeatures: MKMapFeatureOptions {
        get { featureState.options }
        set { featureState.options = newValue }
    }

    /// The selectable map feature whose label the last frame drew at `point`; nil when none is
    /// there or its kind is not in ``selectableMapFeatures``.
    func mapFeature(at point: CGPoint) -> MKMapFeatureAnnotation? {
        guard !selectableMapFeatures.isEmpty, let style = renderState.rendererCache?.renderers.style else { return nil }
        for feature in renderedFeatures(at: point, tolerance: MKMapView.featureTapTolerance) {
            guard feature.zOrder.layer >= 0, feature.zOrder.layer < style.layers.count,
                  style.layers[feature.zOrder.layer].type == .symbol, let layer = feature.sourceLayer,
                  let name = feature.properties["name"]?.stringValue, !name.isEmpty,
                  let kind = MapFeatureKinds.kind(sourceLayer: layer, properties: feature.properties),
                  selectableMapFeatures.contains(kind.option) else { continue }
            let coordinate: CLLocationCoordinate2D
            if case .points(let points) = feature.geometry, let first = points.first {
                coordinate = first
            } else {
                coordinate = convert(point, toCoordinateFrom: self)
            }
            let category = kind == .pointOfInterest ? MapFeatureKinds.category(sourceLayer: layer, properties: feature.properties) : nil
            let icon = kind == .pointOfInterest ? MapFeatureKinds.iconStyle(sourceLayer: layer, properties: feature.properties) : nil
            return MKMapFeatureAnnotation(featureType: kind, category: category, iconStyle: icon, coordinate: coordinate, title: name,
                                          sourceLayer: layer, properties: feature.properties)
        }
        return nil
    }

    /// Selects a map feature: any selection is deselected, the feature gets its view
    /// (`viewFor`, then `didAdd`) and is selected (`didSelect` view, then annotation). A tap on
    /// the feature already selected does nothing.
    func selectMapFeature(_ feature: MKMapFeatureAnnotation) {
        if let current = featureState.selected, current.title == feature.title, current.featureType == feature.featureType,
           selectedAnnotation === current { return }
        withCallbacks {
            if let previous = selectedAnnotation { deselectAnnotation(previous, animated: true) }
            guard selectedAnnotation == nil else { return }
            featureState.selected = feature
            let view = delegate?.mapView(self, viewFor: feature) ?? defaultFeatureView(for: feature)
            guard featureState.selected === feature else { return }
            view.annotation = feature
            view.prepareForDisplay()
            annotationViews[ObjectIdentifier(feature)] = view
            delegate?.mapView(self, didAdd: [view])
            selectAnnotation(feature, animated: true)
            // A delegate that changed the selection meanwhile leaves the feature unselected: drop it.
            if !(selectedAnnotation === feature) { forgetMapFeature(feature) }
        }
    }

    /// The view MapKit shows for a selected feature: a marker in its icon's colour with its glyph.
    func defaultFeatureView(for feature: MKMapFeatureAnnotation) -> MKAnnotationView {
        let marker = MKMarkerAnnotationView(annotation: feature, reuseIdentifier: nil)
        if let style = feature.iconStyle {
            marker.markerTintColor = style.backgroundColor
            marker.glyphImage = style.image
        }
        marker.displayPriority = .required
        return marker
    }

    /// Whether `annotation` is the map feature selected now (it has a view but is not one of
    /// the map's annotations).
    func isSelectedMapFeature(_ annotation: any MKAnnotation) -> Bool {
        featureState.selected.map { $0 === annotation } ?? false
    }

    /// Drops a deselected feature and its view.
    func forgetMapFeature(_ annotation: any MKAnnotation) {
        guard isSelectedMapFeature(annotation) else { return }
        featureState.selected = nil
        annotationViews[ObjectIdentifier(annotation)] = nil
    }

    /// How far from a label's drawn glyphs a tap still selects it, in points (a fingertip).
    static let featureTapTolerance: CGFloat = 6
}

/// The selectable-feature state of a map view.
struct MapViewFeatureState {
    var options: MKMapFeatureOptions = []
    /// The feature selected now, shown with a view of its own.
    var selected: MKMapFeatureAnnotation?
}

/// Which OpenMapTiles labels are which kinds of map feature.
enum MapFeatureKinds {
    /// The feature type of a label from `sourceLayer` with `properties`; nil for labels that are
    /// not features MapKit selects (roads, house numbers, boundaries' lines).
    static func kind(sourceLayer: String, properties: JSONObject) -> MKMapFeatureAnnotation.FeatureType? {
        switch sourceLayer {
        case "poi", "park", "aerodrome_label": return .pointOfInterest
        case "water_name", "waterway", "mountain_peak": return .physicalFeature
        case "place":
            let cls = properties["class"]?.stringValue ?? ""
            return ["island", "islet", "archipelago", "continent", "ocean", "sea"].contains(cls) ? .physicalFeature : .territory
        default: return nil
        }
    }

    /// The point-of-interest category of a POI label.
    static func category(sourceLayer: String, properties: JSONObject) -> MKPointOfInterestCategory? {
        switch sourceLayer {
        case "park": return .park
        case "aerodrome_label": return .airport
        default:
            return MKPointOfInterestCategory(openMapTilesClass: properties["class"]?.stringValue, subclass: properties["subclass"]?.stringValue)
        }
    }

    /// The icon of a POI label: the engine's icon for its class, on its category's colour.
    static func iconStyle(sourceLayer: String, properties: JSONObject) -> MKIconStyle? {
        let cls = sourceLayer == "park" ? "park" : sourceLayer == "aerodrome_label" ? "airport" : properties["class"]?.stringValue ?? ""
        guard let icon = PointOfInterestIcon(openMapTilesClass: cls) ?? PointOfInterestIcon(openMapTilesClass: "pin"),
              let canvas = try? RenderCanvas(width: 20, height: 20, scale: 2) else { return nil }
        icon.draw(on: canvas, centerX: 10, centerY: 10, size: 18, color: .white)
        let color = icon.categoryColor
        return MKIconStyle(backgroundColor: UIColor(red: color.red, green: color.green, blue: color.blue, alpha: 1), image: UIImage(canvas: canvas))
    }
}
