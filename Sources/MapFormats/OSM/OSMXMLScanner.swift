import Foundation

// The XML scanner shared by the OSM XML reader (OSMXML.swift) and the osmChange reader (OSMChange.swift),
// and the element readers both formats share: `<node>`, `<way>`, `<relation>` with their `<tag>`, `<nd>`
// and `<member>` children. Both formats are the same sliver of XML around the same elements, so one
// scanner keeps their well-formedness rules, entity handling and error positions identical; each reader
// adds only its document structure (OSMXML.swift: `<osm>`; OSMChange.swift: `<osmChange>` and its action
// blocks) as an extension.

/// One start tag: its name and attributes as byte ranges into the document, values still escaped.
struct XMLStartTag {
    var name: Range<Int>
    var attributes: [(name: Range<Int>, value: Range<Int>, offset: Int)]
    var selfClosing: Bool
    var offset: Int
}

enum XMLEvent {
    case start(XMLStartTag)
    case end(name: Range<Int>, offset: Int)
    case endOfInput
}

/// A pull scanner over an XML document in memory: start and end tags as byte ranges, attribute values
/// decoded on request, errors with line, column and byte offset.
struct OSMXMLScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Open elements' names, to check that end tags match.
    var stack: [Range<Int>] = []
    /// Reused for each start tag, so attribute scanning allocates once.
    var attributeScratch: [(name: Range<Int>, value: Range<Int>, offset: Int)] = []
    /// Whether an element's unknown children are an error (osmChange, whose writers emit only `<tag>`,
    /// `<nd>` and `<member>`, so anything else there is a mistake worth naming) rather than skipped (OSM
    /// XML, where editors and APIs add their own children).
    var rejectsUnknownChildren = false

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: Elements

    mutating func readNode(_ tag: XMLStartTag) throws(OSMXMLError) -> OSMNode {
        let id = try integer(tag, "id")
        let lat = try degrees(tag, "lat", limit: 90)
        let lon = try degrees(tag, "lon", limit: 180)
        var node = OSMNode(id: id, location: OSMLocation(latitudeE7: lat, longitudeE7: lon))
        node.tags = try readNodeChildren(tag)
        return node
    }

    /// A node's `<tag>` children, up to and including its end tag.
    mutating func readNodeChildren(_ tag: XMLStartTag) throws(OSMXMLError) -> OSMTags {
        var tags: OSMTags = []
        if !tag.selfClosing {
            while case .start(let child) = try nextChild(of: tag) {
                if equals(child.name, "tag") {
                    tags.append(try readTag(child))
                } else {
                    try unknownChild(child, of: tag)
                }
                try skipChildren(child)
            }
        }
        return tags
    }

    /// Throws for a child element the format does not define there when ``rejectsUnknownChildren`` is set.
    func unknownChild(_ child: XMLStartTag, of parent: XMLStartTag) throws(OSMXMLError) {
        guard rejectsUnknownChildren else { return }
        throw failure(.unexpectedElement, at: child.offset,
                      "<\(string(child.name))> is not allowed inside <\(string(parent.name))>")
    }

    mutating func readWay(_ tag: XMLStartTag) throws(OSMXMLError) -> OSMWay {
        var way = OSMWay(id: try integer(tag, "id"), nodeRefs: [])
        if !tag.selfClosing {
            while case .start(let child) = try nextChild(of: tag) {
                if equals(child.name, "nd") {
                    way.nodeRefs.append(try integer(child, "ref"))
                } else if equals(child.name, "tag") {
                    way.tags.append(try readTag(child))
                } else {
                    try unknownChild(child, of: tag)
                }
                try skipChildren(child)
            }
        }
        return way
    }

    mutating func readRelation(_ tag: XMLStartTag) throws(OSMXMLError) -> OSMRelation {
        var relation = OSMRelation(id: try integer(tag, "id"), members: [])
        if !tag.selfClosing {
            while case .start(let child) = try nextChild(of: tag) {
                if equals(child.name, "member") {
                    guard let typeAttribute = attribute(child, "type") else {
                        throw failure(.missingAttribute, at: child.offset, "<member> has no type attribute")
                    }
                    let typeName = try unescaped(typeAttribute.value, at: typeAttribute.offset)
                    let type: OSMEntityType
                    switch typeName {
                    case "node": type = .node
                    case "way": type = .way
                    case "relation": type = .relation
                    default:
                        throw failure(.invalidAttribute, at: typeAttribute.offset,
                                      "<member> type \"\(typeName)\" is not node, way or relation")
                    }
                    let ref = try integer(child, "ref")
                    let role = try attribute(child, "role").map { (a) throws(OSMXMLError) -> String in
                        try unescaped(a.value, at: a.offset)
                    } ?? ""
                    relation.members.append(.init(type: type, ref: ref, role: role))
                } else if equals(child.name, "tag") {
                    relation.tags.append(try readTag(child))
                } else {
                    try unknownChild(child, of: tag)
                }
                try skipChildren(child)
            }
        }
        return relation
    }

    func readTag(_ tag: XMLStartTag) throws(OSMXMLError) -> (key: String, value: String) {
        guard let k = attribute(tag, "k") else {
            throw failure(.missingAttribute, at: tag.offset, "<tag> has no k attribute")
        }
        guard let v = attribute(tag, "v") else {
            throw failure(.missingAttribute, at: tag.offset, "<tag> has no v attribute")
        }
        return (try unescaped(k.value, at: k.offset), try unescaped(v.value, at: v.offset))
    }

    /// The next child start tag of `parent`, or `.endOfInput` once `parent`'s end tag is consumed.
    mutating func nextChild(of parent: XMLStartTag) throws(OSMXMLError) -> XMLEvent {
        switch try nextEvent() {
        case .start(let tag): return .start(tag)
        case .end: return .endOfInput
        case .endOfInput:
            throw failure(.malformedXML, at: index, "the document ends inside <\(string(parent.name))>")
        }
    }

    /// Consumes everything up to and including `tag`'s end tag; nesting depth is the explicit stack.
    mutating func skipChildren(_ tag: XMLStartTag) throws(OSMXMLError) {
        if tag.selfClosing { return }
        let depth = stack.count
        while stack.count >= depth {
            if case .endOfInput = try nextEvent() {
                throw failure(.malformedXML, at: index, "the document ends inside <\(string(tag.name))>")
            }
        }
    }

    // MARK: Attributes

    func attribute(_ tag: XMLStartTag, _ name: StaticString) -> (name: Range<Int>, value: Range<Int>, offset: Int)? {
        for a in tag.attributes where equals(a.name, name) { return a }
        return nil
    }

    func integer(_ tag: XMLStartTag, _ name: StaticString) throws(OSMXMLError) -> Int64 {
        guard let a = attribute(tag, name) else {
            throw failure(.missingAttribute, at: tag.offset, "<\(string(tag.name))> has no \(name) attribute")
        }
        var i = a.value.lowerBound
        let end = a.value.upperBound
        var negative = false
        if i < end, bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var value: Int64 = 0
        var valid = i < end
        while i < end {
            let digit = Int64(bytes[i]) - 48
            guard digit >= 0, digit <= 9 else { valid = false; break }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(digit)
            guard !o1, !o2 else { valid = false; break }
            value = s
            i += 1
        }
        guard valid else {
            throw failure(.invalidAttribute, at: a.offset,
                          "<\(string(tag.name))> \(name)=\"\(string(a.value))\" is not a 64-bit integer")
        }
        return negative ? -value : value
    }

    /// A decimal degree attribute as 1e-7 fixed point, rounded to nearest; rejects |value| > limit.
    func degrees(_ tag: XMLStartTag, _ name: StaticString, limit: Double) throws(OSMXMLError) -> Int32 {
        guard let a = attribute(tag, name) else {
            throw failure(.missingAttribute, at: tag.offset, "<\(string(tag.name))> has no \(name) attribute")
        }
        let text = string(a.value)
        // Double(String) accepts "inf", "nan" and hex floats; the format only allows plain decimals.
        let plain = a.value.allSatisfy { i in
            let b = bytes[i]
            return (b >= 48 && b <= 57) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
                || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
        }
        guard plain, let value = Double(text), value.isFinite else {
            throw failure(.invalidAttribute, at: a.offset, "<\(string(tag.name))> \(name)=\"\(text)\" is not a number")
        }
        guard abs(value) <= limit else {
            throw failure(.invalidAttribute, at: a.offset,
                          "<\(string(tag.name))> \(name)=\"\(text)\" is outside ±\(Int(limit)) degrees")
        }
        return Int32((value * 1e7).rounded())
    }

    /// An attribute value with entity and character references replaced.
    func unescaped(_ range: Range<Int>, at offset: Int) throws(OSMXMLError) -> String {
        var hasEntity = false
        for i in range where bytes[i] == UInt8(ascii: "&") {
            hasEntity = true
            break
        }
        if !hasEntity { return string(range) }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let b = bytes[i]
            guard b == UInt8(ascii: "&") else {
                out.append(b)
                i += 1
                continue
            }
            var j = i + 1
            while j < range.upperBound, bytes[j] != UInt8(ascii: ";"), j - i < 12 { j += 1 }
            guard j < range.upperBound, bytes[j] == UInt8(ascii: ";") else {
                throw failure(.malformedXML, at: i, "an unterminated entity reference in an attribute value")
            }
            let name = string(i + 1..<j)
            switch name {
            case "amp": out.append(UInt8(ascii: "&"))
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                var scalarValue: UInt32?
                if name.hasPrefix("#x") {
                    scalarValue = UInt32(name.dropFirst(2), radix: 16)
                } else if name.hasPrefix("#") {
                    scalarValue = UInt32(name.dropFirst(1), radix: 10)
                }
                guard let v = scalarValue, v != 0, let scalar = Unicode.Scalar(v) else {
                    throw failure(.malformedXML, at: i, "unknown entity reference &\(name);")
                }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            i = j + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Events

    /// The next start or end tag, skipping text, comments, processing instructions, CDATA and DOCTYPE.
    mutating func nextEvent() throws(OSMXMLError) -> XMLEvent {
        while true {
            // Text between tags carries nothing in OSM XML; skip to the next '<'.
            while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
                if bytes[index] == UInt8(ascii: ">"), stack.isEmpty {
                    throw failure(.malformedXML, at: index, "a stray '>' outside any element")
                }
                index += 1
            }
            guard index < bytes.count else {
                if let open = stack.last {
                    throw failure(.malformedXML, at: index, "the document ends inside <\(string(open))>")
                }
                return .endOfInput
            }
            let start = index
            guard index + 1 < bytes.count else {
                throw failure(.malformedXML, at: start, "the document ends after '<'")
            }
            switch bytes[index + 1] {
            case UInt8(ascii: "?"):
                try skip(past: "?>", from: start, what: "processing instruction")
            case UInt8(ascii: "!"):
                if matches("<!--", at: start) {
                    try skip(past: "-->", from: start, what: "comment")
                } else if matches("<![CDATA[", at: start) {
                    try skip(past: "]]>", from: start, what: "CDATA section")
                } else {
                    try skipDeclaration(from: start)
                }
            case UInt8(ascii: "/"):
                index += 2
                let name = try scanName()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
                    throw failure(.malformedXML, at: index, "expected '>' to close the end tag </\(string(name))")
                }
                index += 1
                guard let open = stack.popLast() else {
                    throw failure(.malformedXML, at: start, "end tag </\(string(name))> without a start tag")
                }
                guard sameBytes(open, name) else {
                    throw failure(.malformedXML, at: start,
                                  "end tag </\(string(name))> does not match <\(string(open))>")
                }
                return .end(name: name, offset: start)
            default:
                return .start(try scanStartTag(from: start))
            }
        }
    }

    mutating func scanStartTag(from start: Int) throws(OSMXMLError) -> XMLStartTag {
        index = start + 1
        let name = try scanName()
        attributeScratch.removeAll(keepingCapacity: true)
        while true {
            let hadSpace = skipSpace()
            guard index < bytes.count else {
                throw failure(.malformedXML, at: start, "the start tag <\(string(name))> is not closed")
            }
            let b = bytes[index]
            if b == UInt8(ascii: ">") {
                index += 1
                stack.append(name)
                return XMLStartTag(name: name, attributes: attributeScratch, selfClosing: false, offset: start)
            }
            if b == UInt8(ascii: "/") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else {
                    throw failure(.malformedXML, at: index, "expected '/>' in <\(string(name))>")
                }
                index += 2
                return XMLStartTag(name: name, attributes: attributeScratch, selfClosing: true, offset: start)
            }
            guard hadSpace else {
                throw failure(.malformedXML, at: index, "expected white space before an attribute in <\(string(name))>")
            }
            let attributeOffset = index
            let attributeName = try scanName()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw failure(.malformedXML, at: index, "attribute \(string(attributeName)) has no '=' and value")
            }
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw failure(.malformedXML, at: index, "attribute \(string(attributeName)) value is not quoted")
            }
            let quote = bytes[index]
            index += 1
            let valueStart = index
            while index < bytes.count, bytes[index] != quote {
                if bytes[index] == UInt8(ascii: "<") {
                    throw failure(.malformedXML, at: index, "'<' inside the value of attribute \(string(attributeName))")
                }
                index += 1
            }
            guard index < bytes.count else {
                throw failure(.malformedXML, at: valueStart, "the value of attribute \(string(attributeName)) is not closed")
            }
            let value = valueStart..<index
            index += 1
            for existing in attributeScratch where sameBytes(existing.name, attributeName) {
                throw failure(.malformedXML, at: attributeOffset, "attribute \(string(attributeName)) is repeated")
            }
            attributeScratch.append((attributeName, value, attributeOffset))
        }
    }

    mutating func scanName() throws(OSMXMLError) -> Range<Int> {
        let start = index
        while index < bytes.count {
            let b = bytes[index]
            let isNameByte = (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: ":")
                || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b >= 0x80
            guard isNameByte else { break }
            index += 1
        }
        guard index > start else {
            throw failure(.malformedXML, at: start, "expected a name")
        }
        let first = bytes[start]
        if (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "-") || first == UInt8(ascii: ".") {
            throw failure(.malformedXML, at: start, "a name cannot start with '\(Character(Unicode.Scalar(first)))'")
        }
        return start..<index
    }

    @discardableResult
    mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count {
            let b = bytes[index]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { break }
            index += 1
        }
        return index > start
    }

    mutating func skip(past terminator: StaticString, from start: Int, what: String) throws(OSMXMLError) {
        let t = UnsafeBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount)
        var i = start + 2
        while i + t.count <= bytes.count {
            if bytes[i] == t[0] {
                var k = 1
                while k < t.count, bytes[i + k] == t[k] { k += 1 }
                if k == t.count {
                    index = i + t.count
                    return
                }
            }
            i += 1
        }
        throw failure(.malformedXML, at: start, "the \(what) is not closed")
    }

    /// `<!DOCTYPE …>` and similar declarations; an internal subset in brackets may contain '>'.
    mutating func skipDeclaration(from start: Int) throws(OSMXMLError) {
        var i = start + 2
        var bracketDepth = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "["): bracketDepth += 1
            case UInt8(ascii: "]"): bracketDepth -= 1
            case UInt8(ascii: ">") where bracketDepth <= 0:
                index = i + 1
                return
            default: break
            }
            i += 1
        }
        throw failure(.malformedXML, at: start, "the declaration is not closed")
    }

    // MARK: Bytes

    func matches(_ literal: StaticString, at offset: Int) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard offset + n <= bytes.count else { return false }
        let p = literal.utf8Start
        for k in 0..<n where bytes[offset + k] != p[k] { return false }
        return true
    }

    func equals(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        range.count == literal.utf8CodeUnitCount && matches(literal, at: range.lowerBound)
    }

    func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for k in 0..<a.count where bytes[a.lowerBound + k] != bytes[b.lowerBound + k] { return false }
        return true
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    func failure(_ kind: OSMXMLError.Kind, at offset: Int, _ problem: String) -> OSMXMLError {
        // Errors are rare, so the line number is counted only when one is raised.
        let end = min(offset, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return OSMXMLError(kind: kind, line: line, column: end - lineStart + 1, byteOffset: offset, problem: problem)
    }

    /// The document's root element, which must be `<name>` (else a `kind` error saying what it
    /// is), with its `version` and `generator` attributes; a UTF-8 byte order mark is skipped.
    mutating func readRootElement(named name: StaticString, kind: OSMXMLError.Kind) throws(OSMXMLError)
        -> (tag: XMLStartTag, version: String?, generator: String?) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        guard case .start(let root) = try nextEvent() else {
            throw failure(kind, at: index, "the document has no root element; expected <\(name)>")
        }
        guard equals(root.name, name) else {
            throw failure(kind, at: root.offset, "the root element is <\(string(root.name))>, expected <\(name)>")
        }
        var version: String?, generator: String?
        for attribute in root.attributes {
            if equals(attribute.name, "version") {
                version = try unescaped(attribute.value, at: attribute.offset)
            } else if equals(attribute.name, "generator") {
                generator = try unescaped(attribute.value, at: attribute.offset)
            }
        }
        return (root, version, generator)
    }
}
