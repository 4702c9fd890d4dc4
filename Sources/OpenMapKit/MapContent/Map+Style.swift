import Foundation

extension Map {
    /// How a map is drawn (SwiftUI's `MapStyle`): the standard street map, imagery, or hybrid.
    ///
    /// Differs from MapKit: unsupported are `elevation: .realistic` (terrain and buildings are
    /// drawn flat, pitched maps show the ground in perspective without relief) and `showsTraffic`
    /// (OpenStreetMap has no traffic): both are accepted so MapKit code compiles, and change
    /// nothing. `imagery` and `hybrid` need imagery tiles from ``MapDataSource/imagery``.
    public struct Style: Sendable {
        /// Whether terrain is drawn in relief (snapshots are drawn flat for now).
        public enum Elevation: Sendable { case automatic, flat, realistic }
        /// How strongly the map's own features are drawn.
        public enum StandardEmphasis: Sendable { case automatic, muted }

        enum Kind: Sendable { case standard(StandardEmphasis), hybrid, imagery }
        let kind: Kind
        let pointsOfInterest: PointOfInterestCategories

        public static let standard = Style(kind: .standard(.automatic), pointsOfInterest: .all)
        public static let imagery = Style(kind: .imagery, pointsOfInterest: .all)
        public static let hybrid = Style(kind: .hybrid, pointsOfInterest: .all)

        public static func standard(elevation: Elevation = .automatic, emphasis: StandardEmphasis = .automatic,
                                    pointsOfInterest: PointOfInterestCategories = .all, showsTraffic: Bool = false) -> Style {
            Style(kind: .standard(emphasis), pointsOfInterest: pointsOfInterest)
        }

        public static func hybrid(elevation: Elevation = .automatic, pointsOfInterest: PointOfInterestCategories = .all,
                                  showsTraffic: Bool = false) -> Style {
            Style(kind: .hybrid, pointsOfInterest: pointsOfInterest)
        }

        public static func imagery(elevation: Elevation = .automatic) -> Style {
            Style(kind: .imagery, pointsOfInterest: .all)
        }

        /// What tells styles apart (a live map changes its configuration only when this does).
        var key: String { "\(kind) \(pointsOfInterest)" }

        var configuration: MKMapConfiguration {
            switch kind {
            case .standard(let emphasis):
                let configuration = MKStandardMapConfiguration(emphasisStyle: emphasis == .muted ? .muted : .default)
                configuration.pointOfInterestFilter = pointsOfInterest.filter
                return configuration
            case .hybrid:
                let configuration = MKHybridMapConfiguration()
                configuration.pointOfInterestFilter = pointsOfInterest.filter
                return configuration
            case .imagery:
                return MKImageryMapConfiguration()
            }
        }
    }
}
