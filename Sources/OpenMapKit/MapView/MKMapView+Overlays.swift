// MKMapView's overlays: two ordered levels, renderers asked of the delegate when on screen.

import Foundation
import MapGeometry

extension MKMapView {
    private func levelIndex(_ level: MKOverlayLevel) -> Int { level == .aboveRoads ? 0 : 1 }

    /// Where `overlay` is: its level and index; nil when it is not on the map.
    private func position(of overlay: any MKOverlay) -> (level: Int, index: Int)? {
        for level in 0..<2 {
            if let index = overlayLists[level].firstIndex(where: { $0 === overlay }) { return (level, index) }
        }
        return nil
    }

    /// The overlays on the map, drawn in this order: the `aboveRoads` level, then `aboveLabels`,
    /// each in its own order.
    public var overlays: [any MKOverlay] { overlayLists[0] + overlayLists[1] }

    /// The overlays of one level, in drawing order.
    public func overlays(in level: MKOverlayLevel) -> [any MKOverlay] { overlayLists[levelIndex(level)] }

    /// The renderer the delegate gave for `overlay`; nil when the overlay is not on the map or has
    /// not yet been on screen. (Renderers are kept once made, until the overlay is removed.)
    public func renderer(for overlay: any MKOverlay) -> MKOverlayRenderer? {
        overlayRenderers[ObjectIdentifier(overlay)]
    }

    /// Whether tile overlays received tiles since the last ``render()`` (an OpenMapKit addition):
    /// a frame draws the tiles it has and fetches the rest, so whoever draws frames (a window)
    /// draws again when this turns true to show them.
    public var hasNewlyLoadedTiles: Bool {
        overlays.contains { (renderer(for: $0) as? MKTileOverlayRenderer)?.hasNewTiles == true }
    }

    /// Adds an overlay at the end of the `aboveLabels` level.
    public func addOverlay(_ overlay: any MKOverlay) { addOverlays([overlay], level: .aboveLabels) }

    /// Adds an overlay at the end of `level`. An overlay already on the map moves there (its
    /// renderer is kept). If its bounding rectangle is on screen, its renderer is asked for at once.
    public func addOverlay(_ overlay: any MKOverlay, level: MKOverlayLevel) { addOverlays([overlay], level: level) }

    /// Adds overlays at the end of the `aboveLabels` level.
    public func addOverlays(_ overlays: [any MKOverlay]) { addOverlays(overlays, level: .aboveLabels) }

    /// Adds overlays at the end of `level`; the renderers of those on screen are reported in one `didAdd`.
    public func addOverlays(_ overlays: [any MKOverlay], level: MKOverlayLevel) {
        guard !overlays.isEmpty else { return }
        for overlay in overlays { place(overlay, level: levelIndex(level), at: Int.max) }
        withCallbacks { updateVisibleContent() }
    }

    /// Inserts an overlay at `index` of the `aboveLabels` level (past the end appends).
    public func insertOverlay(_ overlay: any MKOverlay, at index: Int) { insertOverlay(overlay, at: index, level: .aboveLabels) }

    /// Inserts an overlay at `index` of `level`: past the end appends, a negative index is 0.
    public func insertOverlay(_ overlay: any MKOverlay, at index: Int, level: MKOverlayLevel) {
        place(overlay, level: levelIndex(level), at: index)
        withCallbacks { updateVisibleContent() }
    }

    /// Inserts an overlay just above `sibling` (drawn after it). As in MapKit it goes into the
    /// `aboveLabels` level: when `sibling` is in another level (or not on the map), the overlay is
    /// appended to the end of `aboveLabels`.
    public func insertOverlay(_ overlay: any MKOverlay, above sibling: any MKOverlay) {
        insert(overlay, relativeTo: sibling, offset: 1)
    }

    /// Inserts an overlay just below `sibling` (drawn before it), with the rules of
    /// ``insertOverlay(_:above:)``.
    public func insertOverlay(_ overlay: any MKOverlay, below sibling: any MKOverlay) {
        insert(overlay, relativeTo: sibling, offset: 0)
    }

    private func insert(_ overlay: any MKOverlay, relativeTo sibling: any MKOverlay, offset: Int) {
        guard overlay !== sibling else { return }
        removeFromLists(overlay)
        if let at = position(of: sibling), at.level == 1 {
            overlayLists[1].insert(overlay, at: at.index + offset)
        } else {
            overlayLists[1].append(overlay)
        }
        withCallbacks { updateVisibleContent() }
    }

    /// Swaps two overlays' places; overlays in different levels also swap levels. Nothing happens
    /// unless both are on the map.
    public func exchangeOverlay(_ overlay1: any MKOverlay, with overlay2: any MKOverlay) {
        guard let a = position(of: overlay1), let b = position(of: overlay2) else { return }
        overlayLists[a.level][a.index] = overlay2
        overlayLists[b.level][b.index] = overlay1
    }

    /// Swaps the overlays at two indices of the `aboveLabels` level; out-of-range indices do nothing.
    public func exchangeOverlay(at index1: Int, withOverlayAt index2: Int) {
        let list = overlayLists[1]
        guard list.indices.contains(index1), list.indices.contains(index2) else { return }
        overlayLists[1].swapAt(index1, index2)
    }

    /// Removes an overlay and its renderer, from whichever level it is in; one not on the map is ignored.
    public func removeOverlay(_ overlay: any MKOverlay) { removeOverlays([overlay]) }

    /// Removes overlays and their renderers.
    public func removeOverlays(_ overlays: [any MKOverlay]) {
        for overlay in overlays where removeFromLists(overlay) {
            overlayRenderers[ObjectIdentifier(overlay)] = nil
        }
    }

    /// Puts `overlay` at `index` (clamped) of a level, taking it out of where it was.
    private func place(_ overlay: any MKOverlay, level: Int, at index: Int) {
        removeFromLists(overlay)
        let clamped = min(max(index, 0), overlayLists[level].count)
        overlayLists[level].insert(overlay, at: clamped)
    }

    @discardableResult
    private func removeFromLists(_ overlay: any MKOverlay) -> Bool {
        guard let at = position(of: overlay) else { return false }
        overlayLists[at.level].remove(at: at.index)
        return true
    }

    /// Asks the delegate for the renderers of overlays that came on screen. Part of
    /// ``updateVisibleContent()``.
    func updateOverlayRenderers() {
        guard hasArea else { return }
        let visible = viewport.visibleMapRect
        var added: [MKOverlayRenderer] = []
        for overlay in overlays {
            let id = ObjectIdentifier(overlay)
            guard overlayRenderers[id] == nil, MKMapView.isUsable(overlay.boundingMapRect), overlay.intersects(visible) else { continue }
            let renderer = delegate?.mapView(self, rendererFor: overlay) ?? MKOverlayRenderer(overlay: overlay)
            // The delegate may have removed the overlay, or a nested pass may have made its renderer.
            guard position(of: overlay) != nil, overlayRenderers[id] == nil else { continue }
            overlayRenderers[id] = renderer
            added.append(renderer)
        }
        if !added.isEmpty { delegate?.mapView(self, didAdd: added) }
    }
}
