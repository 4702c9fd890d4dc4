import Dispatch
import Foundation

/// Runs CPU-heavy work (drawing tiles and snapshots) on a fixed number of workers with a bounded
/// queue in front of them.
///
/// When every worker is busy and the queue is full, ``run(_:)`` throws a 503 ``APIError`` at once:
/// under overload the server sheds requests quickly instead of piling up latency and memory.
/// Work runs on Dispatch threads, never on Swift concurrency's cooperative pool, so a long render
/// cannot starve the event loops that answer cached tiles; and the renderer's own band threads
/// (`DispatchQueue.concurrentPerform`) are safe to start from them.
public final class RenderPool: @unchecked Sendable {
    /// How many jobs run at once.
    public let workers: Int
    /// How many jobs may wait for a worker before new ones are refused.
    public let queueLimit: Int

    private let lock = NSLock()
    private var running = 0
    private var waiting: [@Sendable () -> Void] = []
    private var counters = Counters()
    private let queue = DispatchQueue(label: "openmapkit.render", qos: .userInitiated, attributes: .concurrent)

    /// What the pool has done, for `/metrics`.
    public struct Counters: Sendable {
        public var completed = 0
        public var rejected = 0
        public var running = 0
        public var queued = 0
    }

    public init(workers: Int = ProcessInfo.processInfo.activeProcessorCount, queueLimit: Int = 64) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
    }

    public var statistics: Counters {
        lock.withLock {
            var snapshot = counters
            snapshot.running = running
            snapshot.queued = waiting.count
            return snapshot
        }
    }

    /// Runs `work` on a worker when one is free; throws ``APIError`` 503 when the queue is full.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            // The worker is handed back before the caller resumes, so whoever awaits the result
            // already sees it counted in `statistics`.
            let job: @Sendable () -> Void = { [self] in
                let result = Result { try work() }
                finish()
                continuation.resume(with: result)
            }
            let accepted: Bool = lock.withLock {
                if running < workers {
                    running += 1
                    queue.async(execute: job)
                    return true
                }
                guard waiting.count < queueLimit else {
                    counters.rejected += 1
                    return false
                }
                waiting.append(job)
                return true
            }
            if !accepted {
                continuation.resume(throwing: APIError.busy("the server is busy drawing maps; try again shortly"))
            }
        }
    }

    private func finish() {
        lock.withLock {
            counters.completed += 1
            if waiting.isEmpty {
                running -= 1
            } else {
                queue.async(execute: waiting.removeFirst())
            }
        }
    }
}
