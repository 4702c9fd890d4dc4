// MapKit's MKLookAroundSnapshotter: a picture of a Look Around scene. Apple's are photographs;
// ours are drawn from the bundle's street scene (StreetSceneRender: the buildings, roads, trees
// and signs OpenStreetMap describes, rendered by Mesa on the CPU), and say so on the picture.

import Foundation
import MapBundle
import MapGeometry
import MapRender
import StreetScene
import StreetSceneRender

/// A picture of a Look Around scene (MapKit's `MKLookAroundSnapshot`).
public final class MKLookAroundSnapshot: NSObject, @unchecked Sendable {
    /// The picture, with "© OpenStreetMap contributors" and "Rendered from OpenStreetMap" on it.
    public let image: UIImage
    init(image: UIImage) {
        self.image = image
        super.init()
    }
}

/// Draws a picture of a Look Around scene (MapKit's `MKLookAroundSnapshotter`).
///
/// The picture is rendered from OpenStreetMap, not photographed: buildings with their heights,
/// roofs and colours, roads with their widths and markings, trees, street furniture, shop signs
/// and street names, under a sun placed for the time of day. It stands where the scene stands and
/// looks along the scene's heading (or ``Options/heading``).
///
/// Fails with ``MKError`` when the options are out of range (the reason names which), when no
/// bundle with a street scene covers the scene (re-import older bundles), or when Mesa's off-screen
/// OpenGL cannot start; a cancelled snapshotter fails with `CancellationError`.
public final class MKLookAroundSnapshotter: NSObject, @unchecked Sendable {
    /// MapKit's completion handler.
    public typealias CompletionHandler = @Sendable (MKLookAroundSnapshot?, (any Error)?) -> Void

    /// What to draw (MapKit's `MKLookAroundSnapshotter.Options`).
    public final class Options: NSObject, @unchecked Sendable {
        /// The picture's size in points.
        public var size = CGSize(width: 256, height: 256)
        /// Light or dark (a dark appearance draws the scene at night) and the display scale
        /// (pixels per point; 0 means 1).
        public var traitCollection = UITraitCollection()
        /// Which businesses' signs are drawn; nil draws all.
        public var pointOfInterestFilter: MKPointOfInterestFilter?
        /// Which way to look, degrees clockwise from north; nil looks along the scene's heading
        /// (an OpenMapKit addition).
        public var heading: CLLocationDirection?
        /// Degrees above the horizon, −60…60 (an OpenMapKit addition).
        public var pitch: Double = 0
        /// The horizontal field of view, 10…120 degrees (an OpenMapKit addition).
        public var fieldOfView: Double = 75
        /// The time of day the sun is placed for; nil is now (an OpenMapKit addition).
        public var date: Date?
        /// Whether street names are painted on the roads (an OpenMapKit addition; `LookAroundPreview`'s
        /// `showsRoadLabels`).
        public var showsRoadLabels = true

        public override init() {}

        /// The view these options ask for at `scene`, or the reason they are out of range.
        func view(of scene: MKLookAroundScene) throws(MKError) -> StreetSceneRenderer.View {
            let scale = traitCollection.displayScale > 0 ? Double(traitCollection.displayScale) : 1
            let w = Double(size.width) * scale, h = Double(size.height) * scale
            let side = Double(SceneRasterizer.maximumPixelSide)
            guard w.isFinite, h.isFinite, scale.isFinite, w >= 1, h >= 1, w <= side, h <= side else {
                throw MKError(.unknown, reason: "size \(size.width)×\(size.height) at scale \(scale) is not within 1…\(Int(side)) pixels a side")
            }
            var view = StreetSceneRenderer.View(coordinate: scene.coordinate, heading: heading ?? scene.heading, pitch: pitch,
                                                fieldOfView: fieldOfView, width: Int(w.rounded()), height: Int(h.rounded()),
                                                date: date ?? Date())
            view.isNight = traitCollection.userInterfaceStyle == .dark
            if let problem = StreetSceneRenderer.problem(with: view) { throw MKError(.unknown, reason: problem) }
            return view
        }
    }

    /// The scene drawn.
    public let scene: MKLookAroundScene
    /// The options, copied at creation as MapKit copies them.
    public let options: Options
    /// The bundles whose street scenes are drawn from (an OpenMapKit addition); nil uses
    /// ``MapDataSource/default``.
    public var dataSource: MapDataSource?
    private let lifecycle = RequestLifecycle(.oneShot)

    /// A snapshotter for `scene` with `options`.
    public init(scene: MKLookAroundScene, options: Options) {
        self.scene = scene
        let copy = Options()
        copy.size = options.size
        copy.traitCollection = options.traitCollection
        copy.pointOfInterestFilter = options.pointOfInterestFilter
        copy.heading = options.heading
        copy.pitch = options.pitch
        copy.fieldOfView = options.fieldOfView
        copy.date = options.date
        copy.showsRoadLabels = options.showsRoadLabels
        self.options = copy
        super.init()
    }

    /// Whether the picture is being drawn.
    public var isLoading: Bool { lifecycle.isRunning }
    /// Stops drawing; the snapshotter then fails with `CancellationError`.
    public func cancel() { lifecycle.cancel() }

    /// The picture (MapKit's `snapshot` property, as an async method).
    public var snapshot: MKLookAroundSnapshot {
        get async throws { try await lifecycle.start(plan()) }
    }

    /// The picture, handed to `completionHandler` on the main queue.
    public func getSnapshotWithCompletionHandler(_ completionHandler: @escaping CompletionHandler) {
        lifecycle.start(on: .main, plan()) { $0.deliver(to: completionHandler) }
    }

    /// Draws on the calling thread (the server's render pool and the command line run their own workers).
    package func snapshotHere() throws -> MKLookAroundSnapshot {
        try lifecycle.runHere(plan())
    }

    private func plan() -> @Sendable (_ isCancelled: () -> Bool) throws -> MKLookAroundSnapshot {
        let scene = scene, options = options, source = dataSource
        return { isCancelled in
            let view = try options.view(of: scene)
            let renderer = try LookAroundRendering.renderer(covering: scene.coordinate, source: source ?? MapDataSource.resolved())
            if isCancelled() { throw CancellationError() }
            let canvas: RenderCanvas
            do {
                canvas = try renderer.render(view, labels: LookAroundRendering.labels(options.pointOfInterestFilter, showsRoadLabels: options.showsRoadLabels))
            } catch let error as StreetSceneRenderError {
                throw MKError(.unknown, reason: error.description)
            } catch let error as SceneRenderError {
                throw MKError(.serverFailure, reason: "the street scene could not be drawn: \(error)")
            }
            return MKLookAroundSnapshot(image: UIImage(canvas: canvas))
        }
    }
}

/// The process's street-scene renderers: one Mesa rasteriser, one renderer per bundle.
enum LookAroundRendering {
    nonisolated(unsafe) private static var rasterizer: SceneRasterizer?
    /// By bundle, with the scene file it was made over: a re-imported bundle opens a new file
    /// (MapBundle's cache reopens it by stamp), and its renderer is made anew with it.
    nonisolated(unsafe) private static var renderers: [URL: (file: StreetSceneFile, renderer: StreetSceneRenderer)] = [:]
    private static let lock = NSLock()

    /// The renderer of the first bundle with a street scene whose bounds hold `coordinate`.
    static func renderer(covering coordinate: CLLocationCoordinate2D, source: MapDataSource) throws -> StreetSceneRenderer {
        var withoutScene: [String] = []
        for bundle in source.bundles where covers(bundle, coordinate) {
            let file: StreetSceneFile?
            do { file = try bundle.streetScene() } catch { throw MKError(.serverFailure, reason: "\(bundle.url.lastPathComponent): \(error)") }
            guard let file else {
                withoutScene.append(bundle.url.lastPathComponent)
                continue
            }
            return try lock.withLock {
                if let kept = renderers[bundle.url], kept.file === file { return kept.renderer }
                let shared: SceneRasterizer
                if let existing = rasterizer { shared = existing } else {
                    do { shared = try SceneRasterizer() } catch {
                        throw MKError(.serverFailure, reason: "Mesa's off-screen OpenGL is not available: \(error)")
                    }
                    rasterizer = shared
                }
                let renderer = StreetSceneRenderer(file: file, rasterizer: shared)
                renderers[bundle.url] = (file, renderer)
                return renderer
            }
        }
        if !withoutScene.isEmpty {
            throw MKError(.serverFailure, reason: "\(withoutScene.joined(separator: ", ")) has no street scene; re-import it with `openmapkit import`")
        }
        throw MKError(.placemarkNotFound, reason: "no bundle covers \(coordinate.latitude),\(coordinate.longitude)")
    }

    /// The words a picture shows for a MapKit filter.
    static func labels(_ filter: MKPointOfInterestFilter?, showsRoadLabels: Bool) -> StreetSceneRenderer.Labels {
        guard let filter else { return StreetSceneRenderer.Labels(showsRoadLabels: showsRoadLabels) }
        return StreetSceneRenderer.Labels(showsRoadLabels: showsRoadLabels, key: "\(filter.kind)") { shows($0, filter) }
    }

    /// Whether the bundle's imported bounds hold `coordinate` (a bundle without bounds may hold anything).
    static func covers(_ bundle: MapBundle, _ coordinate: CLLocationCoordinate2D) -> Bool {
        guard let bounds = bundle.manifest.bounds else { return true }
        let numbers = bounds.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4 else { return true }
        return coordinate.longitude >= numbers[0] && coordinate.latitude >= numbers[1]
            && coordinate.longitude <= numbers[2] && coordinate.latitude <= numbers[3]
    }

    /// Whether a business with the category tag `category` (`shop=bakery`) passes `filter`: its
    /// MapKit category is the one whose OSM values include the tag's value; a business of no
    /// MapKit category passes only filters that exclude.
    static func shows(_ category: String?, _ filter: MKPointOfInterestFilter) -> Bool {
        let value = category.flatMap { $0.split(separator: "=", maxSplits: 1).last.map(String.init) }
        if let value, let known = MKPointOfInterestCategory.table.first(where: { $0.subclasses.contains(value) || $0.classes.contains(value) }) {
            return filter.includes(known.category)
        }
        if case .excluding = filter.kind { return true }
        return false
    }
}
