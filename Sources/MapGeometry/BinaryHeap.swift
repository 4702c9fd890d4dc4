/// A minimal array-backed binary min-heap: the smallest element by `<` comes out first.
///
/// MapGeometry has no dependencies, so this stands in for swift-collections' `Heap` (label placement
/// uses it). For a max-heap, give the element a `<` that orders the larger values first.
struct BinaryHeap<Element: Comparable> {
    private var storage: [Element] = []

    init(capacity: Int = 0) {
        storage.reserveCapacity(max(capacity, 0))
    }

    var isEmpty: Bool { storage.isEmpty }
    var count: Int { storage.count }

    mutating func push(_ element: Element) {
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

    mutating func popMin() -> Element? {
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
