import Foundation

/// The sprite of the default styles, drawn on first use: a badge per POI icon (`poi-<class>` for
/// every OpenMapTiles POI class with an icon, `poi` for the rest), a peak triangle, a town dot and
/// a road shield, at 1× and 2×.
///
/// It is served as ordinary `sprite.json` + `sprite.png` bytes under ``url`` (see
/// ``DefaultStyle/resource(_:)``), so the renderer reads it like any style's sprite.
enum DefaultSprite {
    /// The sprite URL the default styles name.
    static let url = "openmapkit://sprites/default"

    /// The size of a POI badge, in points.
    static let badgeSize = 17.0

    /// The sheet's bytes for a pixel ratio (1 or 2), made once per process.
    static func files(pixelRatio: Int) -> (json: [UInt8], png: [UInt8]) {
        let ratio = pixelRatio >= 2 ? 2 : 1
        return lock.withLock {
            if let cached = cache[ratio] { return cached }
            let made = draw(pixelRatio: ratio)
            cache[ratio] = made
            return made
        }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [Int: (json: [UInt8], png: [UInt8])] = [:]

    /// One image of the sheet: its name, its size in points and how to draw it centred in that box.
    private struct Item {
        var name: String
        var width: Double
        var height: Double
        var draw: (RenderCanvas, _ centerX: Double, _ centerY: Double) -> Void
    }

    private static var items: [Item] {
        var items: [Item] = []
        for name in PointOfInterestIcon.openMapTilesClassNames {
            guard let icon = PointOfInterestIcon(openMapTilesClass: name) else { continue }
            items.append(Item(name: "poi-\(name)", width: badgeSize, height: badgeSize) { canvas, x, y in
                icon.drawBadge(on: canvas, centerX: x, centerY: y, size: badgeSize)
            })
        }
        items.append(Item(name: "poi", width: badgeSize, height: badgeSize) { canvas, x, y in
            PointOfInterestIcon.pin.drawBadge(on: canvas, centerX: x, centerY: y, size: badgeSize)
        })
        items.append(Item(name: "airport", width: 20, height: 20) { canvas, x, y in
            PointOfInterestIcon.airport.drawBadge(on: canvas, centerX: x, centerY: y, size: 20)
        })
        items.append(Item(name: "peak", width: 12, height: 10) { canvas, x, y in
            canvas.fill(rings: [[(x - 6, y + 5), (x, y - 5), (x + 6, y + 5)]], color: RenderColor(hex: 0xFFFFFF))
            canvas.fill(rings: [[(x - 4.6, y + 4.2), (x, y - 3.5), (x + 4.6, y + 4.2)]], color: RenderColor(hex: 0x8D6E53))
        })
        items.append(Item(name: "dot", width: 8, height: 8) { canvas, x, y in
            canvas.fillCircle(x: x, y: y, radius: 4, color: .white)
            canvas.fillCircle(x: x, y: y, radius: 2.8, color: RenderColor(hex: 0x5B5F66))
        })
        items.append(Item(name: "dot-capital", width: 10, height: 10) { canvas, x, y in
            canvas.fillCircle(x: x, y: y, radius: 5, color: .white)
            canvas.fillCircle(x: x, y: y, radius: 3.8, color: RenderColor(hex: 0x5B5F66))
            canvas.fillCircle(x: x, y: y, radius: 1.6, color: .white)
        })
        // Road shields are stretched around the route number (icon-text-fit).
        items.append(Item(name: "shield", width: 16, height: 14) { canvas, x, y in
            canvas.fill(rings: [roundedRect(x - 8, y - 7, 16, 14, 3)], color: RenderColor(hex: 0x9AA0A8))
            canvas.fill(rings: [roundedRect(x - 7, y - 6, 14, 12, 2.2)], color: .white)
        })
        items.append(Item(name: "shield-motorway", width: 16, height: 14) { canvas, x, y in
            canvas.fill(rings: [roundedRect(x - 8, y - 7, 16, 14, 3)], color: .white)
            canvas.fill(rings: [roundedRect(x - 7, y - 6, 14, 12, 2.2)], color: RenderColor(hex: 0x3A7BD5))
        })
        // Where the map has no data (see NoDataArea): grey with diagonal stripes, a tile that
        // repeats seamlessly (each stripe leaves one edge where the next one comes in).
        items.append(noDataPattern("no-data", base: RenderColor(hex: 0xE3E3E1), stripe: RenderColor(hex: 0xD3D3D0)))
        items.append(noDataPattern("no-data-dark", base: RenderColor(hex: 0x16171A), stripe: RenderColor(hex: 0x202226)))
        return items
    }

    /// A 16-point square of `base` crossed by stripes of `stripe` running from bottom left to top
    /// right, 1.5 points wide and 8 apart along each edge: one along the diagonal, halves of one
    /// along the next diagonals (in the corners and at mid-edges), so copies side by side join up.
    private static func noDataPattern(_ name: String, base: RenderColor, stripe: RenderColor) -> Item {
        let side = 16.0, half = 0.75 * 2.0.squareRoot()  // half a stripe's width, measured along an edge
        return Item(name: name, width: side, height: side) { canvas, x, y in
            let left = x - side / 2, top = y - side / 2
            canvas.fill(rings: [[(left, top), (left + side, top), (left + side, top + side), (left, top + side)]], color: base)
            // The stripes are the bands c − half ≤ u + v ≤ c + half (u, v from the top-left corner)
            // for c = 8, 16 and 24, each cut to the square; c = 0 and 32 are the corners' halves.
            for c in stride(from: 0.0, through: 2 * side, by: side / 2) {
                var ring: [(x: Double, y: Double)] = []
                // The band's outline walked round the square's edges, clockwise from its top edge.
                let low = max(c - half, 0), high = min(c + half, 2 * side)
                guard low < high else { continue }
                func onTop(_ s: Double) -> (x: Double, y: Double)? { s >= 0 && s <= side ? (left + s, top) : nil }
                func onRight(_ s: Double) -> (x: Double, y: Double)? { s - side >= 0 && s - side <= side ? (left + side, top + s - side) : nil }
                func onBottom(_ s: Double) -> (x: Double, y: Double)? { s - side >= 0 && s - side <= side ? (left + s - side, top + side) : nil }
                func onLeft(_ s: Double) -> (x: Double, y: Double)? { s >= 0 && s <= side ? (left, top + s) : nil }
                // Along the top and right edges the band runs from `low` to `high`; back along
                // the bottom and left edges from `high` to `low`, with the corners it holds.
                if let p = onTop(low) { ring.append(p) } else if let p = onRight(low) { ring.append(p) }
                if low < side && high > side { ring.append((left + side, top)) }
                if let p = onTop(high) { ring.append(p) } else if let p = onRight(high) { ring.append(p) }
                if let p = onBottom(high) { ring.append(p) } else if let p = onLeft(high) { ring.append(p) }
                if low < side && high > side { ring.append((left, top + side)) }
                if let p = onBottom(low) { ring.append(p) } else if let p = onLeft(low) { ring.append(p) }
                if c == 0 { ring = [(left, top), (left + high, top), (left, top + high)] }
                if c == 2 * side { ring = [(left + side, top + side), (left + low - side, top + side), (left + side, top + low - side)] }
                canvas.fill(rings: [ring], color: stripe)
            }
        }
    }

    private static func roundedRect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ r: Double) -> [(x: Double, y: Double)] {
        var ring: [(x: Double, y: Double)] = []
        let corners = [(x + w - r, y + r, -Double.pi / 2), (x + w - r, y + h - r, 0.0), (x + r, y + h - r, Double.pi / 2), (x + r, y + r, Double.pi)]
        for (cx, cy, start) in corners {
            for step in 0...4 {
                let angle = start + Double(step) * Double.pi / 8
                ring.append((cx + r * cos(angle), cy + r * sin(angle)))
            }
        }
        return ring
    }

    /// Lays the items out in rows on one canvas and writes the index alongside.
    private static func draw(pixelRatio: Int) -> (json: [UInt8], png: [UInt8]) {
        let items = items
        let columns = 8
        let cell = 22.0
        let rows = (items.count + columns - 1) / columns
        let ratio = Double(pixelRatio)
        // The sheet is small and its size fixed, so neither can fail.
        let canvas = try! RenderCanvas(width: cell * Double(columns), height: cell * Double(rows), scale: ratio)
        var index: [String] = []
        for (offset, item) in items.enumerated() {
            let left = Double(offset % columns) * cell, top = Double(offset / columns) * cell
            item.draw(canvas, left + item.width / 2, top + item.height / 2)
            let entry = #""\#(item.name)": {"x": \#(Int(left * ratio)), "y": \#(Int(top * ratio)), "width": \#(Int((item.width * ratio).rounded(.up))), "# +
                #""height": \#(Int((item.height * ratio).rounded(.up))), "pixelRatio": \#(pixelRatio)}"#
            index.append(entry)
        }
        let json = "{\n" + index.joined(separator: ",\n") + "\n}\n"
        return (Array(json.utf8), try! canvas.pngData())
    }
}
