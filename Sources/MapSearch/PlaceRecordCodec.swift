import Foundation
import MapGeometry

/// The `places.record` column: a ``PlaceRecord`` in a compact binary form.
///
/// JSON through Foundation's coders was a third of the place index's build time (every record is
/// encoded when added, then decoded and encoded again when its address is completed) and most of
/// the time a query spends turning its few results into records. This form is a fixed sequence
/// of fields, so it needs no keys and no parser: strings are a varint length and UTF-8 bytes,
/// numbers are little-endian IEEE doubles, optionals a presence byte. The first byte is the
/// format version, so a later change can still read older files or refuse them clearly.
enum PlaceRecordCodec {
    static let version: UInt8 = 1

    static func encode(_ record: PlaceRecord) -> Data {
        var w = Writer()
        w.bytes.reserveCapacity(128)
        w.bytes.append(version)
        w.string(record.id)
        w.varint(UInt64(record.alternateIDs.count))
        for id in record.alternateIDs { w.string(id) }
        w.string(record.kind.rawValue)
        w.optional(record.name)
        w.varint(UInt64(record.names.count))
        for key in record.names.keys.sorted() {
            w.string(key)
            w.string(record.names[key]!)
        }
        w.double(record.coordinate.latitude)
        w.double(record.coordinate.longitude)
        if let bounds = record.bounds {
            w.bytes.append(1)
            w.double(bounds.origin.x); w.double(bounds.origin.y); w.double(bounds.size.width); w.double(bounds.size.height)
        } else {
            w.bytes.append(0)
        }
        w.optional(record.category)
        w.optional(record.osmClass)
        let a = record.address
        for field in [a.houseNumber, a.street, a.postalCode, a.subLocality, a.locality, a.subAdministrativeArea,
                      a.administrativeArea, a.country, a.countryCode] {
            w.optional(field)
        }
        w.optional(record.phone)
        w.optional(record.website)
        w.optional(record.timeZone)
        w.double(record.importance)
        return Data(w.bytes)
    }

    static func decode(_ data: Data) throws(PlaceIndexError) -> PlaceRecord {
        let record: PlaceRecord? = data.withUnsafeBytes { raw in
            var r = Reader(bytes: raw)
            guard r.byte() == version, let id = r.string(), let altCount = r.count() else { return nil }
            var alternates: [String] = []
            for _ in 0..<altCount {
                guard let alt = r.string() else { return nil }
                alternates.append(alt)
            }
            guard let kindRaw = r.string(), let kind = PlaceKind(rawValue: kindRaw), let name = r.optional(),
                  let nameCount = r.count() else { return nil }
            var names: [String: String] = [:]
            for _ in 0..<nameCount {
                guard let key = r.string(), let value = r.string() else { return nil }
                names[key] = value
            }
            guard let latitude = r.double(), let longitude = r.double(), let hasBounds = r.byte() else { return nil }
            var bounds: MKMapRect? = nil
            if hasBounds == 1 {
                guard let x = r.double(), let y = r.double(), let width = r.double(), let height = r.double() else { return nil }
                bounds = MKMapRect(x: x, y: y, width: width, height: height)
            }
            guard let category = r.optional(), let osmClass = r.optional() else { return nil }
            var fields: [String?] = []
            for _ in 0..<9 {
                guard let field = r.optional() else { return nil }
                fields.append(field)
            }
            guard let phone = r.optional(), let website = r.optional(), let timeZone = r.optional(),
                  let importance = r.double(), r.isAtEnd else { return nil }
            let address = PlaceAddress(houseNumber: fields[0], street: fields[1], postalCode: fields[2], subLocality: fields[3],
                                       locality: fields[4], subAdministrativeArea: fields[5], administrativeArea: fields[6],
                                       country: fields[7], countryCode: fields[8])
            return PlaceRecord(id: id, alternateIDs: alternates, kind: kind, name: name, names: names,
                               coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), bounds: bounds,
                               category: category, osmClass: osmClass, address: address, phone: phone, website: website,
                               timeZone: timeZone, importance: importance)
        }
        guard let record else { throw .corrupt("a place record of \(data.count) bytes does not decode") }
        return record
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func varint(_ value: UInt64) {
            var v = value
            while v >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
                v >>= 7
            }
            bytes.append(UInt8(v))
        }

        mutating func string(_ s: String) {
            var s = s
            s.withUTF8 { utf8 in
                varint(UInt64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        mutating func optional(_ s: String?) {
            if let s {
                bytes.append(1)
                string(s)
            } else {
                bytes.append(0)
            }
        }

        mutating func double(_ d: Double) {
            var bits = d.bitPattern.littleEndian
            withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
        }
    }

    /// Bounds-checked: a truncated or garbled record reads as nil, never out of range.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func varint() -> UInt64? {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while shift < 64 {
                guard let b = byte() else { return nil }
                result |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return result }
                shift += 7
            }
            return nil
        }

        /// A count no larger than the bytes left (each element takes at least one byte).
        mutating func count() -> Int? {
            guard let n = varint(), n <= UInt64(bytes.count - offset) else { return nil }
            return Int(n)
        }

        mutating func string() -> String? {
            guard let n = count() else { return nil }
            defer { offset += n }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + n)]), as: UTF8.self)
        }

        /// `.some(nil)` for an absent value, nil for malformed data.
        mutating func optional() -> String?? {
            switch byte() {
            case 0: return .some(nil)
            case 1: return string().map { .some($0) }
            default: return nil
            }
        }

        mutating func double() -> Double? {
            guard bytes.count - offset >= 8 else { return nil }
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
            offset += 8
            return Double(bitPattern: bits)
        }
    }
}
