import OpenMapKit

/// Runs an async call from a synchronous command (OpenMapKit's `waitForAsync`) and returns its
/// answer; errors go through `failure`, which turns them into the command's one-line reasons.
func waitForAsync<T: Sendable>(_ body: @escaping @Sendable () async throws -> T,
                               failure: (any Error) -> any Error) throws -> T {
    do { return try waitForAsync(body) } catch { throw failure(error) }
}
