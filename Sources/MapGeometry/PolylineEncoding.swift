import Foundation

/// The encoded polyline format (Google's "Encoded Polyline Algorithm Format", as used by OSRM,
/// Valhalla and most directions APIs): a line of coordinates as printable ASCII.
///
/// Each coordinate is written as latitude then longitude. A value is multiplied by 10^precision and
/// rounded half away from zero; the first coordinate is written as is and every later one as the
/// difference from the one before. Each signed difference is zigzag-encoded (shifted left one bit,
/// all bits inverted when negative), cut into 5-bit chunks from the least significant up, each chunk
/// but the last OR'ed with 0x20, and each chunk written as the character `chunk + 63`.
///
/// Precision 5 is Google's and OSRM's default (`polyline`), precision 6 is OSRM's and Valhalla's
/// `polyline6`; any precision from 1 to 10 is accepted. A decoded value is within ½·10^−precision
/// degrees of the value that was encoded.
public enum EncodedPolyline {
    /// The precisions this implementation reads and writes.
    public static let supportedPrecisions: ClosedRange<Int> = 1...10

    /// Encodes `coordinates` as an encoded polyline string.
    ///
    /// - Throws: ``PolylineEncodingError`` when `precision` is outside 1…10 or a coordinate is not
    ///   valid (a NaN, a latitude outside ±90 or a longitude outside ±180: normalise longitudes of
    ///   lines that cross the 180th meridian first, since the decoder rejects them).
    public static func encode(_ coordinates: [CLLocationCoordinate2D], precision: Int = 5)
        throws(PolylineEncodingError) -> String
    {
        guard supportedPrecisions.contains(precision) else { throw .invalidPrecision(precision) }
        let factor = powerOfTen(precision)
        // The largest delta is 360·10^p (under 2^42 for p ≤ 10, so at most 9 chunks); two values per
        // coordinate.
        let maximumChunks = chunksNeeded(UInt64(360) * UInt64(factor))
        for (index, c) in coordinates.enumerated() {
            guard c.latitude >= -90, c.latitude <= 90, c.longitude >= -180, c.longitude <= 180 else {
                throw .invalidCoordinate(index: index, c)
            }
        }
        let capacity = coordinates.count * 2 * maximumChunks
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var out = 0
            var previousLatitude: Int64 = 0, previousLongitude: Int64 = 0
            for c in coordinates {
                // Each coordinate is rounded on its own, so rounding errors do not add up along the line.
                let latitude = Int64((c.latitude * factor).rounded(.toNearestOrAwayFromZero))
                let longitude = Int64((c.longitude * factor).rounded(.toNearestOrAwayFromZero))
                write(latitude - previousLatitude, into: buffer, at: &out)
                write(longitude - previousLongitude, into: buffer, at: &out)
                previousLatitude = latitude
                previousLongitude = longitude
            }
            return out
        }
    }

    /// Decodes an encoded polyline string.
    ///
    /// The input is treated as hostile: every malformed string throws, naming the offset of the
    /// offending character (a UTF-8 offset, which is also the character offset because every
    /// character before it is ASCII). An empty string decodes to no coordinates.
    ///
    /// - Throws: ``PolylineDecodingError`` for a precision outside 1…10, a character outside `?`…`~`
    ///   (63…126), a value cut off at the end, a latitude without its longitude, a value of more chunks
    ///   than any coordinate needs, or a coordinate outside ±90° latitude or ±180° longitude.
    public static func decode(_ string: String, precision: Int = 5)
        throws(PolylineDecodingError) -> [CLLocationCoordinate2D]
    {
        guard supportedPrecisions.contains(precision) else {
            throw PolylineDecodingError(reason: .invalidPrecision(precision), offset: 0)
        }
        var string = string
        // withUTF8 only rethrows untyped errors, so the typed error travels out as a Result.
        return try string.withUTF8 { decodeResult($0, precision: precision) }.get()
    }

    /// Decodes an encoded polyline given as UTF-8 bytes, for callers that hold bytes already (an HTTP
    /// request's query, a file). See ``decode(_:precision:)``.
    public static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>, precision: Int = 5)
        throws(PolylineDecodingError) -> [CLLocationCoordinate2D]
    {
        try decodeResult(bytes, precision: precision).get()
    }

    // MARK: Internals

    static func decodeResult(_ bytes: UnsafeBufferPointer<UInt8>, precision: Int)
        -> Result<[CLLocationCoordinate2D], PolylineDecodingError>
    {
        guard supportedPrecisions.contains(precision) else {
            return .failure(PolylineDecodingError(reason: .invalidPrecision(precision), offset: 0))
        }
        let factor = powerOfTen(precision)
        let latitudeLimit = Int64(90) * Int64(factor)
        let longitudeLimit = Int64(180) * Int64(factor)
        // A longitude delta needs at most this many chunks; anything longer is hostile (and stopping
        // here also keeps every shift well inside 64 bits).
        let chunkLimit = chunksNeeded(UInt64(360) * UInt64(factor))

        // Count the values first (a byte below 95 ends a value) so the result is allocated once.
        var terminators = 0
        for byte in bytes where byte < 95 { terminators &+= 1 }
        var coordinates: [CLLocationCoordinate2D] = []
        coordinates.reserveCapacity(terminators / 2)

        let n = bytes.count
        var i = 0
        var latitude: Int64 = 0, longitude: Int64 = 0
        var valueIndex = 0
        var latitudeOffset = 0
        while i < n {
            let valueStart = i
            var accumulated: UInt64 = 0
            var shift: UInt64 = 0
            var chunks = 0
            while true {
                guard i < n else {
                    return .failure(PolylineDecodingError(reason: .truncatedValue, offset: valueStart))
                }
                let byte = bytes[i]
                guard byte >= 63 && byte <= 126 else {
                    return .failure(PolylineDecodingError(reason: .invalidCharacter(byte), offset: i))
                }
                chunks += 1
                guard chunks <= chunkLimit else {
                    return .failure(PolylineDecodingError(reason: .valueTooLong, offset: i))
                }
                let chunk = UInt64(byte - 63)
                accumulated |= (chunk & 0x1F) << shift
                shift += 5
                i += 1
                if chunk < 0x20 { break }
            }
            // Undo the zigzag: the low bit says whether the bits were inverted.
            let magnitude = Int64(bitPattern: accumulated >> 1)
            let delta = accumulated & 1 == 0 ? magnitude : ~magnitude
            if valueIndex & 1 == 0 {
                let (sum, overflow) = latitude.addingReportingOverflow(delta)
                guard !overflow, sum >= -latitudeLimit, sum <= latitudeLimit else {
                    return .failure(PolylineDecodingError(
                        reason: .latitudeOutOfRange(overflow ? .nan : Double(sum) / factor), offset: valueStart))
                }
                latitude = sum
                latitudeOffset = valueStart
            } else {
                let (sum, overflow) = longitude.addingReportingOverflow(delta)
                guard !overflow, sum >= -longitudeLimit, sum <= longitudeLimit else {
                    return .failure(PolylineDecodingError(
                        reason: .longitudeOutOfRange(overflow ? .nan : Double(sum) / factor), offset: valueStart))
                }
                longitude = sum
                // Dividing (not multiplying by 10^−p) gives the double nearest the decimal value.
                coordinates.append(CLLocationCoordinate2D(latitude: Double(latitude) / factor,
                                                          longitude: Double(longitude) / factor))
            }
            valueIndex += 1
        }
        if valueIndex & 1 == 1 {
            return .failure(PolylineDecodingError(reason: .missingLongitude, offset: latitudeOffset))
        }
        return .success(coordinates)
    }

    /// 10^p as a double; exact for the supported precisions.
    @inline(__always)
    static func powerOfTen(_ p: Int) -> Double {
        var f = 1.0
        for _ in 0..<p { f *= 10 }
        return f
    }

    /// How many 5-bit chunks the zigzag form of a delta of magnitude up to `magnitude` needs.
    static func chunksNeeded(_ magnitude: UInt64) -> Int {
        var v = magnitude << 1
        var chunks = 1
        while v >= 0x20 {
            v >>= 5
            chunks += 1
        }
        return chunks
    }

    @inline(__always)
    static func write(_ value: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>, at out: inout Int) {
        var v = UInt64(bitPattern: value < 0 ? ~(value << 1) : value << 1)
        while v >= 0x20 {
            buffer[out] = UInt8(truncatingIfNeeded: (0x20 | (v & 0x1F)) + 63)
            out += 1
            v >>= 5
        }
        buffer[out] = UInt8(truncatingIfNeeded: v + 63)
        out += 1
    }
}

/// Why an encoded polyline could not be written.
public enum PolylineEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The precision is outside 1…10.
    case invalidPrecision(Int)
    /// The coordinate at `index` is NaN or outside ±90° latitude / ±180° longitude.
    case invalidCoordinate(index: Int, CLLocationCoordinate2D)

    public var description: String {
        switch self {
        case .invalidPrecision(let p):
            return "encoded polyline precision \(p) is outside 1…10"
        case .invalidCoordinate(let index, let c):
            return "coordinate \(index) (\(c.latitude), \(c.longitude)) cannot be encoded: latitude must be "
                + "within ±90 and longitude within ±180"
        }
    }
}

/// Why an encoded polyline could not be read, and where.
public struct PolylineDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Hashable, Sendable {
        /// The precision asked for is outside 1…10.
        case invalidPrecision(Int)
        /// A byte outside `?`…`~` (63…126); non-ASCII text shows its first UTF-8 byte.
        case invalidCharacter(UInt8)
        /// The string ends in the middle of a value (its last character has the continuation bit).
        case truncatedValue
        /// The string ends after a latitude, with no longitude.
        case missingLongitude
        /// A value has more chunks than any valid coordinate needs at this precision.
        case valueTooLong
        /// The running latitude left ±90° (the value reached, NaN when it overflowed).
        case latitudeOutOfRange(Double)
        /// The running longitude left ±180° (the value reached, NaN when it overflowed).
        case longitudeOutOfRange(Double)
    }

    public var reason: Reason
    /// The offset of the offending character: for a bad character or an over-long value the
    /// character itself, otherwise the first character of the value concerned.
    public var offset: Int

    public init(reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        switch reason {
        case .invalidPrecision(let p):
            return "encoded polyline precision \(p) is outside 1…10"
        case .invalidCharacter(let byte):
            let shown = byte >= 32 && byte < 127 ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
            return "encoded polyline has an invalid character \(shown) at offset \(offset) (only ? to ~ are allowed)"
        case .truncatedValue:
            return "encoded polyline ends inside the value that starts at offset \(offset)"
        case .missingLongitude:
            return "encoded polyline ends after the latitude at offset \(offset), without a longitude"
        case .valueTooLong:
            return "encoded polyline value is too long at offset \(offset)"
        case .latitudeOutOfRange(let v):
            return "encoded polyline latitude \(v) at offset \(offset) is outside ±90"
        case .longitudeOutOfRange(let v):
            return "encoded polyline longitude \(v) at offset \(offset) is outside ±180"
        }
    }
}
