// A pitched camera's frame: the flat map drawn for the ground the camera sees, then warped into
// perspective pixel by pixel. Screen → ground is a projective map of the plane (a homography), so
// each row of the frame reads one straight row of the flat drawing at one scale: the inner loop is
// a bilinear walk along it.

import Foundation
import MapGeometry

/// The flat drawings a pitched frame is warped from: the frame's rows cut into bands by how much
/// they magnify the ground, each band drawn flat at a resolution to match (the band holding the
/// centre at the frame's own, nearer ones finer, farther ones coarser), so the near edge is not
/// blurred and the far distance is not drawn at a resolution nobody sees.
struct PerspectivePlan {
    struct Tier {
        /// The frame rows (points from the top) this tier fills.
        var top: Double, bottom: Double
        /// Device pixels per ground point of the flat drawing.
        var pixelRatio: Double
        /// The ground rectangle drawn (offsets from the centre, points): origin and size.
        var x: Double, y: Double, width: Double, height: Double
    }

    /// Rows whose ground scale is below this are not drawn: fog, as beyond MapLibre's far plane.
    /// Only pitches beyond about 64° reach it (at 60° the top row's scale is 0.42).
    static let farScale = 0.2
    /// From this scale down the ground fades into the fog.
    static let fogStartScale = 0.35
    /// The most pixels the flat drawings together may have, in frames: at 60° the plan below
    /// needs about 4 frames, so this only binds beyond it.
    static let maximumPixelsPerFrame = 4.5

    var tiers: [Tier] = []
    /// The first frame row (points from the top) with ground drawn; above it is sky or fog.
    var groundTop: Double

    init(projection: PerspectiveProjection, pixelRatio: Double, maximumPixelRatio: Double) {
        let (w, h) = (projection.width, projection.height)
        let nearScale = projection.scale(atRow: h / 2)
        groundTop = max(0, h / 2 + projection.row(atScale: Self.farScale))
        // Bands by ground scale: from 1.3 down to 0.6, the centre's band, at the frame's
        // resolution (so the centre is drawn as the flat map is); nearer, finer, up to the near
        // edge's scale; farther, half and a quarter of it.
        let bands: [(from: Double, to: Double, ratio: Double)] = [
            (1.3, .infinity, min(nearScale, 2)), (0.6, 1.3, 1), (0.3, 0.6, 0.5), (Self.farScale, 0.3, 0.25),
        ]
        var tiers: [Tier] = []
        for band in bands {
            let top = max(groundTop, h / 2 + projection.row(atScale: band.from))
            let bottom = min(h, band.to.isFinite ? h / 2 + projection.row(atScale: band.to) : h)
            guard bottom > top else { continue }
            let ratio = min(pixelRatio * band.ratio, maximumPixelRatio)
            tiers.append(Tier(top: top, bottom: bottom, pixelRatio: ratio, x: 0, y: 0, width: 0, height: 0))
        }
        // What each band's rows see of the ground: a trapezoid; its bounding box is drawn. At a
        // seam it reaches `seamOverlap` ground points (about a label's height) into the
        // neighbour, so that a label across the seam lies wholly on both drawings (each places
        // only labels wholly inside it), not on neither.
        let seamOverlap = 24.0
        let groundTop = groundTop
        func bounds(_ tier: Tier) -> (x: Double, y: Double, width: Double, height: Double) {
            var (minX, minY, maxX, maxY) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
            for (dx, dy) in [(-w / 2, tier.top - h / 2), (w / 2, tier.top - h / 2), (-w / 2, tier.bottom - h / 2), (w / 2, tier.bottom - h / 2)] {
                guard let g = projection.ground(dx: dx, dy: dy) else { continue }
                (minX, minY, maxX, maxY) = (min(minX, g.x), min(minY, g.y), max(maxX, g.x), max(maxY, g.y))
            }
            if tier.top > groundTop { minY -= seamOverlap }
            if tier.bottom < h { maxY += seamOverlap }
            return (minX, minY, maxX - minX, maxY - minY)
        }
        // Small frames cost little whatever their plan, so the budget never binds below 2 Mpx.
        let budget = max(Self.maximumPixelsPerFrame * w * h * pixelRatio * pixelRatio, 2_000_000)
        let pixels = tiers.reduce(0.0) { sum, tier in
            let b = bounds(tier)
            return sum + b.width * b.height * tier.pixelRatio * tier.pixelRatio
        }
        let shrink = pixels > budget ? (budget / pixels).squareRoot() : 1
        let side = Double(RenderCanvas.maximumPixelSide)
        for index in tiers.indices {
            var tier = tiers[index]
            let b = bounds(tier)
            tier.pixelRatio *= shrink
            tier.pixelRatio = min(tier.pixelRatio, (side - 8) / max(b.width, b.height, 1))
            // Whole pixels on the flat frame's grid, so a tier at the frame's resolution samples
            // the flat map's pixels where the view is (nearly) flat; two pixels of margin for
            // bilinear reads at the edges.
            let r = tier.pixelRatio
            let margin = 2 / r
            let x0 = ((b.x - margin + w / 2) * r).rounded(.down) / r - w / 2
            let y0 = ((b.y - margin + h / 2) * r).rounded(.down) / r - h / 2
            tier.x = x0
            tier.y = y0
            tier.width = ((b.x + b.width + margin - x0) * r).rounded(.up) / r
            tier.height = ((b.y + b.height + margin - y0) * r).rounded(.up) / r
            tiers[index] = tier
        }
        // Top to bottom, as the warp looks rows up.
        self.tiers = tiers.sorted { $0.top < $1.top }
    }
}

extension StyleRenderer {
    /// The frame for a pitched camera (see ``render(center:zoom:bearing:pitch:width:height:pixelRatio:)``):
    /// each tier of ``PerspectivePlan`` drawn flat with the camera's zoom and heading, then warped.
    /// Returns the frame, the warnings of all the tiers' renders and what each tier placed (for
    /// feature queries).
    func renderPitched(center: CLLocationCoordinate2D, zoom: Double, bearing: Double, pitch: Double, width: Double,
                       height: Double, pixelRatio: Double) throws(RenderError) -> (RenderCanvas, [String], RenderedFrame) {
        let projection = PerspectiveProjection(width: width, height: height, pitch: pitch)
        let plan = PerspectivePlan(projection: projection, pixelRatio: pixelRatio, maximumPixelRatio: Self.maximumPixelRatio)
        let transform = ScreenTransform(center: center, zoom: zoom, bearing: bearing, width: width, height: height)
        let reserved = reservedLabelAreas
        defer { reservedLabelAreas = reserved }
        var warnings: [String] = []
        var drawn: [(tier: PerspectivePlan.Tier, canvas: RenderCanvas)] = []
        var flats: [RenderedFrame.Flat] = []
        // With extrusion layers at this zoom, each tier is drawn in runs of layers cut at them,
        // the extrusions gathered to be drawn in 3D between the runs once they are warped.
        let extrusions = layers.contains { $0.layer.type == .fillExtrusion && $0.isDrawn(atZoom: zoom) } ? ExtrusionGatherer() : nil
        var runs: [[(tier: PerspectivePlan.Tier, canvas: RenderCanvas)]] = []
        lastFrame = nil
        for var tier in plan.tiers {
            // The tier's centre on the ground, as a coordinate; a latitude beyond Web Mercator's
            // limit is clamped by the flat render, so where its centre really is is read back.
            let world = transform.world(screenX: width / 2 + tier.x + tier.width / 2, screenY: height / 2 + tier.y + tier.height / 2)
            let mapPoint = MKMapPoint(x: world.x * MKMapSize.worldWidth, y: world.y * MKMapSize.worldWidth)
            var coordinate = mapPoint.coordinate
            coordinate.longitude = normalizedLongitude(coordinate.longitude)
            let limit = 85.051128779806604
            coordinate.latitude = min(max(coordinate.latitude, -limit), limit)
            let actual = ScreenTransform.world(coordinate)
            let screen = transform.screen(worldX: world.x, worldY: actual.y)
            tier.x = screen.x - width / 2 - tier.width / 2
            tier.y = screen.y - height / 2 - tier.height / 2
            reservedLabelAreas = reserved.compactMap { Self.reservedArea($0, in: tier, projection: projection) }
            extrusions?.origin = (tier.x, tier.y)
            let canvases = try renderFlatLayers(center: coordinate, zoom: zoom, bearing: bearing, width: tier.width, height: tier.height,
                                                pixelRatio: tier.pixelRatio, extrusions: extrusions)
            warnings += self.warnings.filter { !warnings.contains($0) }
            if extrusions == nil {
                drawn.append((tier, canvases[0]!))
            } else {
                if runs.isEmpty { runs = Array(repeating: [], count: canvases.count) }
                for (run, canvas) in canvases.enumerated() where run < runs.count {
                    if let canvas { runs[run].append((tier, canvas)) }
                }
            }
            if var flat = lastFrame?.flats.first {
                flat.tier = tier
                flats.append(flat)
            }
        }
        // The last tier's record is not the frame's: render sets that once the frame is made.
        lastFrame = nil
        let frame = try RenderCanvas(width: width, height: height, scale: pixelRatio)
        let sky = backgroundColor(atZoom: zoom).map(Self.skyColor(background:))
        if let extrusions {
            try drawRuns(runs, extrusions: extrusions, into: frame, plan: plan, projection: projection, sky: sky, center: center,
                         zoom: zoom, bearing: bearing)
        } else {
            PerspectiveWarp.warp(into: frame, from: drawn, plan: plan, projection: projection, sky: sky, threads: maximumThreads)
        }
        let record = RenderedFrame(transform: transform, zoom: zoom, pitch: pitch, pixelRatio: pixelRatio, flats: flats,
                                   groundTop: plan.groundTop)
        return (frame, warnings, record)
    }

    /// A pitched frame with extrusions: the first run of layers warped with the sky, then each
    /// extrusion layer drawn in 3D (see ``ExtrusionScene``) and the run of layers above it warped
    /// and laid over it, so labels above the buildings stay above them. Later runs fade into the
    /// fog as the ground does (toward transparent, the sky being below them).
    private func drawRuns(_ runs: [[(tier: PerspectivePlan.Tier, canvas: RenderCanvas)]], extrusions: ExtrusionGatherer,
                          into frame: RenderCanvas, plan: PerspectivePlan, projection: PerspectiveProjection, sky: RenderColor?,
                          center: CLLocationCoordinate2D, zoom: Double, bearing: Double) throws(RenderError) {
        // Heights in metres become points at the centre's scale, as MapLibre scales them for the
        // whole view: 512-point tiles, so the world is 512·2^zoom points round.
        let pointsPerMetre = MKMapPointsPerMeterAtLatitude(center.latitude) * 512 * pow(2, zoom) / MKMapSize.worldWidth
        let light = ExtrusionLight(style.light)
        for (number, run) in runs.enumerated() {
            if number > 0, number - 1 < extrusions.layers.count {
                ExtrusionScene.draw(extrusions.layers[number - 1], on: frame, projection: projection, zoom: zoom,
                                    pointsPerMetre: pointsPerMetre, light: light, bearing: bearing)
            }
            if number == 0 {
                PerspectiveWarp.warp(into: frame, from: run, plan: plan, projection: projection, sky: sky, threads: maximumThreads)
            } else if !run.isEmpty {
                let layer = try RenderCanvas(width: projection.width, height: projection.height, scale: frame.scale)
                PerspectiveWarp.warp(into: layer, from: run, plan: plan, projection: projection,
                                     sky: sky.map { _ in RenderColor(red: 0, green: 0, blue: 0, alpha: 0) }, threads: maximumThreads)
                frame.draw(layer)
            }
        }
    }

    /// A label-free rectangle of the frame on a tier's flat drawing: the box around its corners'
    /// ground points (nil when it does not reach the ground).
    private static func reservedArea(_ area: (x: Double, y: Double, width: Double, height: Double), in tier: PerspectivePlan.Tier,
                                     projection: PerspectiveProjection) -> (x: Double, y: Double, width: Double, height: Double)? {
        let (cx, cy) = (projection.width / 2, projection.height / 2)
        let corners = [(area.x, area.y), (area.x + area.width, area.y), (area.x, area.y + area.height),
                       (area.x + area.width, area.y + area.height)].compactMap { projection.ground(dx: $0.0 - cx, dy: $0.1 - cy) }
        guard corners.count == 4 else { return nil }
        let xs = corners.map { $0.x - tier.x }, ys = corners.map { $0.y - tier.y }
        return (xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!)
    }

    /// The sky above the horizon and the fog beyond the far plane: the style's background, with
    /// its opacity, washed toward a pale blue (a dark blue for dark maps), as MapLibre's default
    /// sky is a lighter tint of the map.
    static func skyColor(background: RenderColor) -> RenderColor {
        let luminance = background.red * 0.2126 + background.green * 0.7152 + background.blue * 0.0722
        let tone = luminance < 0.4 ? (0.10, 0.13, 0.20) : (0.80, 0.88, 0.97)
        return RenderColor(red: (background.red + tone.0) / 2, green: (background.green + tone.1) / 2,
                           blue: (background.blue + tone.2) / 2, alpha: background.alpha)
    }
}

/// Fills a pitched frame from the flat drawings of its ``PerspectivePlan``.
enum PerspectiveWarp {
    /// For every frame pixel: the ground its centre sees (one division per row: along a row the
    /// ground moves evenly), read bilinearly from the row's tier; the sky or fog above the ground.
    static func warp(into frame: RenderCanvas, from drawn: [(tier: PerspectivePlan.Tier, canvas: RenderCanvas)],
                     plan: PerspectivePlan, projection: PerspectiveProjection, sky: RenderColor?, threads maximumThreads: Int) {
        let ratio = frame.scale
        let (width, height) = (projection.width, projection.height)
        let skyWord = sky.map(premultiplied) ?? 0
        let rows = frame.pixelHeight, columns = frame.pixelWidth
        // The tiers' pixels are read in place; every thread reads, and writes its own rows.
        var sources: [(pixels: UnsafeRawPointer, stride: Int, columns: Int, rows: Int, tier: PerspectivePlan.Tier)] = []
        for (tier, canvas) in drawn {
            canvas.withPremultipliedARGB { pixels, stride in
                if let base = pixels.baseAddress { sources.append((base, stride, canvas.pixelWidth, canvas.pixelHeight, tier)) }
            }
        }
        frame.withMutablePremultipliedARGB { pixels, rowBytes in
            guard let base = pixels.baseAddress else { return }
            nonisolated(unsafe) let (output, tiers) = (base, sources)
            // Rows dealt out in turn, so near and far rows (which cost the same) share the work.
            let threads = rows * columns >= 262_144 ? max(1, min(maximumThreads, 8)) : 1
            DispatchQueue.concurrentPerform(iterations: threads) { part in
                for row in stride(from: part, to: rows, by: threads) {
                    let line = (output + row * rowBytes).assumingMemoryBound(to: UInt32.self)
                    let y = (Double(row) + 0.5) / ratio
                    let dy = y - height / 2
                    let scale = projection.scale(atRow: dy)
                    guard y >= plan.groundTop, let ground = projection.ground(dx: 0, dy: dy),
                          let source = tiers.first(where: { y < $0.tier.bottom }) ?? tiers.last else {
                        for column in 0..<columns { line[column] = skyWord }
                        continue
                    }
                    // Sample positions in the tier's pixels (centres at half pixels): v is fixed
                    // on the row, u moves by `step` per frame pixel.
                    let r = source.tier.pixelRatio
                    let v = (ground.y - source.tier.y) * r - 0.5
                    let across = 1 / scale
                    let step = across / ratio * r
                    let u0 = ((0.5 / ratio - width / 2) * across - source.tier.x) * r - 0.5
                    let fog = min(max((PerspectivePlan.fogStartScale - scale) / (PerspectivePlan.fogStartScale - PerspectivePlan.farScale), 0), 1)
                    sampleRow(into: line, count: columns, u0: u0, step: step, v: v, source: source.pixels, stride: source.stride,
                              columns: source.columns, rows: source.rows)
                    if fog > 0, sky != nil {
                        let weight = UInt32((fog * 256).rounded())
                        for column in 0..<columns { line[column] = blend(line[column], skyWord, weight) }
                    }
                }
            }
        }
    }

    /// One frame row: bilinear reads along a line of a tier, clamped to its edges.
    @inline(__always)
    private static func sampleRow(into line: UnsafeMutablePointer<UInt32>, count: Int, u0: Double, step: Double, v: Double,
                                  source: UnsafeRawPointer, stride: Int, columns: Int, rows: Int) {
        let vc = min(max(v, 0), Double(rows - 1))
        let y0 = Int(vc), y1 = min(y0 + 1, rows - 1)
        let fy = UInt32(((vc - Double(y0)) * 256).rounded())
        let top = (source + y0 * stride).assumingMemoryBound(to: UInt32.self)
        let bottom = (source + y1 * stride).assumingMemoryBound(to: UInt32.self)
        let maxU = Double(columns - 1)
        var u = u0
        for column in 0..<count {
            let uc = min(max(u, 0), maxU)
            let x0 = Int(uc), x1 = min(x0 + 1, columns - 1)
            let fx = UInt32(((uc - Double(x0)) * 256).rounded())
            let upper = blend(top[x0], top[x1], fx), lower = blend(bottom[x0], bottom[x1], fx)
            line[column] = blend(upper, lower, fy)
            u += step
        }
    }

    /// `a` moved `weight`/256 of the way to `b`, per premultiplied channel (two channels at a time).
    @inline(__always)
    static func blend(_ a: UInt32, _ b: UInt32, _ weight: UInt32) -> UInt32 {
        if weight == 0 || a == b { return a }
        if weight >= 256 { return b }
        let keep = 256 - weight
        let evenChannels = ((a & 0x00FF_00FF) &* keep &+ (b & 0x00FF_00FF) &* weight &+ 0x0080_0080) >> 8 & 0x00FF_00FF
        let oddChannels = (((a >> 8) & 0x00FF_00FF) &* keep &+ ((b >> 8) & 0x00FF_00FF) &* weight &+ 0x0080_0080) & 0xFF00_FF00
        return evenChannels | oddChannels
    }

    /// A colour as Cairo's premultiplied ARGB word.
    static func premultiplied(_ color: RenderColor) -> UInt32 {
        let a = min(max(color.alpha, 0), 1)
        func channel(_ c: Double) -> UInt32 { UInt32((min(max(c, 0), 1) * a * 255).rounded()) }
        return UInt32((a * 255).rounded()) << 24 | channel(color.red) << 16 | channel(color.green) << 8 | channel(color.blue)
    }
}
