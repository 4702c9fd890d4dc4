import MapFormats

/// Node locations for way geometry, compact: two parallel arrays sorted by node id (8 bytes of id
/// and 8 of location a node), looked up by binary search.
///
/// Sorted extracts (osmium's "Sort.Type_then_ID", the norm for downloads) append in id order; an
/// unsorted file is sorted once before the first lookup.
/// (Country-scale extracts will want this memory-mapped from disk; that is the next step for scale.)
public struct NodeLocationStore: Sendable {
    private var ids: [Int64] = []
    private var locations: [OSMLocation] = []
    private var sorted = true

    public init() {}

    public var count: Int { ids.count }

    public mutating func append(id: Int64, location: OSMLocation) {
        if let last = ids.last, id <= last { sorted = false }
        ids.append(id)
        locations.append(location)
    }

    /// Sorts by id if appends came out of order; later duplicates of an id win.
    public mutating func prepareForLookups() {
        guard !sorted else { return }
        let order = ids.indices.sorted { ids[$0] != ids[$1] ? ids[$0] < ids[$1] : $0 < $1 }
        var newIDs: [Int64] = [], newLocations: [OSMLocation] = []
        newIDs.reserveCapacity(ids.count)
        newLocations.reserveCapacity(ids.count)
        for index in order {
            if newIDs.last == ids[index] {
                newLocations[newLocations.count - 1] = locations[index]
            } else {
                newIDs.append(ids[index])
                newLocations.append(locations[index])
            }
        }
        ids = newIDs
        locations = newLocations
        sorted = true
    }

    /// The location of node `id`, or nil if the extract does not have it.
    public func location(of id: Int64) -> OSMLocation? {
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if ids[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low < ids.count && ids[low] == id ? locations[low] : nil
    }
}
