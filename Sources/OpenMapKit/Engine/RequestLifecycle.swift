import Foundation

/// The life of one MapKit request object — `MKLocalSearch`, the geocoding requests,
/// `MKDirections`, `MKMapSnapshotter` — written once for all of them, with MapKit's semantics:
///
/// - The work runs off the caller's thread; its answer goes to a completion handler on the queue
///   the caller names (MapKit's forms use the main queue), or to an async caller.
/// - The request is loading (`isLoading`, `isSearching`, `isCalculating`) from the start until
///   its answer is delivered: the flag drops on the delivery queue just before the handler runs,
///   so a handler may start the next request, and a caller that saw its answer sees it done.
/// - `cancel()` delivers no result: the request fails with `CancellationError` (the work is also
///   asked to stop, through the `isCancelled` it is handed), and a result computed anyway is dropped.
///
/// Two kinds, as in MapKit: a **one-shot** request (searches, geocoding, snapshots) is made for one
/// answer, so cancelling it is final — also before it starts. A **restartable** one (`MKDirections`)
/// runs one calculation at a time (a second start while one runs fails with `loadingThrottled`),
/// `cancel()` stops the calculation under way and does nothing while idle, and it can be started
/// again after a cancellation.
final class RequestLifecycle: @unchecked Sendable {
    enum Kind: Sendable { case oneShot, restartable }

    private let kind: Kind
    /// Why a restartable request refuses a second start while one runs.
    private let busyReason: String
    private let lock = NSLock()
    /// Starts not yet delivered.
    private var active = 0
    /// Starts so far; each start is known by its number.
    private var generation = 0
    /// Restartable: every start up to this number is cancelled.
    private var cancelledGeneration = 0
    /// One-shot: cancelled for good.
    private var cancelledForever = false

    init(_ kind: Kind, busyReason: String = "the request is already running") {
        self.kind = kind
        self.busyReason = busyReason
    }

    /// Whether a start has not delivered its answer yet.
    var isRunning: Bool { lock.withLock { active > 0 } }

    /// One-shot: whether ``cancel()`` was called. Restartable: whether the calculation under way
    /// was cancelled.
    var isCancelled: Bool {
        lock.withLock {
            switch kind {
            case .oneShot: cancelledForever
            case .restartable: active > 0 && cancelledGeneration >= generation
            }
        }
    }

    func cancel() {
        lock.withLock {
            switch kind {
            case .oneShot: cancelledForever = true
            case .restartable: if active > 0 { cancelledGeneration = generation }
            }
        }
    }

    /// Registers a start: its number, or nil when a restartable request is busy.
    private func begin() -> Int? {
        lock.withLock {
            if kind == .restartable && active > 0 { return nil }
            active += 1
            generation += 1
            return generation
        }
    }

    private func cancelled(_ start: Int) -> Bool {
        lock.withLock { cancelledForever || cancelledGeneration >= start }
    }

    /// Runs `work` on a global queue and hands its result to `completion` on `queue`.
    func start<T: Sendable>(on queue: DispatchQueue,
                            _ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) throws -> T,
                            completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        guard let start = begin() else {
            let reason = busyReason
            queue.async { completion(.failure(MKError(.loadingThrottled, reason: reason))) }
            return
        }
        let isCancelled: @Sendable () -> Bool = { [self] in cancelled(start) }
        let deliver: @Sendable (Result<T, any Error>) -> Void = { [self] result in
            let result = isCancelled() ? .failure(CancellationError()) : result
            queue.async { [self] in
                lock.withLock { active -= 1 }
                completion(result)
            }
        }
        if isCancelled() { return deliver(.failure(CancellationError())) }
        DispatchQueue.global(qos: .userInitiated).async {
            deliver(Result { try work(isCancelled) })
        }
    }

    /// The async form: cancelling the task cancels the request.
    func start<T: Sendable>(_ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) throws -> T) async throws -> T {
        try await withTaskCancellationHandler {
            // A task cancelled before it got here: its cancel() above may have been a no-op (an
            // idle restartable request), but it still gets no answer.
            try Task.checkCancellation()
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                start(on: DispatchQueue.global(qos: .userInitiated), work) { continuation.resume(with: $0) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Runs `work` on the calling thread, for callers that already run on a worker of their own
    /// (the server's render pool, the command line).
    func runHere<T>(_ work: (_ isCancelled: @escaping @Sendable () -> Bool) throws -> T) throws -> T {
        guard let start = begin() else { throw MKError(.loadingThrottled, reason: busyReason) }
        defer { lock.withLock { active -= 1 } }
        let isCancelled: @Sendable () -> Bool = { [self] in cancelled(start) }
        if isCancelled() { throw CancellationError() }
        let value = try work(isCancelled)
        if isCancelled() { throw CancellationError() }
        return value
    }
}

extension Result where Failure == any Error {
    /// Hands the result to a MapKit-style completion handler: the answer and no error, or no
    /// answer and the error.
    func deliver(to handler: (Success?, (any Error)?) -> Void) {
        switch self {
        case .success(let value): handler(value, nil)
        case .failure(let error): handler(nil, error)
        }
    }
}
