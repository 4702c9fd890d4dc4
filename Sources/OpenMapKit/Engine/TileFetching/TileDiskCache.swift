import Foundation

/// The fetcher's responses on disk, one file per URL, with a size cap.
///
/// Each file holds a small header (the URL, validators, expiry, the body's length and checksum)
/// then the body. A file is written whole to a temporary name and renamed into place, so a
/// reader sees the old entry or the new one, never half of one; a file that does not check out
/// anyway (truncated, corrupt, another URL's, an unknown format) is ignored and removed, as if
/// nothing were cached. The least recently used files (by modification time, which a read
/// updates) are removed when the files together pass the cap.
final class TileDiskCache: @unchecked Sendable {
    struct Entry: Sendable {
        var url: String
        var etag: String?
        var lastModified: String?
        /// Seconds since 1970 after which the entry is stale.
        var expires: Double
        var body: Data

        var isFresh: Bool { Date().timeIntervalSince1970 < expires }
    }

    private struct Header: Codable {
        var url: String
        var etag: String?
        var lastModified: String?
        var expires: Double
        var length: Int
        var checksum: UInt64
    }

    let directory: URL
    let capacity: Int
    private let lock = NSLock()
    /// The files' total size, counted on first use and kept up to date by this process.
    private var totalBytes: Int?
    private static let magic = Array("OMKTILE1".utf8)

    init(directory: URL, capacity: Int) {
        self.directory = directory
        self.capacity = max(0, capacity)
    }

    /// The file of a URL: a hash of it (the URL itself is checked inside the file).
    func file(for url: String) -> URL {
        directory.appendingPathComponent(String(format: "%016llx", Self.fnv1a(Array(url.utf8))) + ".tile")
    }

    /// The entry of `url`, nil when there is none or its file does not check out.
    func read(_ url: String) -> Entry? {
        let file = file(for: url)
        guard let data = try? Data(contentsOf: file) else { return nil }
        guard let entry = Self.decode(data), entry.url == url else {
            try? FileManager.default.removeItem(at: file)
            return nil
        }
        // Reading makes it recently used.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
        return entry
    }

    /// Stores `entry`: written aside, then renamed over the old file; then the least recently
    /// used files go while the cache is over its cap.
    func write(_ entry: Entry) {
        let header = Header(url: entry.url, etag: entry.etag, lastModified: entry.lastModified, expires: entry.expires,
                            length: entry.body.count, checksum: Self.fnv1a([UInt8](entry.body)))
        guard let json = try? JSONEncoder().encode(header) else { return }
        var data = Data(Self.magic)
        withUnsafeBytes(of: UInt32(json.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(json)
        data.append(entry.body)
        guard data.count <= capacity else { return }
        let target = file(for: entry.url)
        let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: temporary)
            let previous = (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int) ?? 0
            guard rename(temporary.path, target.path) == 0 else {
                try? FileManager.default.removeItem(at: temporary)
                return
            }
            lock.withLock { if totalBytes != nil { totalBytes! += data.count - previous } }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        evictIfNeeded()
    }

    /// Forgets `url`.
    func remove(_ url: String) {
        let file = file(for: url)
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        if (try? FileManager.default.removeItem(at: file)) != nil { lock.withLock { if totalBytes != nil { totalBytes! -= size } } }
    }

    /// Removes the least recently used files until the rest fit in nine tenths of the cap (so
    /// that the next writes do not each trigger a pass). Leftover temporary files of writes that
    /// were interrupted go too.
    private func evictIfNeeded() {
        let known = lock.withLock { totalBytes }
        if let known, known <= capacity { return }
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey]
        guard let names = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys) else { return }
        var files: [(url: URL, date: Date, size: Int)] = []
        for url in names {
            guard let values = try? url.resourceValues(forKeys: Set(keys)) else { continue }
            let date = values.contentModificationDate ?? .distantPast, size = values.fileSize ?? 0
            if url.lastPathComponent.hasPrefix(".tmp-") {
                // Another writer's file in progress is young; an interrupted one is left behind.
                if Date().timeIntervalSince(date) > 60 { try? FileManager.default.removeItem(at: url) }
                continue
            }
            files.append((url, date, size))
        }
        var total = files.reduce(0) { $0 + $1.size }
        if total > capacity {
            for file in files.sorted(by: { $0.date < $1.date }) where total > capacity * 9 / 10 {
                if (try? FileManager.default.removeItem(at: file.url)) != nil { total -= file.size }
            }
        }
        lock.withLock { totalBytes = total }
    }

    private static func decode(_ data: Data) -> Entry? {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count + 4, Array(bytes[0..<magic.count]) == magic else { return nil }
        var length = 0
        for i in 0..<4 { length |= Int(bytes[magic.count + i]) << (8 * i) }
        let headerStart = magic.count + 4
        guard length > 0, length <= bytes.count - headerStart,
              let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[headerStart..<headerStart + length])) else { return nil }
        let body = Array(bytes[(headerStart + length)...])
        guard header.length == body.count, fnv1a(body) == header.checksum, header.expires.isFinite else { return nil }
        return Entry(url: header.url, etag: header.etag, lastModified: header.lastModified, expires: header.expires, body: Data(body))
    }

    /// 64-bit FNV-1a: file names and checksums (not a defence against an attacker who can write
    /// the cache folder, only against torn and damaged files).
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
