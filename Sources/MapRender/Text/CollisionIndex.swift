/// An axis-aligned rectangle on the canvas, in points.
struct CollisionBox: Equatable {
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
    }

    /// The box grown by `padding` on every side.
    func padded(_ padding: Double) -> CollisionBox {
        CollisionBox(minX: minX - padding, minY: minY - padding, maxX: maxX + padding, maxY: maxY + padding)
    }

    func intersects(_ other: CollisionBox) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    var isFinite: Bool { minX.isFinite && minY.isFinite && maxX.isFinite && maxY.isFinite }
}

/// Where placed labels are, for the whole image: a grid of cells each listing the boxes that
/// touch it, so a new label is tested only against its neighbours. A point label is one box; a
/// label along a line is a chain of small boxes, one per glyph, so a curved label does not
/// claim the empty corner of its bounding rectangle.
///
/// The index covers the canvas grown by `margin` points; a symbol must lie wholly inside that
/// area to be placed (a tile renderer draws a margin around each tile so that labels crossing
/// tile edges are placed the same way on both sides).
struct CollisionIndex {
    let bounds: CollisionBox
    private let cellSize: Double
    private let columns: Int, rows: Int
    private var cells: [[Int32]]
    private(set) var boxes: [CollisionBox] = []

    init(width: Double, height: Double, margin: Double = 0, cellSize: Double = 32) {
        let margin = margin.isFinite ? min(max(margin, 0), 100_000) : 0
        bounds = CollisionBox(minX: -margin, minY: -margin, maxX: width + margin, maxY: height + margin)
        // At most 512 cells a side: a huge image or margin gets bigger cells, not a huge grid.
        let side = max(width, height) + 2 * margin
        let cellSize = max(cellSize, side / 512)
        self.cellSize = cellSize
        columns = max(1, min(512, Int(((width + 2 * margin) / cellSize).rounded(.up))))
        rows = max(1, min(512, Int(((height + 2 * margin) / cellSize).rounded(.up))))
        cells = Array(repeating: [], count: columns * rows)
    }

    /// Whether the box lies inside the indexed area.
    func contains(_ box: CollisionBox) -> Bool {
        box.isFinite && box.minX >= bounds.minX && box.minY >= bounds.minY && box.maxX <= bounds.maxX && box.maxY <= bounds.maxY
    }

    /// Whether any placed box overlaps `box`.
    func collides(_ box: CollisionBox) -> Bool {
        guard box.isFinite else { return true }
        let (c0, c1, r0, r1) = cellRange(box)
        guard c0 <= c1, r0 <= r1 else { return false }
        for row in r0...r1 {
            for column in c0...c1 {
                for index in cells[row * columns + column] where boxes[Int(index)].intersects(box) { return true }
            }
        }
        return false
    }

    /// Whether any of `boxes` overlaps a placed box.
    func collides(_ chain: [CollisionBox]) -> Bool { chain.contains { collides($0) } }

    mutating func insert(_ box: CollisionBox) {
        guard box.isFinite else { return }
        let index = Int32(boxes.count)
        boxes.append(box)
        let (c0, c1, r0, r1) = cellRange(box)
        guard c0 <= c1, r0 <= r1 else { return }
        for row in r0...r1 {
            for column in c0...c1 { cells[row * columns + column].append(index) }
        }
    }

    private func cellRange(_ box: CollisionBox) -> (Int, Int, Int, Int) {
        func cell(_ value: Double, _ origin: Double, _ count: Int) -> Int {
            let c = ((value - origin) / cellSize).rounded(.down)
            return Int(min(max(c, 0), Double(count - 1)))
        }
        if box.maxX < bounds.minX || box.minX > bounds.maxX || box.maxY < bounds.minY || box.minY > bounds.maxY { return (1, 0, 1, 0) }
        return (cell(box.minX, bounds.minX, columns), cell(box.maxX, bounds.minX, columns),
                cell(box.minY, bounds.minY, rows), cell(box.maxY, bounds.minY, rows))
    }
}
