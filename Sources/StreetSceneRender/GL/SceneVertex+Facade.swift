extension SceneVertex {
    /// The vertex alpha of a ``SceneMaterial/facade`` wall with levels `levelHeight` metres high,
    /// which the rasteriser reads to place windows (a facade is opaque, so its alpha is free):
    /// 255 means the default 3 m levels, 1 … 254 levels of that many decimetres (0.1 … 25.4 m),
    /// and 0 a wall without windows (``facadeAlphaWithoutWindows``). Heights round to the nearest
    /// decimetre; 3 m gives 255.
    public static func facadeAlpha(levelHeight: Double) -> UInt8 {
        guard levelHeight.isFinite, levelHeight > 0 else { return 255 }
        let decimetres = (levelHeight * 10).rounded()
        if decimetres == 30 { return 255 }
        return UInt8(max(1, min(254, decimetres)))
    }

    /// The vertex alpha of a ``SceneMaterial/facade`` wall drawn without windows (a garage, a
    /// church, a blank end wall).
    public static let facadeAlphaWithoutWindows: UInt8 = 0
}
