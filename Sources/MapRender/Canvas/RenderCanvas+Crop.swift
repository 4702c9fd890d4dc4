import CCairo

extension RenderCanvas {
    /// A new canvas holding the `width × height`-point rectangle whose top-left corner is at
    /// (`x`, `y`) points on this one, at the same scale: the raster tile cut out of the larger
    /// canvas it was drawn on (so what crosses the tile's edge is drawn as in its neighbours).
    ///
    /// The pixels are copied unchanged when the corner falls on whole device pixels, which the
    /// tile renderer ensures; otherwise they are resampled. Parts of the rectangle outside this
    /// canvas are transparent.
    public func cropped(x: Double, y: Double, width: Double, height: Double) throws(RenderError) -> RenderCanvas {
        guard x.isFinite, y.isFinite else { throw RenderError("the crop origin (\(x), \(y)) is not finite") }
        let result = try RenderCanvas(width: width, height: height, scale: scale)
        cairo_surface_flush(surface)
        cairo_save(result.cairo)
        // Device pixels, not points: the copy must not go through the canvas's point scale.
        cairo_identity_matrix(result.cairo)
        cairo_reset_clip(result.cairo)
        cairo_set_operator(result.cairo, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(result.cairo, surface, -x * scale, -y * scale)
        cairo_pattern_set_filter(cairo_get_source(result.cairo), CAIRO_FILTER_NEAREST)
        cairo_paint(result.cairo)
        cairo_restore(result.cairo)
        cairo_surface_flush(result.surface)
        return result
    }
}
