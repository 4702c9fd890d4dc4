// A standpoint and a direction → a picture of the street: the scene file's objects around the
// standpoint, built into meshes (kept for the last few standpoints, so turning around or drawing
// the same place again costs only the drawing), drawn by Mesa, then signed: every picture carries
// OpenStreetMap's credit and says it is rendered, not photographed.

import Foundation
import MapGeometry
import MapRender
import StreetScene

/// Draws street-level pictures from a scene file (what `MKLookAroundSnapshotter` and the server's
/// Look Around endpoint use).
public final class StreetSceneRenderer: @unchecked Sendable {
    /// One picture to draw.
    public struct View: Sendable, Hashable {
        /// Where the viewer stands.
        public var coordinate: CLLocationCoordinate2D
        /// Degrees clockwise from north.
        public var heading: Double
        /// Degrees above the horizon (negative: looking down).
        public var pitch: Double
        /// The horizontal field of view in degrees.
        public var fieldOfView: Double
        /// The picture's size in pixels.
        public var width: Int, height: Int
        /// The time of day the sun is placed for.
        public var date: Date
        /// Metres from the ground to the viewer's eyes.
        public var eyeHeight: Double
        /// Draws the scene at night (the sun set, whatever `date` says), for dark appearances.
        public var isNight = false

        public init(coordinate: CLLocationCoordinate2D, heading: Double, pitch: Double = 0, fieldOfView: Double = 75,
                    width: Int, height: Int, date: Date = Date(), eyeHeight: Double = StreetSceneRenderer.eyeHeight) {
            self.coordinate = coordinate
            self.heading = heading
            self.pitch = pitch
            self.fieldOfView = fieldOfView
            self.width = width
            self.height = height
            self.date = date
            self.eyeHeight = eyeHeight
        }
    }

    /// Which words a picture shows.
    public struct Labels: Sendable {
        /// Street names painted on the roads.
        public var showsRoadLabels: Bool
        /// Whether a business's sign is drawn, given its category tag (`shop=bakery`).
        public var showsBusiness: @Sendable (String?) -> Bool
        /// Names this choice, so that pictures with other choices do not share kept meshes.
        public var key: String

        public init(showsRoadLabels: Bool = true, key: String = "", showsBusiness: @escaping @Sendable (String?) -> Bool = { _ in true }) {
            self.showsRoadLabels = showsRoadLabels
            self.showsBusiness = showsBusiness
            self.key = key
        }
    }

    /// A person's eye height, metres.
    public static let eyeHeight = 1.7
    /// How far around the standpoint objects are drawn, metres; the fog hides the edge.
    public static let radius = 400.0
    /// Which fields of view and pitches a view may have, degrees (a wider lens distorts beyond use).
    public static let fieldsOfView: ClosedRange<Double> = 10...120
    public static let pitches: ClosedRange<Double> = -60...60
    /// The credit and the mark every picture carries.
    public static let credit = "© OpenStreetMap contributors"
    public static let renderedMark = "Rendered from OpenStreetMap"

    private let file: StreetSceneFile
    private let rasterizer: SceneRasterizer
    private let fonts: FontCatalog
    /// Guards the kept meshes and the fonts.
    private let lock = NSLock()
    private var recent: [(key: MeshKey, meshes: StreetSceneMeshes, atlas: SceneLabelAtlas?)] = []
    private static let recentLimit = 4

    private struct MeshKey: Hashable {
        var latitude: Double, longitude: Double
        var labels: String
    }

    /// A renderer over `file`, drawing with `rasterizer` (one per process is enough: it serializes its calls).
    public init(file: StreetSceneFile, rasterizer: SceneRasterizer, fonts: FontCatalog = FontCatalog(entries: FontCatalog.installed.entries)) {
        self.file = file
        self.rasterizer = rasterizer
        self.fonts = fonts
    }

    /// Checks a view's numbers, with the reason for the first that is out of range.
    public static func problem(with view: View) -> String? {
        let c = view.coordinate
        if !(c.latitude.isFinite && c.longitude.isFinite && abs(c.latitude) <= 90 && abs(c.longitude) <= 180) {
            return "\(c.latitude),\(c.longitude) is not a coordinate"
        }
        if !(view.heading.isFinite && view.heading >= 0 && view.heading <= 360) { return "heading \(view.heading) is not within 0…360 degrees" }
        if !(view.pitch.isFinite && pitches.contains(view.pitch)) { return "pitch \(view.pitch) is not within \(pitches.lowerBound)…\(pitches.upperBound) degrees" }
        if !(view.fieldOfView.isFinite && fieldsOfView.contains(view.fieldOfView)) {
            return "field of view \(view.fieldOfView) is not within \(fieldsOfView.lowerBound)…\(fieldsOfView.upperBound) degrees"
        }
        if view.width < 1 || view.height < 1 || view.width > SceneRasterizer.maximumPixelSide || view.height > SceneRasterizer.maximumPixelSide {
            return "size \(view.width)×\(view.height) is not within 1…\(SceneRasterizer.maximumPixelSide) pixels a side"
        }
        if !(view.eyeHeight.isFinite && view.eyeHeight > 0.2 && view.eyeHeight < 100) { return "eye height \(view.eyeHeight) m is out of range" }
        return nil
    }

    /// The meshes of a standpoint (built, or kept from an earlier call).
    public func meshes(at coordinate: CLLocationCoordinate2D, labels: Labels = Labels()) throws -> StreetSceneMeshes {
        try lock.withLock { try entry(at: coordinate, labels: labels).meshes }
    }

    private func entry(at coordinate: CLLocationCoordinate2D, labels: Labels) throws -> (meshes: StreetSceneMeshes, atlas: SceneLabelAtlas?) {
        let key = MeshKey(latitude: coordinate.latitude, longitude: coordinate.longitude, labels: "\(labels.showsRoadLabels)|\(labels.key)")
        if let kept = recent.first(where: { $0.key == key }) { return (kept.meshes, kept.atlas) }
        let frame = LocalFrame(origin: coordinate)
        let box = frame.box(radius: Self.radius)
        let objects = try file.objects(minLatitude: box.minLatitude, minLongitude: box.minLongitude,
                                       maxLatitude: box.maxLatitude, maxLongitude: box.maxLongitude)
        let meshes = StreetSceneMeshes.build(objects, frame: frame, radius: Self.radius, eye: ScenePoint2(x: 0, y: 0), fonts: fonts,
                                             showsRoadLabels: labels.showsRoadLabels, showsBusiness: labels.showsBusiness)
        let atlas = meshes.atlas.map { SceneLabelAtlas(width: $0.width, height: $0.height, pixels: $0.rgba) }
        recent.insert((key, meshes, atlas), at: 0)
        if recent.count > Self.recentLimit { recent.removeLast() }
        return (meshes, atlas)
    }

    /// Draws `view` with `labels`, the credit and the rendered mark, onto a new canvas.
    public func render(_ view: View, labels: Labels = Labels()) throws -> RenderCanvas {
        if let problem = Self.problem(with: view) { throw StreetSceneRenderError.invalidView(problem) }
        // One picture at a time: the rasteriser serializes anyway, and the fonts are not shared across threads.
        lock.lock()
        defer { lock.unlock() }
        let (meshes, atlas) = try entry(at: view.coordinate, labels: labels)
        let camera = SceneCamera(x: 0, y: 0, z: view.eyeHeight, heading: view.heading.truncatingRemainder(dividingBy: 360),
                                 pitch: view.pitch, fieldOfView: view.fieldOfView, width: view.width, height: view.height)
        let sun = SceneLighting.solarPosition(date: view.date, latitude: view.coordinate.latitude, longitude: view.coordinate.longitude)
        let lighting = SceneLighting.forSun(azimuth: sun.azimuth, elevation: view.isNight ? min(sun.elevation, -12) : sun.elevation)
        let image = try rasterizer.render(meshes.mesh, labelAtlas: atlas, camera: camera, lighting: lighting)
        let canvas = try image.canvas()
        drawStreetNames(meshes, camera: camera, on: canvas)
        sign(canvas)
        return canvas
    }

    /// Draws the names of the streets in view where they pass, unless a wall stands between the
    /// viewer and the spot: white on a dark pill, as Apple's Look Around labels its streets.
    private func drawStreetNames(_ meshes: StreetSceneMeshes, camera: SceneCamera, on canvas: RenderCanvas) {
        let f = camera.forward, r = camera.right, u = camera.up
        let tx = tan(camera.fieldOfView * .pi / 360), ty = tx * Double(camera.height) / Double(camera.width)
        let size = max(11, min(16, canvas.width / 45))
        var placed: [CGRect] = []
        // Nearest first: a near street's name wins a place a farther one would overlap.
        let ordered = meshes.streetLabels.sorted { $0.point.length < $1.point.length }
        for label in ordered {
            let d = SIMD3(label.point.x - camera.x, label.point.y - camera.y, 0.3 - camera.z)
            let depth = (d * f).sum()
            guard depth > 3 else { continue }
            let sx = ((d * r).sum() / depth / tx + 1) / 2 * canvas.width
            let sy = (1 - ((d * u).sum() / depth / ty + 1) / 2) * canvas.height
            guard sx > 0, sx < canvas.width, sy > 0, sy < canvas.height - 30 else { continue }
            let eye = ScenePoint2(x: camera.x, y: camera.y)
            if meshes.wallLines.contains(where: { Self.crosses(eye, label.point, $0.a, $0.b) }) { continue }
            guard let runs = try? fonts.shapeLine(label.name, stack: ["Noto Sans Bold"], size: size), !runs.isEmpty else { continue }
            let width = runs.reduce(0) { $0 + $1.advance } + 16, height = size + 10
            let box = CGRect(x: min(max(sx - width / 2, 4), canvas.width - width - 4), y: sy - height / 2, width: width, height: height)
            guard !placed.contains(where: { $0.insetBy(dx: -4, dy: -4).intersects(box) }) else { continue }
            placed.append(box)
            let x0 = Double(box.minX), y0 = Double(box.minY), x1 = Double(box.maxX), y1 = Double(box.maxY)
            canvas.fill(rings: [[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], color: RenderColor(red: 0.1, green: 0.1, blue: 0.12, alpha: 0.6))
            var pen = x0 + 8
            for run in runs {
                canvas.draw(run, x: pen, y: y0 + 5 + size * 0.95, color: .white)
                pen += run.advance
            }
        }
    }

    /// Whether the segments p–q and a–b cross.
    private static func crosses(_ p: ScenePoint2, _ q: ScenePoint2, _ a: ScenePoint2, _ b: ScenePoint2) -> Bool {
        func side(_ o: ScenePoint2, _ s: ScenePoint2, _ t: ScenePoint2) -> Double { (s.x - o.x) * (t.y - o.y) - (s.y - o.y) * (t.x - o.x) }
        let d1 = side(a, b, p), d2 = side(a, b, q), d3 = side(p, q, a), d4 = side(p, q, b)
        return (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0)
    }

    /// Draws the credit (bottom right) and the rendered mark (bottom left) on a picture.
    private func sign(_ canvas: RenderCanvas) {
        let size = max(9, min(13, canvas.height / 40))
        func label(_ text: String, right: Bool) {
            guard let runs = try? fonts.shapeLine(text, stack: ["Noto Sans Regular"], size: size), !runs.isEmpty else { return }
            let width = runs.reduce(0) { $0 + $1.advance } + 8, height = size + 6
            let x = right ? canvas.width - width - 6 : 6, y = canvas.height - height - 6
            guard x >= 0, y >= 0 else { return }
            canvas.fill(rings: [[(x, y), (x + width, y), (x + width, y + height), (x, y + height)]],
                        color: RenderColor(red: 1, green: 1, blue: 1, alpha: 0.72))
            var pen = x + 4
            for run in runs {
                canvas.draw(run, x: pen, y: y + 3 + size * 0.95, color: RenderColor(red: 0.15, green: 0.15, blue: 0.17))
                pen += run.advance
            }
        }
        label(Self.credit, right: true)
        label(Self.renderedMark, right: false)
    }
}

/// Why a street picture could not be drawn.
public enum StreetSceneRenderError: Error, Sendable, CustomStringConvertible {
    /// A view's number is out of range; the reason names it.
    case invalidView(String)

    public var description: String {
        switch self {
        case .invalidView(let reason): return reason
        }
    }
}
