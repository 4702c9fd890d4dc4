import Foundation
@testable import OpenMapKit
import XCTest

/// MKLocalSearchCompleter on the Monaco bundle: debouncing, delegate calls, highlight ranges,
/// query suggestions, errors, cancelling, and completions fed back into MKLocalSearch.
final class LocalSearchCompleterTests: XCTestCase {
    /// Records every delegate call, in order.
    final class Recorder: MKLocalSearchCompleterDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var events: [(fragment: String, results: [MKLocalSearchCompletion]?, error: (any Error)?)] = []

        func completerDidUpdateResults(_ completer: MKLocalSearchCompleter) {
            lock.withLock { events.append((completer.queryFragment, completer.results, nil)) }
        }

        func completer(_ completer: MKLocalSearchCompleter, didFailWithError error: any Error) {
            lock.withLock { events.append((completer.queryFragment, nil, error)) }
        }

        var recorded: [(fragment: String, results: [MKLocalSearchCompletion]?, error: (any Error)?)] { lock.withLock { events } }
    }

    /// The completer's debounce timer, stepped by the test: time passes only in ``advance(by:)``,
    /// which runs (on the calling thread, in deadline order) every completion that has come due.
    final class SteppedClock: @unchecked Sendable {
        private let lock = NSLock()
        private var now: TimeInterval = 0
        private var pending: [(due: TimeInterval, order: Int, work: @Sendable () -> Void)] = []
        private var scheduled = 0

        var scheduler: MKLocalSearchCompleter.DebounceScheduler {
            { [self] delay, work in
                lock.withLock {
                    pending.append((now + delay, scheduled, work))
                    scheduled += 1
                }
            }
        }

        /// Completions scheduled and not yet run.
        var pendingCount: Int { lock.withLock { pending.count } }

        func advance(by seconds: TimeInterval) {
            let due = lock.withLock { () -> [@Sendable () -> Void] in
                now += seconds
                let ready = pending.filter { $0.due <= now }.sorted { ($0.due, $0.order) < ($1.due, $1.order) }
                pending.removeAll { $0.due <= now }
                return ready.map(\.work)
            }
            for work in due { work() }
        }
    }

    let clock = SteppedClock()

    func makeCompleter(_ recorder: Recorder) throws -> MKLocalSearchCompleter {
        let completer = MKLocalSearchCompleter()
        completer.dataSource = try MonacoBundle.dataSource()
        completer.delegateQueue = DispatchQueue(label: "completer-test")
        completer.delegate = recorder
        completer.debounceScheduler = clock.scheduler
        return completer
    }

    /// Sets the fragment(s), lets the debounce interval pass on the stepped clock, and waits for
    /// the delegate queue to deliver what that produced: exactly one delegate call.
    func type(_ fragments: [String], into completer: MKLocalSearchCompleter, recorder: Recorder) {
        let before = recorder.recorded.count
        for fragment in fragments { completer.queryFragment = fragment }
        clock.advance(by: completer.debounceInterval)
        XCTAssertEqual(clock.pendingCount, 0)
        // The completion has run; its delegate call is queued on the (serial) delegate queue.
        completer.delegateQueue.sync {}
        XCTAssertEqual(recorder.recorded.count, before + 1, "one delegate call for \(fragments)")
    }

    func testDebouncedCompletionsWithHighlights() throws {
        let recorder = Recorder()
        let completer = try makeCompleter(recorder)
        completer.debounceInterval = 0.2
        // A fragment is not searched before it has been still for the interval.
        completer.queryFragment = "C"
        clock.advance(by: 0.1)
        completer.delegateQueue.sync {}
        XCTAssertEqual(recorder.recorded.count, 0, "searched before the debounce interval passed")
        XCTAssertTrue(completer.isSearching)
        type(["Ca", "Cas", "Casino de Mo"], into: completer, recorder: recorder)
        let event = try XCTUnwrap(recorder.recorded.last)
        XCTAssertEqual(event.fragment, "Casino de Mo", "only the last fragment is searched")
        let results = try XCTUnwrap(event.results)
        XCTAssertFalse(completer.isSearching)
        let lines = results.map { $0.title + " — " + $0.subtitle }
        XCTAssertEqual(lines.count, Set(lines).count, "suggestions that read the same are shown once: \(lines)")
        let casino = try XCTUnwrap(results.first { $0.title == "Casino de Monte Carlo" }, "\(results)")
        XCTAssertFalse(casino.isQuerySuggestion)
        XCTAssertFalse(casino.titleHighlightRanges.isEmpty)
        let title = casino.title as NSString
        for range in casino.titleHighlightRanges {
            let highlighted = title.substring(with: range).lowercased()
            XCTAssertTrue("casino de mo".contains(highlighted), "highlighted \(highlighted)")
        }

        // The completion feeds a search that returns its place.
        let response = try awaitResult {
            try await MKLocalSearch(request: MKLocalSearch.Request(completion: casino), dataSource: MonacoBundle.dataSource()).start()
        }
        XCTAssertEqual(response.mapItems.map(\.identifier?.rawValue), [LocalSearchTests.casinoID])

        // An empty fragment clears the results.
        type([""], into: completer, recorder: recorder)
        XCTAssertEqual(completer.results.count, 0)
    }

    func testQuerySuggestionsBecomeSearches() throws {
        let recorder = Recorder()
        let completer = try makeCompleter(recorder)
        completer.debounceInterval = 0
        completer.resultTypes = .query
        type(["pharma"], into: completer, recorder: recorder)
        let results = completer.results
        XCTAssertFalse(results.isEmpty, "no query suggestion for pharma")
        XCTAssertTrue(results.allSatisfy(\.isQuerySuggestion), "\(results)")
        let suggestion = try XCTUnwrap(results.first)
        let response = try awaitResult {
            try await MKLocalSearch(request: MKLocalSearch.Request(completion: suggestion), dataSource: MonacoBundle.dataSource()).start()
        }
        XCTAssertFalse(response.mapItems.isEmpty)
        XCTAssertTrue(response.mapItems.contains { $0.pointOfInterestCategory == .pharmacy }, "\(response.mapItems)")

        // Places only: no query suggestions.
        completer.resultTypes = [.pointOfInterest]
        type(["pharma"], into: completer, recorder: recorder)
        XCTAssertTrue(completer.results.allSatisfy { !$0.isQuerySuggestion }, "\(completer.results)")
    }

    func testErrorsGoToTheDelegateAndCancelDropsResults() throws {
        let recorder = Recorder()
        let completer = try makeCompleter(recorder)
        completer.debounceInterval = 0
        completer.region = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: .nan, longitude: 7.4),
                                              span: MKCoordinateSpan(latitudeDelta: 1, longitudeDelta: 1))
        type(["casino"], into: completer, recorder: recorder)
        let failure = try XCTUnwrap(recorder.recorded.last?.error as? MKError)
        XCTAssertEqual(failure.code, .placemarkNotFound)
        XCTAssertTrue(failure.localizedDescription.contains("region"), failure.localizedDescription)

        completer.region = MKCoordinateRegion(center: MonacoBundle.center, latitudinalMeters: 3000, longitudinalMeters: 3000)
        completer.debounceInterval = 0.3
        let count = recorder.recorded.count
        completer.queryFragment = "casino"
        XCTAssertTrue(completer.isSearching)
        completer.cancel()
        XCTAssertFalse(completer.isSearching)
        // The debounce interval passes and the cancelled completion's timer fires: nothing is delivered.
        clock.advance(by: 0.3)
        XCTAssertEqual(clock.pendingCount, 0)
        completer.delegateQueue.sync {}
        XCTAssertEqual(recorder.recorded.count, count, "a cancelled completion is not delivered")
    }

    /// FTS5 and SQL syntax, control characters and a huge fragment reach the delegate as results
    /// or as an empty list, never as an error: what a user types is text to look for.
    func testHostileFragmentsAreText() throws {
        let recorder = Recorder()
        let completer = try makeCompleter(recorder)
        completer.debounceInterval = 0
        for fragment in ["\"", "casino\" OR \"", "NEAR(", "NEAR(casino monte, 2)", "*", "cas*", "AND", "- casino", "name:casino",
                         "'; DROP TABLE places; --", "\u{0}\u{1}\u{7F}", "\u{202E}onisac", "🎰"] {
            type([fragment], into: completer, recorder: recorder)
            let last = try XCTUnwrap(recorder.recorded.last)
            XCTAssertNil(last.error, "\(fragment): \(String(describing: last.error))")
            XCTAssertNotNil(last.results, fragment)
        }
        // A fragment longer than any query is a typed error naming the limit.
        type([String(repeating: "casino ", count: 20_000)], into: completer, recorder: recorder)
        let failure = try XCTUnwrap(recorder.recorded.last?.error as? MKError)
        XCTAssertEqual(failure.code, .placemarkNotFound)
        XCTAssertTrue(failure.localizedDescription.contains("characters"), failure.localizedDescription)
    }

    /// Runs async work from a synchronous test (these tests wait on expectations).
    func awaitResult<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = AsyncResultBox<T>(), done = expectation(description: "async work")
        Task {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.fulfill()
        }
        wait(for: [done], timeout: 60)
        return try XCTUnwrap(box.result).get()
    }
}

/// An answer handed from a task to a waiting test.
private final class AsyncResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
