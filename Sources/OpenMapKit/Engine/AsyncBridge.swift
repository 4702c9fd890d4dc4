import Dispatch

/// Carries an answer from a task to the thread waiting for it (written once, before the signal).
private final class AsyncAnswer<T>: @unchecked Sendable { var result: Result<T, any Error>? }

/// Runs an async call (a search, a route, a server's run) from synchronous code — the command
/// line's verbs, MapWindow's event loop — and returns its answer, blocking the calling thread
/// until the task ends. For this package's own front ends, not part of the MapKit API.
package func waitForAsync<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let answer = AsyncAnswer<T>(), done = DispatchSemaphore(value: 0)
    Task {
        do { answer.result = .success(try await body()) } catch { answer.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try answer.result!.get()
}
