import Foundation
import MapRender

/// The kind of map (MapKit's `MKMapType`, deprecated there in favour of configurations).
///
/// Differs from MapKit: the flyover types draw as their flat types, and the satellite and hybrid
/// maps need imagery tiles from ``MapDataSource/imagery``.
public enum MKMapType: UInt, Sendable, Hashable, CaseIterable {
    case standard = 0
    case satellite = 1
    case hybrid = 2
    case satelliteFlyover = 3
    case hybridFlyover = 4
    case mutedStandard = 5

    /// The configuration that draws this kind of map (flyover kinds draw as their flat kind).
    public var configuration: MKMapConfiguration {
        switch self {
        case .standard: MKStandardMapConfiguration()
        case .mutedStandard: MKStandardMapConfiguration(emphasisStyle: .muted)
        case .satellite, .satelliteFlyover: MKImageryMapConfiguration()
        case .hybrid, .hybridFlyover: MKHybridMapConfiguration()
        }
    }
}

/// What a map shows and how (MapKit's `MKMapConfiguration`); use one of the subclasses.
///
/// Differs from MapKit: maps are drawn with OpenMapKit's built-in styles from the bundles'
/// OpenStreetMap tiles. Realistic ``elevationStyle`` stands buildings up when the map is pitched
/// (the terrain stays flat: there is no elevation data).
public class MKMapConfiguration: NSObject, @unchecked Sendable {
    /// Whether terrain is drawn in relief.
    public enum ElevationStyle: Int, Sendable { case flat = 0, realistic = 1 }

    /// The elevation style. With `.realistic`, the standard and hybrid maps draw buildings in 3D
    /// when pitched (heights from OpenStreetMap's `height`, `building:levels`); the ground itself
    /// stays flat (no terrain data). Imagery alone has no buildings to raise.
    public var elevationStyle: ElevationStyle = .flat

    override init() { super.init() }

    /// The map type this configuration corresponds to.
    var mapType: MKMapType { .standard }

    /// The built-in style for this configuration in an appearance.
    func defaultStyle(dark: Bool) -> DefaultStyle { dark ? .dark : .standard }

    /// The POI filter the configuration carries, if any.
    var configurationPointOfInterestFilter: MKPointOfInterestFilter? { nil }
}

/// The street map (MapKit's `MKStandardMapConfiguration`).
public final class MKStandardMapConfiguration: MKMapConfiguration, @unchecked Sendable {
    /// How strongly the map's own features are drawn.
    public enum EmphasisStyle: Int, Sendable {
        case `default` = 0
        /// Played down, so the caller's overlays and annotations stand out.
        case muted = 1
    }

    public var emphasisStyle: EmphasisStyle = .default
    /// Which points of interest are shown; nil shows them all.
    public var pointOfInterestFilter: MKPointOfInterestFilter?
    /// Traffic is not drawn on Linux (no live data); kept for source compatibility.
    public var showsTraffic = false

    public override init() { super.init() }

    public convenience init(elevationStyle: ElevationStyle) {
        self.init()
        self.elevationStyle = elevationStyle
    }

    public convenience init(elevationStyle: ElevationStyle, emphasisStyle: EmphasisStyle) {
        self.init()
        self.elevationStyle = elevationStyle
        self.emphasisStyle = emphasisStyle
    }

    public convenience init(emphasisStyle: EmphasisStyle) {
        self.init()
        self.emphasisStyle = emphasisStyle
    }

    override var mapType: MKMapType { emphasisStyle == .muted ? .mutedStandard : .standard }
    override func defaultStyle(dark: Bool) -> DefaultStyle { dark ? .dark : emphasisStyle == .muted ? .muted : .standard }
    override var configurationPointOfInterestFilter: MKPointOfInterestFilter? { pointOfInterestFilter }
}

/// Imagery with roads and labels over it (MapKit's `MKHybridMapConfiguration`). The imagery comes
/// from ``MapDataSource/imagery``.
/// Differs from MapKit: there is no built-in imagery; without it, drawing fails with an
/// ``MKError``.
public final class MKHybridMapConfiguration: MKMapConfiguration, @unchecked Sendable {
    public var pointOfInterestFilter: MKPointOfInterestFilter?
    public var showsTraffic = false

    public override init() { super.init() }

    public convenience init(elevationStyle: ElevationStyle) {
        self.init()
        self.elevationStyle = elevationStyle
    }

    override var mapType: MKMapType { .hybrid }
    override func defaultStyle(dark: Bool) -> DefaultStyle { .hybrid }
    override var configurationPointOfInterestFilter: MKPointOfInterestFilter? { pointOfInterestFilter }
}

/// Imagery alone (MapKit's `MKImageryMapConfiguration`), from ``MapDataSource/imagery``.
/// Differs from MapKit: there is no built-in imagery; without it, drawing fails with an
/// ``MKError``.
public final class MKImageryMapConfiguration: MKMapConfiguration, @unchecked Sendable {
    public override init() { super.init() }

    public convenience init(elevationStyle: ElevationStyle) {
        self.init()
        self.elevationStyle = elevationStyle
    }

    override var mapType: MKMapType { .satellite }
    override func defaultStyle(dark: Bool) -> DefaultStyle { .imagery }
}

/// Light or dark appearance (UIKit's `UIUserInterfaceStyle`).
public enum UIUserInterfaceStyle: Int, Sendable {
    case unspecified = 0, light = 1, dark = 2
}

/// The traits a snapshot is drawn for (the part of UIKit's `UITraitCollection` that snapshots
/// read): light or dark appearance and the display scale.
public struct UITraitCollection: Hashable, Sendable {
    public var userInterfaceStyle: UIUserInterfaceStyle = .unspecified
    /// Device pixels per point; 0 means unspecified.
    public var displayScale: CGFloat = 0

    public init() {}
    public init(userInterfaceStyle: UIUserInterfaceStyle) { self.userInterfaceStyle = userInterfaceStyle }
    public init(displayScale: CGFloat) { self.displayScale = displayScale }

    /// The traits of `collections` combined, later ones winning where they specify a trait.
    public init(traitsFrom collections: [UITraitCollection]) {
        for trait in collections {
            if trait.userInterfaceStyle != .unspecified { userInterfaceStyle = trait.userInterfaceStyle }
            if trait.displayScale > 0 { displayScale = trait.displayScale }
        }
    }
}

/// A macOS appearance (AppKit's `NSAppearance`), for `MKMapSnapshotter.Options.appearance`.
/// Differs from AppKit: it only carries a name, read to pick the light or dark map.
public final class NSAppearance: @unchecked Sendable {
    /// An appearance's name (AppKit's `NSAppearance.Name`); `darkAqua` and `vibrantDark` draw the
    /// dark map.
    public struct Name: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let aqua = Name(rawValue: "NSAppearanceNameAqua")
        public static let darkAqua = Name(rawValue: "NSAppearanceNameDarkAqua")
        public static let vibrantLight = Name(rawValue: "NSAppearanceNameVibrantLight")
        public static let vibrantDark = Name(rawValue: "NSAppearanceNameVibrantDark")
    }

    public let name: Name
    public init?(named name: Name) { self.name = name }

    var isDark: Bool { name == .darkAqua || name == .vibrantDark }
}
