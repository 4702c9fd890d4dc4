import Foundation

/// Carries an answer from a task to the command waiting for it (written once, before the signal).
private final class AsyncAnswer<T>: @unchecked Sendable { var result: Result<T, any Error>? }

/// Runs an async call from a synchronous command and returns its answer; errors go through
/// `failure`, which turns them into the command's one-line reasons.
func waitForAsync<T: Sendable>(_ body: @escaping @Sendable () async throws -> T,
                               failure: (any Error) -> any Error) throws -> T {
    let answer = AsyncAnswer<T>(), done = DispatchSemaphore(value: 0)
    Task {
        do { answer.result = .success(try await body()) } catch { answer.result = .failure(error) }
        done.signal()
    }
    done.wait()
    switch answer.result! {
    case .success(let value): return value
    case .failure(let error): throw failure(error)
    }
}
