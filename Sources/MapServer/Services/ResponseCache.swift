import Foundation
import NIOCore

/// A response body kept for reuse: the bytes, their media type and an entity tag.
public struct CachedResponse: Sendable {
    /// The bytes as NIO sends them: a hit shares this buffer with the response instead of
    /// copying the body once per request.
    public let buffer: ByteBuffer
    public let contentType: String
    public let etag: String
    /// Extra headers to send with it (`Content-Encoding: gzip` for stored vector tiles).
    public let contentEncoding: String?

    public init(body: [UInt8], contentType: String, etag: String, contentEncoding: String? = nil) {
        self.buffer = ByteBuffer(bytes: body)
        self.contentType = contentType
        self.etag = etag
        self.contentEncoding = contentEncoding
    }

    /// The body as bytes (a copy).
    public var body: [UInt8] { Array(buffer.readableBytesView) }

    /// Whether the body is empty (a vector tile that is not there).
    public var isEmpty: Bool { buffer.readableBytes == 0 }

    /// What an entry costs against the cache's budget: its bytes plus bookkeeping.
    var cost: Int { buffer.readableBytes + contentType.utf8.count + etag.utf8.count + 96 }
}

/// A least-recently-used cache of rendered tiles and snapshots with a budget in bytes, so memory
/// stays flat however many distinct images are asked for.
///
/// Keys say everything that makes a response differ (region generation, style, tile, scale), so
/// a hit is always the right answer. Thread-safe; every operation is O(1).
public final class ResponseCache: @unchecked Sendable {
    private final class Node {
        let key: String
        var value: CachedResponse
        var newer: Node?
        weak var older: Node?
        init(key: String, value: CachedResponse) { (self.key, self.value) = (key, value) }
    }

    /// The most bytes the cache holds; an entry larger than a quarter of it is not kept.
    public let budget: Int
    private let lock = NSLock()
    private var nodes: [String: Node] = [:]
    // `oldest` owns the chain through `newer`; `newest` is the other end.
    private var oldest: Node?
    private weak var newest: Node?
    private var bytes = 0
    private var hitCount = 0
    private var missCount = 0

    public init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// Numbers for `/metrics`.
    public var statistics: (entries: Int, bytes: Int, hits: Int, misses: Int) {
        lock.withLock { (nodes.count, bytes, hitCount, missCount) }
    }

    public func value(for key: String) -> CachedResponse? {
        lock.withLock {
            guard let node = nodes[key] else {
                missCount += 1
                return nil
            }
            hitCount += 1
            moveToNewest(node)
            return node.value
        }
    }

    public func insert(_ value: CachedResponse, for key: String) {
        guard value.cost <= budget / 4 else { return }
        lock.withLock {
            if let node = nodes[key] {
                bytes += value.cost - node.value.cost
                node.value = value
                moveToNewest(node)
            } else {
                let node = Node(key: key, value: value)
                nodes[key] = node
                bytes += value.cost
                append(node)
            }
            while bytes > budget, let victim = oldest {
                unlink(victim)
                nodes[victim.key] = nil
                bytes -= victim.value.cost
            }
        }
    }

    /// Drops every entry (after a region swap, say).
    public func removeAll() {
        lock.withLock {
            // Unlink iteratively: releasing a long chain recursively could overflow the stack.
            while let node = oldest { unlink(node) }
            nodes.removeAll()
            bytes = 0
        }
    }

    private func append(_ node: Node) {
        if let newest {
            newest.newer = node
            node.older = newest
        } else {
            oldest = node
        }
        newest = node
    }

    private func unlink(_ node: Node) {
        let older = node.older, newer = node.newer
        if let older { older.newer = newer } else { oldest = newer }
        if let newer { newer.older = older } else { newest = older }
        node.newer = nil
        node.older = nil
    }

    private func moveToNewest(_ node: Node) {
        guard newest !== node else { return }
        unlink(node)
        append(node)
    }
}
