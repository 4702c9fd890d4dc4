// The map's own features (roads, buildings, labels…) that the map view's last frame drew at a
// point or in a rectangle: MapRender's feature query run on the style renderers the frame was
// drawn with (see MapViewRendererCache), for the frame's camera. Nothing is drawn or loaded
// again. Internal: the engine of the Mapbox-shaped face's `visibleFeatures(at:)` and
// `visibleFeatures(in:)`, and later of MapKit's selectable map features.

import Foundation
import MapGeometry
import MapRender
import MapStyle

extension MKMapView {
    /// The style's features the last ``render()`` drew at `point` (in the map view's own
    /// coordinates), topmost first, one per feature and style layer (see MapRender's
    /// `StyleRenderer.features(at:tolerance:layers:filter:)` for what counts as drawn where).
    ///
    /// The query is for the frame as drawn: its camera, even when the map has moved since, and the
    /// labels it placed. Nothing is found before the first frame, after one that failed, or when
    /// the frame was drawn through the snapshot engine (a style file, an overlay that replaces the
    /// map's content). Features are placed in the whole style's layer order, labels over the base
    /// even when `aboveRoads` overlays split the style in two. Overlays and annotation views are
    /// not map features and are not reported.
    ///
    /// - Parameters:
    ///   - tolerance: how many points around `point` still count.
    ///   - layerIDs: only these style layers (nil for all).
    ///   - filter: a boolean style expression each feature must pass.
    func renderedFeatures(at point: CGPoint, tolerance: CGFloat = 0, layerIDs: Set<String>? = nil,
                          filter: MapStyle.Expression? = nil) -> [RenderedFeature] {
        guard let renderers = renderState.rendererCache?.renderers else { return [] }
        return renderers.features { $0.features(at: point, tolerance: Double(tolerance), layers: layerIDs, filter: filter) }
    }

    /// The style's features the last ``render()`` drew that meet `rect` (in the map view's own
    /// coordinates), topmost first, as `renderedFeatures(at:tolerance:layerIDs:filter:)` finds them.
    func renderedFeatures(in rect: CGRect, layerIDs: Set<String>? = nil, filter: MapStyle.Expression? = nil) -> [RenderedFeature] {
        guard let renderers = renderState.rendererCache?.renderers else { return [] }
        return renderers.features { $0.features(in: rect, layers: layerIDs, filter: filter) }
    }
}
