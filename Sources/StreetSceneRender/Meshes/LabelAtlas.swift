// The scene's words: shop signs, house numbers, street names, bus stops. Each text is shaped once
// (HarfBuzz through MapRender's font catalogue, so every script OSM names are written in has a
// face), drawn into one image, and shown on quads that sample it.

import Foundation
import MapRender

/// Texts drawn into one RGBA image, each with its place in it.
struct LabelAtlas {
    struct Entry {
        /// Texture coordinates of the text's box (0…1, v down the image).
        var u0: Double, v0: Double, u1: Double, v1: Double
        /// The box's width over its height.
        var aspect: Double
    }

    /// Pixels per em in the atlas: enough for a sign filling a third of a 640-pixel-wide view.
    static let fontSize = 40.0
    static let width = 2048
    static let maximumHeight = 2048

    private(set) var entries: [Entry] = []
    private var keys: [String: Int] = [:]
    private var pending: [(runs: [ShapedRun], x: Double, y: Double)] = []
    private var shelfX = 0.0, shelfY = 0.0
    private let fonts: FontCatalog
    private let rowHeight = (fontSize * 1.5).rounded(.up)

    init(fonts: FontCatalog) { self.fonts = fonts }

    /// The entry for `text`, white glyphs to be tinted, adding it when new; nil for empty text or a full atlas.
    mutating func entry(_ text: String, bold: Bool = false) -> Entry? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        let key = "\(bold)|\(trimmed)"
        if let index = keys[key] { return entries[index] }
        let stack = [bold ? "Noto Sans Bold" : "Noto Sans Regular"]
        guard let runs = try? fonts.shapeLine(String(trimmed.prefix(60)), stack: stack, size: Self.fontSize), !runs.isEmpty else { return nil }
        let pad = 6.0
        let w = min(runs.reduce(0) { $0 + $1.advance } + 2 * pad, Double(Self.width))
        if shelfX + w > Double(Self.width) { shelfX = 0; shelfY += rowHeight }
        guard shelfY + rowHeight <= Double(Self.maximumHeight) else { return nil }
        let x = shelfX, y = shelfY
        shelfX += w.rounded(.up) + 2
        pending.append((runs, x, y))
        // v is filled in once the atlas's height is known.
        let entry = Entry(u0: x / Double(Self.width), v0: y, u1: (x + w) / Double(Self.width), v1: y + rowHeight, aspect: w / rowHeight)
        keys[key] = entries.count
        entries.append(entry)
        return entry
    }

    var isEmpty: Bool { pending.isEmpty }
    /// The atlas's height in pixels once every text is in.
    var height: Int { max(Int(shelfY + rowHeight), 1) }

    /// Texture coordinates of an entry in the finished atlas.
    func normalized(_ entry: Entry) -> Entry {
        var e = entry
        e.v0 = entry.v0 / Double(height)
        e.v1 = entry.v1 / Double(height)
        return e
    }

    /// Draws every text and returns the image as straight RGBA rows, top first.
    func draw() -> (width: Int, height: Int, rgba: [UInt8])? {
        guard !pending.isEmpty, let canvas = try? RenderCanvas(width: Double(Self.width), height: Double(height)) else { return nil }
        let baseline = Self.fontSize * 1.1
        for item in pending {
            let x = item.x + 6, y = item.y + baseline
            var pen = x
            for run in item.runs {
                canvas.draw(run, x: pen, y: y, color: .white)
                pen += run.advance
            }
        }
        return (Self.width, height, canvas.rgbaPixels())
    }
}
