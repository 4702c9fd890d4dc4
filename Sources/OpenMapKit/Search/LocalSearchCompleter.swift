import Foundation
import MapGeometry
import MapSearch

/// Receives a completer's results (MapKit's `MKLocalSearchCompleterDelegate`). Both methods are
/// optional, as in MapKit.
public protocol MKLocalSearchCompleterDelegate: AnyObject {
    /// New ``MKLocalSearchCompleter/results`` are ready.
    func completerDidUpdateResults(_ completer: MKLocalSearchCompleter)
    /// The completer could not search (no map data, no place index, an unusable region).
    func completer(_ completer: MKLocalSearchCompleter, didFailWithError error: any Error)
}

extension MKLocalSearchCompleterDelegate {
    public func completerDidUpdateResults(_ completer: MKLocalSearchCompleter) {}
    public func completer(_ completer: MKLocalSearchCompleter, didFailWithError error: any Error) {}
}

/// One suggestion from a completer (MapKit's `MKLocalSearchCompletion`): a place, or a query
/// such as "Cafes" that ``MKLocalSearch/Request/init(completion:)`` turns into a search.
public final class MKLocalSearchCompletion: NSObject, @unchecked Sendable {
    /// The suggestion's main text: the place's name, or the suggested query.
    public let title: String
    /// More about it, e.g. the address; may be empty.
    public let subtitle: String
    /// The parts of ``title`` that match the typed fragment, as UTF-16 ranges (MapKit wraps them
    /// in `NSValue`; here they are plain `NSRange`s, ready for `NSAttributedString`).
    public let titleHighlightRanges: [NSRange]
    /// The parts of ``subtitle`` that match the typed fragment.
    public let subtitleHighlightRanges: [NSRange]
    /// The place this suggestion stands for; nil for a query suggestion.
    let record: PlaceRecord?
    /// The text a query suggestion searches for.
    let queryText: String?

    init(_ suggestion: PlaceSuggestion) {
        var title = (suggestion.title, Self.valid(suggestion.titleHighlights, in: suggestion.title))
        var subtitle = (suggestion.subtitle, Self.valid(suggestion.subtitleHighlights, in: suggestion.subtitle))
        // Map items write the street line the country's way ("Städtle 12"), and so do
        // completions, so both read the same. The index's suggestions already do (PlaceAddress's
        // street line is the country's); a suggestion built elsewhere that writes it number first
        // ("32 Städtle") is rewritten.
        if let record = suggestion.record, let number = record.address.houseNumber, let street = record.address.street {
            let a = record.address
            let numberFirst = "\(number) \(street)"
            let fields = PostalAddress(houseNumber: a.houseNumber, street: a.street, countryCode: a.countryCode)
            if let line = fields.streetLine, line != numberFirst {
                title = Self.replacing(numberFirst, with: line, in: title.0, highlights: title.1)
                subtitle = Self.replacing(numberFirst, with: line, in: subtitle.0, highlights: subtitle.1)
            }
        }
        (self.title, titleHighlightRanges) = title
        (self.subtitle, subtitleHighlightRanges) = subtitle
        record = suggestion.record
        queryText = suggestion.record == nil ? (suggestion.queryText ?? suggestion.title) : nil
        super.init()
    }

    /// `text` with the first `old` replaced by `new`, and its highlights moved along: those after
    /// it shifted, those inside it found again in `new` (the same words, in another order).
    private static func replacing(_ old: String, with new: String, in text: String, highlights: [NSRange]) -> (String, [NSRange]) {
        let nsText = text as NSString
        let found = nsText.range(of: old)
        guard found.location != NSNotFound else { return (text, highlights) }
        let replaced = nsText.replacingCharacters(in: found, with: new)
        let newLength = (new as NSString).length, shift = newLength - found.length
        var moved: [NSRange] = []
        for range in highlights {
            if range.location + range.length <= found.location {
                moved.append(range)
            } else if range.location >= found.location + found.length {
                moved.append(NSRange(location: range.location + shift, length: range.length))
            } else {
                let words = nsText.substring(with: NSIntersectionRange(range, found))
                let inNew = (new as NSString).range(of: words, options: [.caseInsensitive])
                if inNew.location != NSNotFound { moved.append(NSRange(location: found.location + inNew.location, length: inNew.length)) }
            }
        }
        return (replaced, valid(moved, in: replaced))
    }

    /// Only ranges inside the text, so callers can hand them to `NSAttributedString` safely.
    private static func valid(_ ranges: [NSRange], in text: String) -> [NSRange] {
        let length = text.utf16.count
        return ranges.filter { $0.location != NSNotFound && $0.location >= 0 && $0.length > 0 && $0.location + $0.length <= length }
    }

    /// Whether this suggests a query rather than a place (an OpenMapKit addition).
    public var isQuerySuggestion: Bool { record == nil }

    public override var description: String {
        "MKLocalSearchCompletion(\"\(title)\"\(subtitle.isEmpty ? "" : ", \"\(subtitle)\""))"
    }
}

/// Suggests places and queries while someone types (MapKit's `MKLocalSearchCompleter`).
///
/// Set ``delegate``, then ``queryFragment`` on every keystroke. The completer waits until the
/// fragment has been still for ``debounceInterval``, searches the place index, and calls
/// ``MKLocalSearchCompleterDelegate/completerDidUpdateResults(_:)`` on ``delegateQueue`` (the main
/// queue, as MapKit does) with ``results``. Only the last fragment's results are delivered: a
/// fragment typed while an earlier one is being searched supersedes it.
///
/// ```swift
/// let completer = MKLocalSearchCompleter()
/// completer.delegate = self
/// completer.region = visibleRegion
/// completer.queryFragment = "casi"   // → "Casino de Monte-Carlo", …
/// ```
///
/// Differs from MapKit: suggestions come from the bundles' place index. On Linux the main queue
/// runs only when the program runs it, so a command-line tool or a server sets
/// ``delegateQueue`` to a queue of its own.
public final class MKLocalSearchCompleter: NSObject, @unchecked Sendable {
    /// Kinds of completion (bits as MapKit's).
    public struct ResultType: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Addresses, streets, towns, postal codes and administrative areas.
        public static let address = ResultType(rawValue: 1 << 0)
        /// Points of interest.
        public static let pointOfInterest = ResultType(rawValue: 1 << 1)
        /// Query suggestions: "cof" → "Coffee".
        public static let query = ResultType(rawValue: 1 << 2)
        /// Natural features.
        public static let physicalFeature = ResultType(rawValue: 1 << 3)
    }

    /// MapKit's older way to ask for places only, or places and queries.
    @available(*, deprecated, message: "Use resultTypes")
    public enum FilterType: Int, Sendable {
        case locationsAndQueries = 0
        case locationsOnly = 1
    }

    /// Everything a completion depends on besides the fragment, read once when a fragment is typed
    /// (so a search never sees half-changed settings).
    private struct Settings: Sendable {
        var region: MKCoordinateRegion?
        var regionPriority = MKLocalSearchRegionPriority.default
        var resultTypes: ResultType = [.address, .pointOfInterest, .query, .physicalFeature]
        var pointOfInterestFilter: MKPointOfInterestFilter?
        var addressFilter: MKAddressFilter?
        var debounceInterval: TimeInterval = 0.1
        var delegateQueue = DispatchQueue.main
        var resultLimit = 15
        var dataSource: MapDataSource?
    }

    private let lock = NSLock()
    private weak var storedDelegate: (any MKLocalSearchCompleterDelegate)?
    private var fragment = ""
    private var storedResults: [MKLocalSearchCompletion] = []
    private var generation = 0
    private var searching = false
    private var settings = Settings()
    private let workQueue = DispatchQueue(label: "OpenMapKit.MKLocalSearchCompleter")
    /// Runs the completion of a typed fragment once it has been still for the debounce interval:
    /// the completer's only use of time. By default a timer on the completer's own queue; tests
    /// install a clock they step themselves, so debouncing is checked without waiting in real time.
    typealias DebounceScheduler = @Sendable (_ delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> Void
    private var scheduler: DebounceScheduler

    public override init() {
        let queue = workQueue
        scheduler = { delay, work in queue.asyncAfter(deadline: .now() + delay, execute: work) }
        super.init()
    }

    /// Replaces the debounce timer (see ``scheduler``); set before the first fragment is typed.
    var debounceScheduler: DebounceScheduler {
        get { lock.withLock { scheduler } }
        set { lock.withLock { scheduler = newValue } }
    }

    /// Receives the results; held weakly, as MapKit does.
    public var delegate: (any MKLocalSearchCompleterDelegate)? {
        get { lock.withLock { storedDelegate } }
        set { lock.withLock { storedDelegate = newValue } }
    }

    /// The text to complete. Setting it starts a (debounced) search; an empty fragment clears the
    /// results.
    public var queryFragment: String {
        get { lock.withLock { fragment } }
        set {
            lock.withLock { fragment = newValue }
            schedule()
        }
    }

    private func setting<T>(_ path: KeyPath<Settings, T>) -> T { lock.withLock { settings[keyPath: path] } }
    private func set<T>(_ path: WritableKeyPath<Settings, T>, _ value: T) { lock.withLock { settings[keyPath: path] = value } }

    /// The area to complete in; nearer places rank higher. Unset, it is the whole world.
    public var region: MKCoordinateRegion {
        get { setting(\.region) ?? MKCoordinateRegion(MKMapRect.world) }
        set { set(\.region, newValue) }
    }

    /// Whether ``region`` biases (`.default`) or restricts (`.required`) the completions.
    public var regionPriority: MKLocalSearchRegionPriority {
        get { setting(\.regionPriority) }
        set { set(\.regionPriority, newValue) }
    }

    /// Which kinds of completion to make (default: all, including query suggestions).
    public var resultTypes: ResultType {
        get { setting(\.resultTypes) }
        set { set(\.resultTypes, newValue) }
    }

    /// Which point-of-interest categories to suggest; nil suggests all. Places that are not points
    /// of interest are not filtered by it.
    public var pointOfInterestFilter: MKPointOfInterestFilter? {
        get { setting(\.pointOfInterestFilter) }
        set { set(\.pointOfInterestFilter, newValue) }
    }

    /// Which kinds of address area to suggest; nil suggests all.
    public var addressFilter: MKAddressFilter? {
        get { setting(\.addressFilter) }
        set { set(\.addressFilter, newValue) }
    }

    /// MapKit's older switch between places only and places plus query suggestions.
    @available(*, deprecated, message: "Use resultTypes")
    public var filterType: FilterType {
        get { resultTypes.contains(.query) ? .locationsAndQueries : .locationsOnly }
        set {
            if newValue == .locationsOnly { resultTypes.remove(.query) } else { resultTypes.insert(.query) }
        }
    }

    /// How long the fragment must stay unchanged before it is searched (an OpenMapKit addition;
    /// default 0.1 s). Zero searches every fragment.
    public var debounceInterval: TimeInterval {
        get { setting(\.debounceInterval) }
        set { set(\.debounceInterval, newValue) }
    }

    /// Where the delegate is called (an OpenMapKit addition; default the main queue, as MapKit).
    /// A program without a running main queue (a command-line tool, a server) sets its own.
    public var delegateQueue: DispatchQueue {
        get { setting(\.delegateQueue) }
        set { set(\.delegateQueue, newValue) }
    }

    /// The most completions to return (an OpenMapKit addition).
    public var resultLimit: Int {
        get { setting(\.resultLimit) }
        set { set(\.resultLimit, newValue) }
    }

    /// The bundles to complete from (an OpenMapKit addition); nil uses ``MapDataSource/default``.
    public var dataSource: MapDataSource? {
        get { setting(\.dataSource) }
        set { set(\.dataSource, newValue) }
    }

    /// The latest completions.
    public var results: [MKLocalSearchCompletion] { lock.withLock { storedResults } }

    /// Whether a completion is pending or running.
    public var isSearching: Bool { lock.withLock { searching } }

    /// Drops the pending or running completion; its results are not delivered.
    public func cancel() {
        lock.withLock {
            generation += 1
            searching = false
        }
    }

    private func schedule() {
        let (ticket, text, settings, scheduler) = lock.withLock { () -> (Int, String, Settings, DebounceScheduler) in
            generation += 1
            searching = true
            return (generation, fragment, self.settings, self.scheduler)
        }
        let delay = settings.debounceInterval.isFinite ? max(settings.debounceInterval, 0) : 0
        scheduler(delay) { [weak self] in
            self?.complete(text, settings: settings, ticket: ticket)
        }
    }

    private func isCurrent(_ ticket: Int) -> Bool { lock.withLock { generation == ticket } }

    private func complete(_ text: String, settings: Settings, ticket: Int) {
        guard isCurrent(ticket) else { return }
        let outcome = Result { try Self.suggestions(for: text, settings: settings) }
        settings.delegateQueue.async { [self] in
            let delegate: (any MKLocalSearchCompleterDelegate)? = lock.withLock {
                guard generation == ticket else { return nil }
                searching = false
                if case .success(let completions) = outcome { storedResults = completions }
                return storedDelegate
            }
            guard let delegate else { return }
            switch outcome {
            case .success: delegate.completerDidUpdateResults(self)
            case .failure(let error): delegate.completer(self, didFailWithError: error)
            }
        }
    }

    private static func suggestions(for fragment: String, settings: Settings) throws -> [MKLocalSearchCompletion] {
        let text = fragment.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        if text.isEmpty { return [] }
        guard text.count <= MKLocalSearch.maximumQueryLength else {
            throw MKError(.placemarkNotFound, reason: "the fragment is \(text.count) characters long; at most \(MKLocalSearch.maximumQueryLength) are completed")
        }
        let (region, types, poiFilter, addresses, priority, limit) = (settings.region, settings.resultTypes, settings.pointOfInterestFilter,
                                                                      settings.addressFilter, settings.regionPriority,
                                                                      min(settings.resultLimit, MKLocalSearch.maximumResults))
        if let region, let problem = SearchInput.problem(with: region) { throw MKError(.placemarkNotFound, reason: problem) }
        var searchTypes = MKLocalSearch.ResultType()
        if types.contains(.address) { searchTypes.insert(.address) }
        if types.contains(.pointOfInterest) { searchTypes.insert(.pointOfInterest) }
        if types.contains(.physicalFeature) { searchTypes.insert(.physicalFeature) }
        let kinds = MKLocalSearch.placeKinds(searchTypes, pointOfInterestFilter: poiFilter)
        let wantsQueries = types.contains(.query)
        guard !kinds.isEmpty || wantsQueries, limit > 0 else { return [] }
        let search = try PlaceSearch(source: settings.dataSource)
        var query = PlaceQuery(text: text, region: region)
        query.regionIsRequired = priority == .required && region != nil
        query.kinds = kinds
        // Included categories are applied here, to points of interest only (the index's filter
        // would drop every place without a category, addresses too).
        let included: Set<String>?
        (included, query.excludedCategories) = MKLocalSearch.categories(of: poiFilter)
        query.limit = limit * 3
        var found = try search.complete(query, includeQuerySuggestions: wantsQueries)
        // Places of kinds not asked for (only query suggestions wanted) and address kinds the
        // filter drops are removed here, so the index's choices never leak past the request.
        found = found.filter { suggestion in
            guard let record = suggestion.record else { return wantsQueries }
            if let included, record.kind == .pointOfInterest, !(record.category.map(included.contains) ?? false) { return false }
            return kinds.contains(record.kind) && (addresses?.keeps(record) ?? true)
        }
        // Suggestions that read the same (five bus stops named "Monte-Carlo (Casino)") are one
        // line to a person choosing; the first, best ranked, stands for them.
        var seen = Set<String>()
        found = found.filter { seen.insert($0.title + "\u{1F}" + $0.subtitle).inserted }
        return found.prefix(limit).map(MKLocalSearchCompletion.init)
    }
}
