import MapStyle

extension Style {
    /// The style cut in two at its first `symbol` layer: the base map (fills, lines, rasters…) and
    /// the labels drawn over it (that symbol layer and every layer after it).
    ///
    /// MapKit draws `aboveRoads` overlays between the two, so a snapshot renders each half with its
    /// own ``StyleRenderer`` and composites them with its overlays in between. The labels half has
    /// no background layer, so it is transparent where nothing is labelled. A style without
    /// symbol layers gives an empty labels half.
    public func splitAtFirstSymbolLayer() -> (base: Style, labels: Style) {
        let index = layers.firstIndex { $0.type == .symbol } ?? layers.count
        var base = self, labels = self
        base.layers = Array(layers[..<index])
        labels.layers = layers[index...].filter { $0.type != .background }
        return (base, labels)
    }
}
