// MKMapView's frame: the map drawn as a snapshot is, but with style renderers kept from frame to
// frame (their decoded tiles, shaped labels, sprites and fonts), with the overlays that have
// renderers and the annotation views on screen, and the loading and rendering callbacks.

import Foundation
import MapGeometry
import MapRender
import MapStyle

extension MKMapView {
    /// Where the map's data comes from (an OpenMapKit addition); nil uses
    /// ``MapDataSource/default`` (set in code or from `OPENMAPKIT_BUNDLE`).
    public var dataSource: MapDataSource? {
        get { renderState.dataSource }
        set { renderState.dataSource = newValue; renderState.loadedKey = nil; renderState.rendererCache = nil }
    }

    /// Device pixels per point of ``render()``'s image (default 1; non-finite or out of 0 … 8 is 1).
    public var contentScaleFactor: CGFloat {
        get { renderState.scale }
        set { renderState.scale = newValue.isFinite && newValue > 0 && newValue <= 8 ? newValue : 1 }
    }

    /// Draws what the map shows now (an OpenMapKit addition): the map for its configuration, the
    /// overlays that have renderers at their levels, the annotation views on screen (markers
    /// as MapKit's balloons, image views as their images, the user's location as the blue dot),
    /// and the selected annotation's callout when its view ``MKAnnotationView/canShowCallout``.
    /// The camera's heading and pitch are drawn: a pitched camera shows the ground in perspective
    /// (as snapshots do), with annotation views and overlays where ``convert(_:toPointTo:)`` puts
    /// their coordinates; the map's labels lean with the ground.
    ///
    /// Annotation views that collide with views of higher ``MKAnnotationView/displayPriority`` are
    /// left out, as MapKit hides them (see MKMapView+Decluttering.swift). Over the annotations and
    /// under the callout come MapKit's ornaments: the scale bar at the top left while
    /// ``showsScale`` is true, and the compass at the top right while the map is rotated and
    /// ``showsCompass`` is true (see MapViewOrnaments.swift).
    ///
    /// Reports to the delegate in MapKit's order: `mapViewWillStartLoadingMap` (when what is
    /// shown needs data not loaded for an earlier frame) and `mapViewWillStartRenderingMap`, then
    /// `mapViewDidFinishLoadingMap` or `mapViewDidFailLoadingMap`, then
    /// `mapViewDidFinishRenderingMap(fullyRendered:)`, false when loading failed. A zero-size
    /// frame throws at once, with no callbacks.
    ///
    /// - Throws: ``MKError`` when the frame is zero-size, no data source is configured, or the
    ///   map cannot be drawn.
    public func render() throws -> UIImage {
        guard hasArea else { throw MKError(.unknown, reason: "the map view's frame is zero-size: nothing to draw") }
        let options = snapshotOptions()
        let key = loadKey()
        let loads = renderState.loadedKey != key
        var result: Result<UIImage, any Error> = .failure(MKError(.unknown))
        withCallbacks {
            if loads { delegate?.mapViewWillStartLoadingMap(self) }
            delegate?.mapViewWillStartRenderingMap(self)
            result = Result { try renderFrame(options) }
            switch result {
            case .success:
                if loads {
                    renderState.loadedKey = key
                    delegate?.mapViewDidFinishLoadingMap(self)
                }
                // Not fully rendered while tile overlays still fetch tiles (MapKit says the same).
                let pending = options.overlays.contains { ($0.renderer as? MKTileOverlayRenderer)?.hasPendingTiles == true }
                delegate?.mapViewDidFinishRenderingMap(self, fullyRendered: !pending)
            case .failure(let error):
                renderState.loadedKey = nil
                // A failed frame shows no map features (see MKMapView+FeatureQueries.swift).
                renderState.rendererCache?.renderers.drawn = []
                delegate?.mapViewDidFailLoadingMap(self, withError: error)
                delegate?.mapViewDidFinishRenderingMap(self, fullyRendered: false)
            }
        }
        let image = try result.get()
        drawOrnaments(on: image.canvas, dark: options.isDark)
        drawControls(on: image.canvas, dark: options.isDark)
        if let callout = selectedCalloutLayout() {
            MapViewCallout.draw(callout, dark: options.isDark, on: image.canvas)
        }
        return image
    }

    /// Draws one frame with the style renderers kept from earlier frames (see
    /// ``MapViewRendererCache``); what the kept renderers cannot draw (a style file, an overlay
    /// that replaces the map) goes through the snapshot engine, as a snapshot would be drawn.
    private func renderFrame(_ options: MKMapSnapshotter.Options) throws -> UIImage {
        guard options.styleURL == nil, !options.overlays.contains(where: { $0.renderer.overlay.canReplaceMapContent }) else {
            renderState.rendererCache = nil
            // The view draws the credit with its ornaments, where its layout puts it, and its
            // annotation views itself, in its own drawing order.
            options.showsAttribution = false
            options.markers = []
            options.customAnnotations = []
            let snapshot = try SnapshotEngine.render(options: options, dataSource: renderState.dataSource, tileWait: 0)
            ornamentAttribution = snapshot.attribution
            drawAnnotationViews(on: snapshot.image.canvas, dark: options.isDark)
            return snapshot.image
        }
        let dataSource = try renderState.dataSource ?? MapDataSource.resolved()
        let scale = Double(options.scale)
        if let document = renderState.styleDocument {
            // A face's own style document (Mapbox's MGLStyle): drawn as it is, made again when it changes.
            let key = ["document", String(renderState.styleVersion), String(describing: ObjectIdentifier(dataSource)),
                       dataSource.imagery == nil ? "" : "\(scale)"].joined(separator: "|")
            if renderState.rendererCache?.key != key {
                // Paint that changed since the last frame blends in from what that frame showed
                // (MapLibre compares each frame's layers with the last frame's, so several
                // changes between two frames make one transition, and none before the first).
                if let drawn = renderState.drawnStyleDocument, drawn.version != renderState.styleVersion {
                    renderState.paintTransitions.styleChanged(from: drawn.style, to: document, at: clock.now)
                }
                renderState.drawnStyleDocument = (document, renderState.styleVersion)
                // TileJSON sources (a configurationURL) are resolved once per document version.
                let resolved = try StyleFetching.resolvingTileJSON(document, base: renderState.styleBaseURL)
                let loader = SnapshotEngine.makeLoader(style: resolved, dataSource: dataSource, scale: scale, styleURL: renderState.styleBaseURL)
                renderState.rendererCache = MapViewRendererCache(
                    key: key, renderers: MapStyleRenderers(style: resolved, loader: loader, transitions: renderState.paintTransitions),
                    keeping: [dataSource])
            }
            renderState.rendererCache!.renderers.transitionTime = clock.now
        } else {
            // What the style and the loader depend on; the scale only matters to imagery tiles' paths.
            let key = [String(describing: ObjectIdentifier(dataSource)), String(describing: ObjectIdentifier(options.preferredConfiguration)),
                       options.effectivePointOfInterestFilter.map { String(describing: ObjectIdentifier($0)) } ?? "-",
                       "\(options.showsBuildings)", "\(options.isDark)", "\(options.preferredConfiguration.elevationStyle.rawValue)",
                       dataSource.imagery == nil ? "" : "\(scale)"].joined(separator: "|")
            if renderState.rendererCache?.key != key {
                let style = try SnapshotEngine.makeStyle(options: options, dataSource: dataSource)
                let loader = SnapshotEngine.makeLoader(style: style, dataSource: dataSource, scale: scale, styleURL: nil)
                renderState.rendererCache = MapViewRendererCache(key: key, renderers: MapStyleRenderers(style: style, loader: loader),
                                                                 keeping: [options.preferredConfiguration, options.effectivePointOfInterestFilter])
            }
        }
        let renderers = renderState.rendererCache!.renderers
        ornamentAttribution = MapAttribution.lines(of: renderers.style)
        // Tile overlays draw what they have and fetch the rest for a later frame (see MKTileOverlayRenderer).
        let canvas = try SnapshotEngine.drawMap(options: options, renderers: renderers, tileWait: 0)
        drawAnnotationViews(on: canvas, dark: options.isDark)
        return UIImage(canvas: canvas)
    }

    /// What a frame's data depends on: the tiles covering the view at the tile zoom, and the
    /// configuration. A frame with the same key needs nothing new loaded.
    private func loadKey() -> String {
        let z = Int(min(max(viewport.zoomLevel.rounded(.down), 0), 14))
        let range = TileRange(covering: viewport.visibleMapRect, zoom: z).map(\.description) ?? "-"
        let configuration = ObjectIdentifier(preferredConfiguration).hashValue
        return "\(range)|\(mapType.rawValue)|\(configuration)|\(showsBuildings)|\(pointOfInterestFilter.map { ObjectIdentifier($0).hashValue } ?? 0)"
            + "|\(renderState.styleVersion)|\(traitCollection.userInterfaceStyle.rawValue)"
    }

    /// The snapshot options that draw this map view's frame.
    func snapshotOptions() -> MKMapSnapshotter.Options {
        let options = MKMapSnapshotter.Options()
        options.size = viewport.size
        options.scale = contentScaleFactor
        options.camera = viewport.camera
        options.preferredConfiguration = preferredConfiguration
        options.pointOfInterestFilter = pointOfInterestFilter
        options.showsBuildings = showsBuildings
        options.traitCollection.userInterfaceStyle = traitCollection.userInterfaceStyle
        for overlay in overlays {
            guard let renderer = overlayRenderers[ObjectIdentifier(overlay)] else { continue }
            options.addOverlay(renderer, level: overlayLists[0].contains(where: { $0 === overlay }) ? .aboveRoads : .aboveLabels)
        }
        var markers: [MarkerItem] = [], images: [AnnotationItem] = []
        // Views that collide with a view of higher priority are hidden (MKMapView+Decluttering.swift).
        let decluttered = declutteredAnnotations()
        // Clusters are drawn after (above) the annotations, whose clustered members are left out.
        for annotation in annotationStore.list + clusterAnnotations.map({ $0 as any MKAnnotation }) + (featureState.selected.map { [$0] } ?? []) {
            // The user's dot keeps no label away (MapKit draws labels under it).
            if annotation is MKUserLocation, annotationViews[ObjectIdentifier(annotation)] is MKUserLocationView { continue }
            guard let view = annotationViews[ObjectIdentifier(annotation)], !view.isHidden, view.alpha > 0,
                  !isClusteredMember(annotation), !decluttered.contains(ObjectIdentifier(annotation)) else { continue }
            if let marker = view as? MKMarkerAnnotationView {
                var item = MarkerItem(annotation: annotation)
                item.tint = marker.effectiveTint.renderColor
                if let glyph = marker.contentGlyph {
                    item.glyph = glyph
                } else if let image = (marker.isSelected ? marker.selectedGlyphImage : nil) ?? marker.glyphImage {
                    item.glyph = .image(image)
                } else if let text = marker.glyphText, !text.isEmpty {
                    item.glyph = .text(String(text.prefix(3)))
                }
                item.showsTitle = marker.titleVisibility != .hidden
                // MapKit's balloon grows when its marker is selected.
                item.isSelected = marker.isSelected
                markers.append(item)
            } else if let image = view.image, image.size.width > 0, image.size.height > 0 {
                // The image centred on the point plus the centre offset: that offset as a unit anchor.
                let anchor = UnitPoint(x: 0.5 - view.centerOffset.x / image.size.width, y: 0.5 - view.centerOffset.y / image.size.height)
                var item = AnnotationItem(coordinate: annotation.coordinate, title: view.contentTitle, anchor: anchor,
                                          content: Image(uiImage: image))
                item.showsTitle = view.contentTitle != nil
                images.append(item)
            }
        }
        // These keep the map's labels clear of the views; render() draws the views themselves
        // (MKMapView+AnnotationDrawing.swift).
        options.markers = markers
        options.customAnnotations = images
        return options
    }
}

/// What a map view keeps for drawing.
struct MapViewRenderState {
    var dataSource: MapDataSource?
    var scale: CGFloat = 1
    /// The load key of the last frame whose data loaded.
    var loadedKey: String?
    /// The style renderers of earlier frames.
    var rendererCache: MapViewRendererCache?
    /// A style document drawn instead of the configuration's built-in style (a face's own
    /// style, e.g. Mapbox's `MGLStyle`); nil draws the configuration's.
    var styleDocument: Style?
    /// Where the document's relative resources (tiles, sprites, glyphs) are read from.
    var styleBaseURL: URL?
    /// Counts changes of ``styleDocument``: the renderers are made again when it moves.
    var styleVersion = 0
    /// The document's paint properties still blending from their values before a change.
    var paintTransitions = PaintTransitions()
    /// The document the last frame drew and its ``styleVersion``, which paint changes blend
    /// from; nil before the first frame of a newly loaded style.
    var drawnStyleDocument: (style: Style, version: Int)?
}

extension MKMapView {
    /// Draws `document` instead of the configuration's style from the next frame on (nil goes
    /// back to the configuration's), resolving its relative resources against `baseURL`; the
    /// renderers kept from earlier frames are dropped. Faces call it whenever their document
    /// changes (Mapbox's runtime styling).
    ///
    /// With `transitioning` (an edit of the document drawn), paint properties that differ from
    /// the last frame's blend into their new values from the next frame on, over the document's
    /// transitions, on ``clock`` (see ``PaintTransitions``); without it (a style loaded anew)
    /// everything shows as it is at once.
    func setStyleDocument(_ document: Style?, baseURL: URL?, transitioning: Bool = false) {
        if !transitioning {
            renderState.paintTransitions = PaintTransitions()
            renderState.drawnStyleDocument = nil
        }
        renderState.styleDocument = document
        renderState.styleBaseURL = baseURL
        renderState.styleVersion += 1
        renderState.rendererCache = nil
    }

    /// Whether a change of the style is still blending in (an OpenMapKit addition): frames drawn
    /// until it ends differ, so whoever draws them (a window) keeps drawing while this is true.
    /// Only Mapbox's runtime styling starts such transitions.
    public var isTransitioningStyle: Bool {
        if renderState.paintTransitions.isEmpty { return false }
        if renderState.paintTransitions.isRunning(at: clock.now) { return true }
        renderState.paintTransitions.removeFinished(at: clock.now)
        return false
    }
}

/// The style renderers a map view keeps from frame to frame (a map redrawn as it pans or zooms
/// shows mostly the same tiles), with the key they were made for: made again when the style or
/// the data changes. Feature queries (MKMapView+FeatureQueries.swift) read what they drew last.
final class MapViewRendererCache {
    let key: String
    let renderers: MapStyleRenderers
    /// The objects whose identities the key names, held so that no other object takes their
    /// address (and so their identity) while the key is in use.
    private let kept: [AnyObject]

    init(key: String, renderers: MapStyleRenderers, keeping objects: [AnyObject?]) {
        (self.key, self.renderers) = (key, renderers)
        kept = objects.compactMap { $0 }
    }
}

extension UIImage {
    /// The canvas holding the image's pixels (an OpenMapKit addition), for a window that draws
    /// its controls over a map view's frame and copies it to the screen without another copy.
    public var renderCanvas: RenderCanvas { canvas }
}
