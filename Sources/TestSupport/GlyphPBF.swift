import MapFormats

/// A MapLibre glyph range (`glyphs { stacks { name, range, glyphs { id, bitmap, width, height,
/// left, top, advance } } }`) decoded with MapFormats' protobuf reader, strictly: tests of the
/// generator and of the server's `/fonts` endpoint both read ranges through it.
public enum GlyphPBF {
    public struct Glyph: Sendable {
        public var bitmap: [UInt8] = []
        public var width = 0, height = 0, left = 0, top = 0, advance = 0
    }

    public struct Stack: Sendable {
        public var name = "", range = ""
        public var glyphs: [Int: Glyph] = [:]
        /// How many font stacks the message held (MapLibre expects exactly one).
        public var stackCount = 0
    }

    /// What a strict reading rejects.
    public enum Problem: Error, Equatable {
        case unexpectedField(message: String, number: Int)
        case duplicateGlyph(Int)
    }

    public static func decode(_ bytes: [UInt8]) throws -> Stack {
        try bytes.withUnsafeBytes { raw in
            var reader = ProtobufReader(raw)
            var stack = Stack()
            while let field = try reader.nextField() {
                guard field.number == 1 else { throw Problem.unexpectedField(message: "glyphs", number: Int(field.number)) }
                stack.stackCount += 1
                var fontstack = try reader.readMessage()
                while let inner = try fontstack.nextField() {
                    switch inner.number {
                    case 1: stack.name = try fontstack.readString()
                    case 2: stack.range = try fontstack.readString()
                    case 3:
                        var message = try fontstack.readMessage()
                        var glyph = Glyph(), id = -1
                        while let g = try message.nextField() {
                            switch g.number {
                            case 1: id = Int(try message.readVarint())
                            case 2: glyph.bitmap = Array(try message.readBytes())
                            case 3: glyph.width = Int(try message.readVarint())
                            case 4: glyph.height = Int(try message.readVarint())
                            case 5: glyph.left = Int(try message.readSInt64())
                            case 6: glyph.top = Int(try message.readSInt64())
                            case 7: glyph.advance = Int(try message.readVarint())
                            default: throw Problem.unexpectedField(message: "glyph", number: Int(g.number))
                            }
                        }
                        guard stack.glyphs[id] == nil else { throw Problem.duplicateGlyph(id) }
                        stack.glyphs[id] = glyph
                    default: throw Problem.unexpectedField(message: "fontstack", number: Int(inner.number))
                    }
                }
            }
            return stack
        }
    }
}
