import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// `openmapkit serve` started on a free port with `arguments`, and what it says on standard error.
final class ServedBundle: @unchecked Sendable {
    let process = Process()
    let said = LockedText()
    private let errors = Pipe()
    let base: URL

    init(binary: URL, arguments: [String]) async throws {
        process.executableURL = binary
        process.arguments = ["serve"] + arguments + ["--port", "0", "--log", "none"]
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Everything the server says, read as it comes.
        let said = self.said
        errors.fileHandleForReading.readabilityHandler = { handle in said.append(String(decoding: handle.availableData, as: UTF8.self)) }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, said.text.range(of: #"http://127\.0\.0\.1:\d+/"#, options: .regularExpression) == nil {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        guard let range = said.text.range(of: #"http://127\.0\.0\.1:\d+/"#, options: .regularExpression),
              let base = URL(string: String(said.text[range])) else {
            if process.isRunning { process.terminate() }
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the server never said where it serves: \(said.text)"])
        }
        self.base = base
    }

    func get(_ path: String) async throws -> (status: Int, body: Data, etag: String?) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: path, relativeTo: base)!)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, data, http?.value(forHTTPHeaderField: "ETag"))
    }

    /// The names `/v1/search` answers for `name`, best first.
    func search(_ name: String) async throws -> [String] {
        let query = name.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!
        let body = try await get("/v1/search?q=\(query)").body
        let results = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["results"] as? [[String: Any]] ?? []
        return results.compactMap { $0["name"] as? String }
    }

    /// SIGTERM, then waits up to 20 s; whether the server stopped.
    func terminate() async -> Bool {
        kill(process.processIdentifier, SIGTERM)
        let stop = Date().addingTimeInterval(20)
        while process.isRunning, Date() < stop { try? await Task.sleep(nanoseconds: 50_000_000) }
        errors.fileHandleForReading.readabilityHandler = nil
        return !process.isRunning
    }

    func stop() {
        if process.isRunning { process.terminate() }
        errors.fileHandleForReading.readabilityHandler = nil
    }
}

/// Text appended from a pipe's handler thread and read from the test.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    func append(_ text: String) { lock.withLock { value += text } }
    var text: String { lock.withLock { value } }
}
