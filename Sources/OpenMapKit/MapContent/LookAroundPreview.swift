// SwiftUI's LookAroundPreview (MapKit for SwiftUI): the small Look Around picture a place card
// shows, here a value the host draws (the window's panel, a snapshot) by asking it for its image.
// The picture is the scene's MKLookAroundSnapshotter image, drawn once per scene and size and
// kept, since a host asks again for every frame.

import Foundation
import MapRender

/// Where a Look Around preview puts its badge (SwiftUI's `MapBadgePosition`).
public enum MapBadgePosition: Sendable, Hashable {
    case automatic, topLeading, topTrailing, bottomLeading, bottomTrailing
}

/// A Look Around picture of a scene (SwiftUI's `LookAroundPreview`).
///
/// Differs from SwiftUI: it is not a view; a host draws ``image(size:scale:)`` where the app put
/// it (`MapWindowPanel.preview` in a window). With `allowsNavigation`, the window's Look Around mode
/// opens on a click on it. The picture is rendered from OpenStreetMap and says so.
public struct LookAroundPreview {
    private let sceneBinding: Binding<MKLookAroundScene?>
    /// Whether a click on the preview opens the full Look Around (in a window).
    public var allowsNavigation: Bool
    /// Whether street names are painted on the roads.
    public var showsRoadLabels: Bool
    /// Which businesses' signs are drawn.
    public var pointsOfInterest: PointOfInterestCategories
    /// Where the "Look Around" badge goes.
    public var badgePosition: MapBadgePosition
    /// The bundles drawn from (an OpenMapKit addition); nil uses ``MapDataSource/default``.
    public var dataSource: MapDataSource?

    /// A preview that starts at `initialScene` (nil shows nothing until one is set).
    public init(initialScene: MKLookAroundScene?, allowsNavigation: Bool = true, showsRoadLabels: Bool = true,
                pointsOfInterest: PointOfInterestCategories = .all, badgePosition: MapBadgePosition = .automatic) {
        self.init(scene: .constant(initialScene), allowsNavigation: allowsNavigation, showsRoadLabels: showsRoadLabels,
                  pointsOfInterest: pointsOfInterest, badgePosition: badgePosition)
    }

    /// A preview that shows whatever scene `scene` holds.
    public init(scene: Binding<MKLookAroundScene?>, allowsNavigation: Bool = true, showsRoadLabels: Bool = true,
                pointsOfInterest: PointOfInterestCategories = .all, badgePosition: MapBadgePosition = .automatic) {
        sceneBinding = scene
        self.allowsNavigation = allowsNavigation
        self.showsRoadLabels = showsRoadLabels
        self.pointsOfInterest = pointsOfInterest
        self.badgePosition = badgePosition
    }

    /// The scene shown now.
    public var scene: MKLookAroundScene? { sceneBinding.wrappedValue }

    /// The preview's picture at `size` points, with its badge: nil while there is no scene, or when
    /// it cannot be drawn (no street scene in the bundle, no Mesa). Kept per scene and size.
    public func image(size: CGSize, scale: Double = 1) -> UIImage? {
        guard let scene else { return nil }
        let key = PreviewKey(latitude: scene.coordinate.latitude, longitude: scene.coordinate.longitude, heading: scene.heading,
                             width: Double(size.width), height: Double(size.height), scale: scale, showsRoadLabels: showsRoadLabels,
                             filter: pointsOfInterest.filter.map { "\($0.kind)" } ?? "", badge: badgePosition)
        if let kept = Self.kept(key) { return kept }
        let options = MKLookAroundSnapshotter.Options()
        options.size = size
        options.traitCollection = UITraitCollection(displayScale: CGFloat(scale))
        options.pointOfInterestFilter = pointsOfInterest.filter
        options.showsRoadLabels = showsRoadLabels
        // A card is wide and short: a lens as wide as needed to see 50° up and down (within the
        // snapshotter's 120°), looking a little up, shows the place and not only its ground floor.
        let aspect = max(Double(size.width) / max(Double(size.height), 1), 1)
        options.fieldOfView = min(120, max(60, 2 * atan(tan(25 * Double.pi / 180) * aspect) * 180 / .pi))
        options.pitch = 6
        let snapshotter = MKLookAroundSnapshotter(scene: scene, options: options)
        snapshotter.dataSource = dataSource
        guard let snapshot = try? snapshotter.snapshotHere() else { return nil }
        drawBadge(on: snapshot.image.canvas)
        Self.keep(key, snapshot.image)
        return snapshot.image
    }

    /// Draws the "Look Around" badge in its corner.
    private func drawBadge(on canvas: RenderCanvas) {
        let text = "Look Around", size = 11.0
        guard let runs = try? FontCatalog.installed.shapeLine(text, stack: ["Noto Sans Bold"], size: size) else { return }
        let w = runs.reduce(0) { $0 + $1.advance } + 12, h = size + 8, margin = 6.0
        let leading = badgePosition == .topLeading || badgePosition == .bottomLeading
        let bottom = badgePosition == .bottomLeading || badgePosition == .bottomTrailing
        let x = leading ? margin : canvas.width - w - margin
        // The credit and the rendered mark take the bottom corners; a bottom badge sits above them.
        let y = bottom ? canvas.height - h - margin - 26 : margin
        guard x >= 0, y >= 0 else { return }
        canvas.fill(path: RoundedRectangle(cornerRadius: h / 2).path(in: CGRect(x: x, y: y, width: w, height: h)),
                    color: RenderColor(red: 0, green: 0, blue: 0, alpha: 0.55))
        var pen = x + 6
        for run in runs {
            canvas.draw(run, x: pen, y: y + h / 2 + size * 0.36, color: .white)
            pen += run.advance
        }
    }

    private struct PreviewKey: Hashable {
        var latitude: Double, longitude: Double, heading: Double, width: Double, height: Double, scale: Double
        var showsRoadLabels: Bool, filter: String, badge: MapBadgePosition
    }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var images: [(PreviewKey, UIImage)] = []

    private static func kept(_ key: PreviewKey) -> UIImage? { lock.withLock { images.first { $0.0 == key }?.1 } }
    private static func keep(_ key: PreviewKey, _ image: UIImage) {
        lock.withLock {
            images.insert((key, image), at: 0)
            if images.count > 8 { images.removeLast() }
        }
    }
}
