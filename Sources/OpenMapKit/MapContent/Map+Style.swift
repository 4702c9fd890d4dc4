import Foundation

extension Map {
    /// How a map is drawn (SwiftUI's `MapStyle`): the standard street map, imagery, or hybrid.
    ///
    /// `elevation: .realistic` on `standard` and `hybrid` draws buildings in 3D when the map is
    /// pitched, as MapKit does (walls and roofs lit by the style's light, heights from
    /// OpenStreetMap); `.automatic` and `.flat` keep them flat.
    ///
    /// Differs from MapKit: the terrain itself stays flat with `.realistic` (there is no elevation
    /// data), and `.automatic` draws flat buildings (MapKit decides by zoom and device);
    /// `showsTraffic` is unsupported (OpenStreetMap has no traffic): it is accepted so MapKit code
    /// compiles, and changes nothing. `imagery` and `hybrid` need imagery tiles from
    /// ``MapDataSource/imagery``.
    public struct Style: Sendable {
        /// Whether buildings stand up when the map is pitched (`.realistic`); terrain is flat.
        public enum Elevation: Sendable { case automatic, flat, realistic }
        /// How strongly the map's own features are drawn.
        public enum StandardEmphasis: Sendable { case automatic, muted }

        enum Kind: Sendable { case standard(StandardEmphasis), hybrid, imagery }
        let kind: Kind
        let pointsOfInterest: PointOfInterestCategories
        var elevation: Elevation = .automatic

        public static let standard = Style(kind: .standard(.automatic), pointsOfInterest: .all)
        public static let imagery = Style(kind: .imagery, pointsOfInterest: .all)
        public static let hybrid = Style(kind: .hybrid, pointsOfInterest: .all)

        public static func standard(elevation: Elevation = .automatic, emphasis: StandardEmphasis = .automatic,
                                    pointsOfInterest: PointOfInterestCategories = .all, showsTraffic: Bool = false) -> Style {
            Style(kind: .standard(emphasis), pointsOfInterest: pointsOfInterest, elevation: elevation)
        }

        public static func hybrid(elevation: Elevation = .automatic, pointsOfInterest: PointOfInterestCategories = .all,
                                  showsTraffic: Bool = false) -> Style {
            Style(kind: .hybrid, pointsOfInterest: pointsOfInterest, elevation: elevation)
        }

        public static func imagery(elevation: Elevation = .automatic) -> Style {
            Style(kind: .imagery, pointsOfInterest: .all)
        }

        /// What tells styles apart (a live map changes its configuration only when this does).
        var key: String { "\(kind) \(pointsOfInterest) \(elevation)" }

        /// MapKit's elevation style for ``elevation``: only `.realistic` raises the buildings.
        private var elevationStyle: MKMapConfiguration.ElevationStyle { elevation == .realistic ? .realistic : .flat }

        var configuration: MKMapConfiguration {
            switch kind {
            case .standard(let emphasis):
                let configuration = MKStandardMapConfiguration(elevationStyle: elevationStyle,
                                                               emphasisStyle: emphasis == .muted ? .muted : .default)
                configuration.pointOfInterestFilter = pointsOfInterest.filter
                return configuration
            case .hybrid:
                let configuration = MKHybridMapConfiguration(elevationStyle: elevationStyle)
                configuration.pointOfInterestFilter = pointsOfInterest.filter
                return configuration
            case .imagery:
                return MKImageryMapConfiguration()
            }
        }
    }
}
