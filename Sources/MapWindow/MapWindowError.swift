import Dispatch

/// Why a ``MapWindow`` could not be opened or could not draw: no display, an empty size, or an
/// SDL failure. Its description is the reason, as one line for people.
public struct MapWindowError: Error, CustomStringConvertible, Sendable {
    /// The reason.
    public var description: String

    init(_ description: String) { self.description = description }
}

/// Carries an answer from a task to the window waiting for it (written once, before the signal).
private final class AsyncAnswer<T>: @unchecked Sendable { var result: Result<T, any Error>? }

/// Runs an async call (a search, a route) from the window's loop and returns its answer.
func waitForAsync<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let answer = AsyncAnswer<T>(), done = DispatchSemaphore(value: 0)
    Task {
        do { answer.result = .success(try await body()) } catch { answer.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try answer.result!.get()
}
