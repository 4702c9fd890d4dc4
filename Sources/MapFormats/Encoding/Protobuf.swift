import Foundation

/// Errors from reading protobuf wire data. `offset` is the byte offset into the buffer being read
/// (callers that read a nested message add the message's own offset when they report it).
public struct ProtobufError: Error, Hashable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// The buffer ended inside a value.
        case truncated
        /// A varint ran past 10 bytes or overflowed 64 bits.
        case varintTooLong
        /// A wire type other than 0, 1, 2 or 5 (groups, 3 and 4, are not supported).
        case invalidWireType(UInt8)
        /// Field number 0, which protobuf reserves.
        case invalidFieldNumber
        /// A length-delimited field longer than what is left of the buffer.
        case lengthOutOfBounds(UInt64)
    }

    public var reason: Reason
    public var offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        switch reason {
        case .truncated: return "protobuf data ends inside a value at byte \(offset)"
        case .varintTooLong: return "protobuf varint longer than 64 bits at byte \(offset)"
        case .invalidWireType(let t): return "protobuf wire type \(t) is not supported at byte \(offset)"
        case .invalidFieldNumber: return "protobuf field number 0 at byte \(offset)"
        case .lengthOutOfBounds(let n): return "protobuf length \(n) runs past the end of the data at byte \(offset)"
        }
    }
}

/// The four protobuf wire types this reader understands.
public enum ProtobufWireType: UInt8, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
}

/// A cursor over protobuf wire data in a byte buffer: reads field keys and values without
/// allocating, so hot decoders (OSM PBF blocks, vector tiles) stay fast.
///
/// The buffer must outlive the reader: it holds an unsafe pointer, which is why readers are made
/// inside `withUnsafeBytes` scopes. Every read checks bounds and throws ``ProtobufError`` with the
/// byte offset; nothing traps on hostile input.
public struct ProtobufReader {
    public let bytes: UnsafeRawBufferPointer
    /// The next byte to read.
    public private(set) var offset: Int
    /// Where this reader stops (a sub-message's end, or the buffer's).
    public let end: Int

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        offset = 0
        end = bytes.count
    }

    init(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        self.bytes = bytes
        offset = start
        self.end = end
    }

    /// Whether every byte has been read.
    @inlinable public var isAtEnd: Bool { offset >= end }

    /// Reads the next field's number and wire type; nil at the end of the message.
    public mutating func nextField() throws(ProtobufError) -> (number: Int, wireType: ProtobufWireType)? {
        guard offset < end else { return nil }
        let start = offset
        let key = try readVarint()
        guard let wireType = ProtobufWireType(rawValue: UInt8(key & 7)) else {
            throw ProtobufError(.invalidWireType(UInt8(key & 7)), at: start)
        }
        let number = key >> 3
        guard number > 0, number <= UInt64(Int32.max) else { throw ProtobufError(.invalidFieldNumber, at: start) }
        return (Int(number), wireType)
    }

    /// Reads a base-128 varint.
    @inline(__always)
    public mutating func readVarint() throws(ProtobufError) -> UInt64 {
        // Fast path: one byte.
        if offset < end {
            let b = bytes[offset]
            if b < 0x80 { offset += 1; return UInt64(b) }
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = offset
        while true {
            guard offset < end else { throw ProtobufError(.truncated, at: start) }
            let b = bytes[offset]
            offset += 1
            if shift == 63 && b > 1 { throw ProtobufError(.varintTooLong, at: start) }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
            if shift > 63 { throw ProtobufError(.varintTooLong, at: start) }
        }
    }

    /// A varint reinterpreted as a signed two's-complement value (protobuf `int64`/`int32`).
    @inline(__always) public mutating func readInt64() throws(ProtobufError) -> Int64 {
        Int64(bitPattern: try readVarint())
    }

    /// A zigzag-encoded varint (protobuf `sint64`/`sint32`).
    @inline(__always) public mutating func readSInt64() throws(ProtobufError) -> Int64 {
        let v = try readVarint()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    public mutating func readFixed32() throws(ProtobufError) -> UInt32 {
        guard end - offset >= 4 else { throw ProtobufError(.truncated, at: offset) }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(bytes[offset + i]) << (8 * UInt32(i)) }
        offset += 4
        return v
    }

    public mutating func readFixed64() throws(ProtobufError) -> UInt64 {
        guard end - offset >= 8 else { throw ProtobufError(.truncated, at: offset) }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return v
    }

    public mutating func readFloat() throws(ProtobufError) -> Float { Float(bitPattern: try readFixed32()) }
    public mutating func readDouble() throws(ProtobufError) -> Double { Double(bitPattern: try readFixed64()) }

    /// The byte range of a length-delimited field's payload (its offsets within ``bytes``), skipped over.
    public mutating func readLengthDelimitedRange() throws(ProtobufError) -> Range<Int> {
        let start = offset
        let length = try readVarint()
        guard length <= UInt64(end - offset) else { throw ProtobufError(.lengthOutOfBounds(length), at: start) }
        let range = offset..<(offset + Int(length))
        offset = range.upperBound
        return range
    }

    /// A reader over a length-delimited field's payload: a nested message or a packed array.
    public mutating func readMessage() throws(ProtobufError) -> ProtobufReader {
        let range = try readLengthDelimitedRange()
        return ProtobufReader(bytes, from: range.lowerBound, to: range.upperBound)
    }

    /// A length-delimited field's payload as raw bytes.
    public mutating func readBytes() throws(ProtobufError) -> UnsafeRawBufferPointer {
        let range = try readLengthDelimitedRange()
        return UnsafeRawBufferPointer(rebasing: bytes[range])
    }

    /// A length-delimited field as a UTF-8 string (invalid sequences become U+FFFD).
    public mutating func readString() throws(ProtobufError) -> String {
        String(decoding: try readBytes(), as: UTF8.self)
    }

    /// Skips a value of the given wire type.
    public mutating func skip(_ wireType: ProtobufWireType) throws(ProtobufError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64:
            guard end - offset >= 8 else { throw ProtobufError(.truncated, at: offset) }
            offset += 8
        case .fixed32:
            guard end - offset >= 4 else { throw ProtobufError(.truncated, at: offset) }
            offset += 4
        case .lengthDelimited: _ = try readLengthDelimitedRange()
        }
    }

    /// Reads a packed repeated varint field, calling `body` for each value.
    @inline(__always)
    public mutating func forEachPackedVarint(_ body: (UInt64) throws(ProtobufError) -> Void) throws(ProtobufError) {
        var packed = try readMessage()
        while !packed.isAtEnd { try body(try packed.readVarint()) }
    }
}

/// Builds protobuf wire data: keys, varints, zigzag, fixed-width values and nested messages.
public struct ProtobufWriter {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    public mutating func writeKey(_ field: Int, _ wireType: ProtobufWireType) {
        writeVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    /// The zigzag encoding of a signed value (protobuf `sint64`).
    @inlinable public static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }

    public mutating func writeVarintField(_ field: Int, _ value: UInt64) {
        writeKey(field, .varint)
        writeVarint(value)
    }

    public mutating func writeSInt64Field(_ field: Int, _ value: Int64) {
        writeVarintField(field, ProtobufWriter.zigzag(value))
    }

    public mutating func writeFixed32Field(_ field: Int, _ value: UInt32) {
        writeKey(field, .fixed32)
        for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(i)))) }
    }

    public mutating func writeFixed64Field(_ field: Int, _ value: UInt64) {
        writeKey(field, .fixed64)
        for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }

    public mutating func writeFloatField(_ field: Int, _ value: Float) { writeFixed32Field(field, value.bitPattern) }
    public mutating func writeDoubleField(_ field: Int, _ value: Double) { writeFixed64Field(field, value.bitPattern) }

    public mutating func writeBytesField<C: Collection>(_ field: Int, _ payload: C) where C.Element == UInt8 {
        writeKey(field, .lengthDelimited)
        writeVarint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    public mutating func writeStringField(_ field: Int, _ value: String) { writeBytesField(field, Array(value.utf8)) }

    /// A nested message built by `body`.
    public mutating func writeMessageField(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        body(&nested)
        writeBytesField(field, nested.bytes)
    }

    /// A packed repeated varint field; nothing is written for an empty sequence.
    public mutating func writePackedVarints<S: Sequence>(_ field: Int, _ values: S) where S.Element == UInt64 {
        var nested = ProtobufWriter()
        for v in values { nested.writeVarint(v) }
        guard !nested.bytes.isEmpty else { return }
        writeBytesField(field, nested.bytes)
    }
}
