import Foundation
import MapBundle
import MapFormats
import MapImport

/// Keeps a bundle current from a replication feed (a ``ReplicationSource``: OSM's or
/// Geofabrik's over HTTP, or a folder): reads the sequence the bundle's data stands at from its
/// manifest, fetches the diffs after it in order and applies them with ``BundleUpdater``.
///
/// Diffs are applied in batches of up to ``batchSize``: their changes, in sequence order, make one
/// osmChange whose net effect is what applying them one by one gives, and a batch costs one pass
/// over the tiles it touches instead of one per diff (a minutely feed that fell an hour behind
/// catches up in one update). Each batch is one transaction; the manifest then records its last
/// sequence, so an interrupted catch-up resumes after the last batch that landed.
///
/// Sendable so that a task can run it: its settings are set before it runs, and it runs one
/// catch-up at a time.
public final class ReplicationFollower: @unchecked Sendable {
    public let bundle: URL
    public let source: any ReplicationSource
    /// Diffs per update at most.
    public var batchSize = 60
    /// The sequence to start after when the bundle records none (an extract whose header named no feed).
    public var startSequence: Int?
    /// Told of each batch before it is applied (its sequences) and of the phases of the update.
    public var progress: (_ sequences: ClosedRange<Int>, _ phase: UpdatePhase, _ fraction: Double?) -> Void = { _, _, _ in }
    public let cancellation = ImportCancellation()

    public init(bundle: URL, source: any ReplicationSource) {
        self.bundle = bundle
        self.source = source
    }

    /// Errors of following a feed.
    public enum FollowError: Error, CustomStringConvertible {
        /// The bundle records no sequence and none was given.
        case noStartingPoint(String)
        case feed(ReplicationError)

        public var description: String {
            switch self {
            case .noStartingPoint(let bundle):
                "\(bundle) records no replication sequence (its extract named no feed, or a change file was applied since): "
                    + "give the sequence its data stands at with --from-sequence"
            case .feed(let error): "the replication feed: \(error)"
            }
        }
    }

    /// Applies every diff the feed has after the bundle's sequence; returns one report per batch
    /// (none when the bundle is current).
    public func catchUp() async throws -> [UpdateReport] {
        var reports: [UpdateReport] = []
        while true {
            let manifest = try MapBundle(url: bundle).manifest
            guard let applied = manifest.updates?.sequence ?? startSequence else {
                throw FollowError.noStartingPoint(bundle.path)
            }
            let pending: ClosedRange<Int>?
            do { pending = try await source.pendingSequences(after: applied) } catch { throw FollowError.feed(error) }
            guard let pending else { return reports }
            let batch = pending.lowerBound...min(pending.upperBound, pending.lowerBound + max(batchSize, 1) - 1)
            var change = OSMChange()
            var state: ReplicationState?
            for sequence in batch {
                if cancellation.isCancelled { throw UpdateError.cancelled }
                let update: ReplicationUpdate
                do { update = try await source.update(of: sequence, latest: pending.upperBound) } catch { throw FollowError.feed(error) }
                change.changes += try OSMChange.decode(update.changes).changes
                state = update.state
            }
            guard let state else { return reports }
            let updater = try BundleUpdater(bundle: bundle)
            let cancellation = self.cancellation
            updater.cancellation = cancellation
            updater.progress = { [progress] phase, fraction in progress(batch.lowerBound...state.sequenceNumber, phase, fraction) }
            let batchChange = change
            reports.append(try await Self.onThreadOfItsOwn { try updater.apply(batchChange, state: state) })
        }
    }

    /// Runs `body` on a thread of its own: an update is seconds of work that must not hold one of
    /// Swift concurrency's few threads, which a server beside it answers requests on.
    private static func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.name = "openmapkit-update"
            thread.start()
        }
    }

    /// Catches up, then again every `interval`, until cancelled; `reported` hears of each batch
    /// applied and of each failure (a feed that is down is tried again at the next interval).
    public func follow(every interval: Duration, reported: (Result<UpdateReport, any Error>) -> Void) async throws {
        while !cancellation.isCancelled {
            do {
                for report in try await catchUp() { reported(.success(report)) }
            } catch UpdateError.cancelled {
                return
            } catch let error as FollowError {
                if case .noStartingPoint = error { throw error }
                reported(.failure(error))
            } catch {
                reported(.failure(error))
            }
            // Sleep in short steps so that a cancellation ends the wait.
            let deadline = ContinuousClock.now + interval
            while ContinuousClock.now < deadline, !cancellation.isCancelled {
                try? await Task.sleep(for: min(.milliseconds(200), deadline - ContinuousClock.now))
            }
        }
    }
}
