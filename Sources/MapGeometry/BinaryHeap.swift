/// A minimal array-backed binary min-heap: the smallest element by `<` comes out first.
///
/// MapGeometry has no dependencies, so this stands in for swift-collections' `Heap` (label placement
/// and MapRouting's searches use it; inlinable so their element types get specialised code). For a
/// max-heap, give the element a `<` that orders the larger values first.
///
/// Public behind an SPI, not `package`: with Swift 6.3 an `@inlinable public` generic is not
/// specialised in another module of the package (measured: MapRouting's contraction ran 4–5×
/// slower on generic metadata lookups and element copies), while an `@inlinable public` one is.
/// The SPI keeps it out of the API that `import OpenMapKit` shows.
@_spi(OpenMapKitInternal) public struct BinaryHeap<Element: Comparable> {
    @usableFromInline var storage: [Element] = []

    @inlinable public init(capacity: Int = 0) {
        storage.reserveCapacity(max(capacity, 0))
    }

    @inlinable public var isEmpty: Bool { storage.isEmpty }
    @inlinable public var count: Int { storage.count }
    /// The smallest element, left in place.
    @inlinable public var min: Element? { storage.first }

    /// Empties the heap, keeping its memory for the next use.
    @inlinable public mutating func removeAll() { storage.removeAll(keepingCapacity: true) }

    @inlinable public mutating func push(_ element: Element) {
        storage.append(element)
        var child = storage.count - 1
        // Move the hole up instead of swapping at every level.
        while child > 0 {
            let parent = (child - 1) / 2
            guard element < storage[parent] else { break }
            storage[child] = storage[parent]
            child = parent
        }
        storage[child] = element
    }

    @inlinable public mutating func popMin() -> Element? {
        guard let last = storage.popLast() else { return nil }
        guard !storage.isEmpty else { return last }
        let top = storage[0]
        let count = storage.count
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            let right = left + 1
            let smaller = right < count && storage[right] < storage[left] ? right : left
            guard storage[smaller] < last else { break }
            storage[parent] = storage[smaller]
            parent = smaller
        }
        storage[parent] = last
        return top
    }
}
