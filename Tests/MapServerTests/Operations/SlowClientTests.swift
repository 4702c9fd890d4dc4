import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import MapServer
import NIOCore
import XCTest

/// Clients that hold connections without finishing their requests: a head sent a line at a time
/// (slowloris), a keep-alive connection left silent, a head too large to be one. The server cuts
/// them off (`RequestHeadDeadline`, the decoder's head limit) and keeps answering the others.
final class SlowClientTests: XCTestCase {
    /// A plain TCP connection to the server on loopback.
    final class Connection {
        let socket: Int32

        init(port: Int) throws {
            // Short reads: the tests poll for what arrived and whether the server closed.
            socket = try loopbackSocket(port: port, receiveTimeout: 0.05)
        }

        deinit { close(socket) }

        /// Sends `text`; false when the server has closed the connection.
        @discardableResult
        func send(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
        }

        /// What arrives within `seconds`, and whether the server closed the connection.
        func receive(for seconds: Double, untilContains marker: String? = nil) -> (text: String, closed: Bool) {
            var received = [UInt8](), buffer = [UInt8](repeating: 0, count: 65536)
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count == 0 { return (String(decoding: received, as: UTF8.self), true) }
                if count > 0 {
                    received += buffer[0..<count]
                    if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
                } else if errno != EAGAIN && errno != EWOULDBLOCK {
                    return (String(decoding: received, as: UTF8.self), true)
                }
            }
            return (String(decoding: received, as: UTF8.self), false)
        }
    }

    private func serve(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let server = try TestServer.make {
            $0.port = 0
            $0.requestHeadTimeout = .milliseconds(600)
        }
        try await TestServer.withRunningServer(server, body)
    }

    /// A head sent a line every 200 ms never completes: the connection closes 600 ms after it
    /// opened, unanswered, though bytes kept coming. Meanwhile another client is answered.
    func testAHeadSentALineAtATimeIsCutOff() async throws {
        try await serve { port in
            let slow = try Connection(port: port)
            let opened = Date()
            slow.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
            var closed = false, answer = ""
            while !closed && Date().timeIntervalSince(opened) < 5 {
                let (text, isClosed) = slow.receive(for: 0.2)
                answer += text
                closed = isClosed || !slow.send("X-Slow: \(Int(Date().timeIntervalSince(opened) * 1000))\r\n")
            }
            let lasted = Date().timeIntervalSince(opened)
            XCTAssertTrue(closed, "the slow client still holds its connection after \(lasted) s")
            XCTAssertGreaterThan(lasted, 0.5)
            XCTAssertLessThan(lasted, 2.5)
            XCTAssertFalse(answer.contains("200 OK"), answer)

            let other = try Connection(port: port)
            other.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            XCTAssertTrue(other.receive(for: 5, untilContains: "\r\n\r\n").text.hasPrefix("HTTP/1.1 200"))
        }
    }

    /// A keep-alive connection is answered request after request; left silent, it closes.
    func testAKeepAliveConnectionLeftSilentCloses() async throws {
        try await serve { port in
            let client = try Connection(port: port)
            for _ in 0..<3 {
                XCTAssertTrue(client.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"))
                let (text, closed) = client.receive(for: 5, untilContains: "\r\n\r\n")
                XCTAssertTrue(text.hasPrefix("HTTP/1.1 200"), text)
                XCTAssertFalse(closed)
                try await Task.sleep(nanoseconds: 300_000_000)  // within the deadline: the next request is still welcome
            }
            let started = Date()
            let (_, closed) = client.receive(for: 3)
            XCTAssertTrue(closed, "a silent keep-alive connection stays open")
            XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        }
    }

    /// A head far over the decoder's limit is refused, not buffered: the connection closes
    /// without a 200, and the server goes on answering.
    func testAHugeHeadIsRefused() async throws {
        try await serve { port in
            let client = try Connection(port: port)
            client.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
            let line = "X-Filler: " + String(repeating: "a", count: 8000) + "\r\n"
            var sent = 0
            while sent < 200, client.send(line) { sent += 1 }
            client.send("\r\n")
            let (text, closed) = client.receive(for: 3)
            XCTAssertFalse(text.contains("200 OK"), text.prefix(200).description)
            XCTAssertTrue(closed || text.hasPrefix("HTTP/1.1 4"), "a 1.6 MB head was taken: \(text.prefix(200))")
            let other = try Connection(port: port)
            other.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            XCTAssertTrue(other.receive(for: 5, untilContains: "\r\n\r\n").text.hasPrefix("HTTP/1.1 200"))
        }
    }
}
