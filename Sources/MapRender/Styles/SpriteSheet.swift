import CCairo
import Foundation
import MapStyle

/// A style's sprite: one PNG holding many small images, and a JSON index naming each one's
/// rectangle (MapLibre's `sprite.json` + `sprite.png`, or `sprite@2x.*` for dense screens).
///
/// Icons (`icon-image`) and patterns (`fill-pattern`, `line-pattern`, `background-pattern`) are
/// looked up here by name. The index is read leniently: entries with missing, non-numeric or
/// out-of-bounds rectangles are dropped (and listed in ``rejected``), so one bad entry does not
/// cost the whole sprite.
public final class SpriteSheet {
    /// One named image of the sheet.
    public struct Entry: Hashable, Sendable {
        /// The rectangle in the sheet's pixels.
        public var x: Int, y: Int, width: Int, height: Int
        /// Device pixels per point the image was drawn for: a 2× image of 32 pixels is 16 points.
        public var pixelRatio: Double
        /// A signed-distance-field icon, which `icon-color` recolours.
        public var sdf: Bool

        public init(x: Int, y: Int, width: Int, height: Int, pixelRatio: Double = 1, sdf: Bool = false) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.pixelRatio = pixelRatio
            self.sdf = sdf
        }

        /// The size in points.
        public var pointWidth: Double { Double(width) / pixelRatio }
        public var pointHeight: Double { Double(height) / pixelRatio }
    }

    public let image: RenderImage
    public let entries: [String: Entry]
    /// Names whose index entries were unusable, with the reason.
    public let rejected: [String: String]

    /// Reads a sprite from its index JSON and its PNG.
    public init(json: [UInt8], png: [UInt8]) throws(RenderError) {
        image = try RenderImage(png: png)
        let index: JSONValue
        do { index = try JSONValue.parse(json) } catch { throw RenderError("sprite index: \(error)") }
        guard case .object(let object) = index else { throw RenderError("sprite index: expected an object of images") }
        var entries: [String: Entry] = [:], rejected: [String: String] = [:]
        for (name, value) in object.members {
            func int(_ key: String) -> Int? {
                guard let number = value[key]?.numberValue, number.isFinite, number == number.rounded() else { return nil }
                return Int(exactly: number)
            }
            guard let x = int("x"), let y = int("y"), let width = int("width"), let height = int("height") else {
                rejected[name] = "x, y, width and height must be whole numbers"
                continue
            }
            guard x >= 0, y >= 0, width > 0, height > 0, x + width <= image.width, y + height <= image.height else {
                rejected[name] = "the rectangle is outside the \(image.width)×\(image.height) sprite image"
                continue
            }
            let ratio = value["pixelRatio"]?.numberValue ?? 1
            entries[name] = Entry(x: x, y: y, width: width, height: height,
                                  pixelRatio: ratio.isFinite && ratio > 0 ? ratio : 1,
                                  sdf: value["sdf"]?.boolValue ?? false)
        }
        self.entries = entries
        self.rejected = rejected
    }

    /// A sheet made in memory (the default styles' icons).
    public init(image: RenderImage, entries: [String: Entry]) {
        self.image = image
        self.entries = entries
        rejected = [:]
    }

    /// Draws the named image with its top-left corner at (`x`, `y`) points, `scale` times its
    /// point size, at `opacity`. Returns false when the sheet has no such image.
    @discardableResult
    public func draw(_ name: String, on canvas: RenderCanvas, x: Double, y: Double, scale: Double = 1, opacity: Double = 1) -> Bool {
        guard let entry = entries[name], scale > 0, scale.isFinite else { return false }
        let cairo = canvas.cairo
        cairo_save(cairo)
        cairo_translate(cairo, x, y)
        let factor = scale / entry.pixelRatio
        cairo_scale(cairo, factor, factor)
        cairo_new_path(cairo)
        cairo_rectangle(cairo, 0, 0, Double(entry.width), Double(entry.height))
        cairo_clip(cairo)
        cairo_set_source_surface(cairo, image.surface, -Double(entry.x), -Double(entry.y))
        cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_BILINEAR)
        cairo_paint_with_alpha(cairo, min(max(opacity, 0), 1))
        cairo_restore(cairo)
        return true
    }
}

/// The sprites a style names (`"sprite"`), loaded for one pixel ratio: a single sheet, or
/// MapLibre's list of named sheets whose images are referred to as `id:name` (the sheet with
/// id `default` without the prefix).
struct StyleSprites {
    private(set) var sheets: [String: SpriteSheet] = [:]
    /// Images added to the style at run time (`Style.images`), one sheet each, by name; they
    /// win over the sprite's images of the same name, as MapLibre's `addImage` does.
    private(set) var added: [String: SpriteSheet] = [:]
    /// What could not be loaded, for ``StyleRenderer/warnings``.
    private(set) var problems: [String] = []

    init() {}

    /// The sprites, then the images added at run time (a PNG that does not decode is left out
    /// with a problem noted).
    init(_ sprite: StyleSprite?, images: [String: StyleImage], pixelRatio: Double, loader: StyleResourceLoader) {
        self.init(sprite, pixelRatio: pixelRatio, loader: loader)
        for (name, image) in images {
            do {
                let decoded = try RenderImage(png: image.png)
                let ratio = image.pixelRatio.isFinite && image.pixelRatio > 0 ? image.pixelRatio : 1
                added[name] = SpriteSheet(image: decoded, entries: [name: SpriteSheet.Entry(x: 0, y: 0, width: decoded.width, height: decoded.height,
                                                                                          pixelRatio: ratio, sdf: image.sdf)])
            } catch {
                problems.append("image \(name): \(error.description)")
            }
        }
    }

    /// Fetches `URL.json` and `URL.png` — `URL@2x.*` when `pixelRatio` is 2 or more, falling back
    /// to the 1× files — through the loader. A sheet that cannot be read is left out with a
    /// problem noted; icons from it are then not drawn, their text still is.
    init(_ sprite: StyleSprite?, pixelRatio: Double, loader: StyleResourceLoader) {
        let list: [(id: String, url: String)] = switch sprite {
        case .url(let url)?: [("default", url)]
        case .sprites(let items)?: items
        case nil: []
        }
        for (id, url) in list {
            // A query string (an access token) stays after the suffix.
            let base: Substring, query: Substring
            if let mark = url.firstIndex(of: "?") { (base, query) = (url[..<mark], url[mark...]) } else { (base, query) = (url[...], "") }
            var loaded: SpriteSheet?
            var failure = "not found"
            for suffix in pixelRatio >= 2 ? ["@2x", ""] : [""] {
                guard let json = loader.resource(base + suffix + ".json" + query),
                      let png = loader.resource(base + suffix + ".png" + query) else { continue }
                do {
                    loaded = try SpriteSheet(json: json, png: png)
                    break
                } catch {
                    failure = error.description
                }
            }
            if let loaded {
                sheets[id] = loaded
                if !loaded.rejected.isEmpty { problems.append("sprite \(url): \(loaded.rejected.count) unusable images (\(loaded.rejected.keys.sorted().prefix(3).joined(separator: ", ")))") }
            } else {
                problems.append("sprite \(url): \(failure)")
            }
        }
    }

    /// The names of every image, as `icon-image` refers to them (for the `image` expression).
    var availableNames: Set<String> {
        var names = Set(added.keys)
        for (id, sheet) in sheets {
            for name in sheet.entries.keys { names.insert(id == "default" ? name : id + ":" + name) }
        }
        return names
    }

    /// The sheet and rectangle of an image named as a style names it.
    func image(_ name: String) -> (sheet: SpriteSheet, entry: SpriteSheet.Entry)? {
        if let sheet = added[name], let entry = sheet.entries[name] { return (sheet, entry) }
        if let sheet = sheets["default"], let entry = sheet.entries[name] { return (sheet, entry) }
        if let colon = name.firstIndex(of: ":"), let sheet = sheets[String(name[..<colon])],
           let entry = sheet.entries[String(name[name.index(after: colon)...])] {
            return (sheet, entry)
        }
        return nil
    }
}
