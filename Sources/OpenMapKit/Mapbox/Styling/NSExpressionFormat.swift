import Foundation

extension NSExpression {
    /// An expression from a format string (`"mag * 3"`, `"mgl_step:from:stops:(mag, %@, %@)"`,
    /// `"TERNARY(area < 80000, abbr, name_en)"`), with `%@` (a value or an expression), `%K` (an
    /// attribute name) and `%d`/`%f` (a number) replaced by `args` in order.
    ///
    /// Accepts Foundation's expression syntax for what the style language can express: numbers,
    /// strings in single or double quotes, `TRUE`/`YES`, `FALSE`/`NO`, `NIL`/`NULL`, `SELF`, key
    /// paths (`#word` for a key spelled like a keyword), `$variables`, `+ - * / **` with the usual
    /// precedence, function calls (`sum({1, 2})`, `mgl_join({a, b})`, `modulus:by:(x, 2)`), `FUNCTION`,
    /// `TERNARY`, `CAST`, aggregates `{a, b}`, subscripts `a[0]`, and predicates as function arguments
    /// (`MGL_IF(x = 1, 'one', 'other')`). As OpenMapKit additions, `%` between two operands is the
    /// remainder (`modulus:by:`) and a key path may contain `:` (`name:en`, as OpenStreetMap keys do).
    ///
    /// Stops the program with the parser's message for a malformed format string, where Foundation
    /// raises `NSInvalidArgumentException`; use ``init(validatingFormat:_:)`` for format strings that
    /// come from outside the program.
    public convenience init(format expressionFormat: String, _ args: Any...) {
        self.init(format: expressionFormat, argumentArray: args)
    }

    /// An expression from a format string with its arguments in an array (see ``init(format:_:)``).
    public convenience init(format expressionFormat: String, argumentArray arguments: [Any]) {
        do {
            self.init(node: try FormatParser.expression(expressionFormat, arguments: arguments).node)
        } catch {
            preconditionFailure("NSExpression(format: \(expressionFormat.debugDescription)): \(error)")
        }
    }

    /// An expression from a format string, throwing the parser's error for a malformed one (an
    /// OpenMapKit addition; see ``init(format:_:)``).
    public convenience init(validatingFormat expressionFormat: String, _ args: Any...) throws(MGLExpressionError) {
        try self.init(validatingFormat: expressionFormat, argumentArray: args)
    }

    /// An expression from a format string with its arguments in an array, throwing the parser's error
    /// for a malformed one (an OpenMapKit addition).
    public convenience init(validatingFormat expressionFormat: String, argumentArray arguments: [Any]) throws(MGLExpressionError) {
        self.init(node: try FormatParser.expression(expressionFormat, arguments: arguments).node)
    }
}

// MARK: - Tokens

/// One token of a format string, with its offset in characters.
struct FormatToken {
    enum Kind: Equatable {
        case number(Double, isInteger: Bool)
        case string(String)
        /// A word: a keyword, a key, or a function name (which may contain `:`).
        case word(String)
        /// `#word`: a key, never a keyword.
        case escapedWord(String)
        /// `$name`.
        case variable(String)
        /// `%@`, `%K`, `%d`, `%f` …: the conversion letter (`@`, `K`, `d`, `f` …).
        case specifier(Character)
        case symbol(String)
        case end
    }

    var kind: Kind
    var offset: Int
}

/// Splits a format string into tokens.
struct FormatLexer {
    private let characters: [Character]
    private var position = 0

    init(_ text: String) { characters = Array(text) }

    static func tokens(_ text: String) throws(MGLExpressionError) -> [FormatToken] {
        var lexer = FormatLexer(text)
        var tokens: [FormatToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func error(_ message: String, at offset: Int) -> MGLExpressionError {
        MGLExpressionError(.invalidFormat, message, offset: offset)
    }

    private func peek(_ ahead: Int = 0) -> Character? {
        position + ahead < characters.count ? characters[position + ahead] : nil
    }

    private static func isWordStart(_ c: Character) -> Bool { c.isLetter || c == "_" }
    private static func isWordPart(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == ":" }

    mutating func next() throws(MGLExpressionError) -> FormatToken {
        while let c = peek(), c.isWhitespace { position += 1 }
        let start = position
        guard let c = peek() else { return FormatToken(kind: .end, offset: start) }
        func token(_ kind: FormatToken.Kind) -> FormatToken { FormatToken(kind: kind, offset: start) }

        if c.isASCII, c.isNumber || (c == "." && peek(1)?.isASCII == true && peek(1)!.isNumber) {
            return token(try number())
        }
        if c == "'" || c == "\"" { return token(.string(try string(quote: c))) }
        if Self.isWordStart(c) { return token(.word(word())) }
        if c == "#" {
            position += 1
            guard let d = peek(), Self.isWordStart(d) else { throw error("expected a key after '#'", at: start) }
            return token(.escapedWord(word()))
        }
        if c == "$" {
            position += 1
            guard let d = peek(), Self.isWordStart(d) else { throw error("expected a variable name after '$'", at: start) }
            return token(.variable(word()))
        }
        if c == "@" { throw error("key-path operators such as @count and @sum are not supported", at: start) }
        if c == "%" {
            position += 1
            if let d = peek(), d == "@" || d == "K" {
                position += 1
                return token(.specifier(d))
            }
            // Length modifiers, then a numeric conversion: %d, %ld, %lld, %f, %lf, %u, %qd …
            var ahead = 0
            while let m = peek(ahead), "lhqzjt".contains(m) { ahead += 1 }
            if let d = peek(ahead), "dDiuUoOxXfFeEgGcC".contains(d) {
                position += ahead + 1
                return token(.specifier(Character(d.lowercased())))
            }
            if ahead > 0 { throw error("unknown format specifier", at: start) }
            return token(.symbol("%"))
        }
        for symbol in ["**", "==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"] where matches(symbol) {
            position += 2
            return token(.symbol(symbol))
        }
        if "(){}[],.+-*/<>=!".contains(c) {
            position += 1
            return token(.symbol(String(c)))
        }
        throw error("unexpected character '\(c)'", at: start)
    }

    private func matches(_ symbol: String) -> Bool {
        for (i, s) in symbol.enumerated() where peek(i) != s { return false }
        return true
    }

    private mutating func word() -> String {
        let start = position
        while let c = peek(), Self.isWordPart(c) { position += 1 }
        return String(characters[start..<position])
    }

    private mutating func number() throws(MGLExpressionError) -> FormatToken.Kind {
        let start = position
        if peek() == "0", let x = peek(1), x == "x" || x == "X" {
            position += 2
            let digitsStart = position
            while let c = peek(), c.isHexDigit { position += 1 }
            guard position > digitsStart, let value = UInt64(String(characters[digitsStart..<position]), radix: 16) else {
                throw error("expected hexadecimal digits", at: start)
            }
            return .number(Double(value), isInteger: true)
        }
        var isInteger = true
        while let c = peek(), c.isASCII, c.isNumber { position += 1 }
        if peek() == ".", let d = peek(1), d.isASCII, d.isNumber {
            isInteger = false
            position += 1
            while let c = peek(), c.isASCII, c.isNumber { position += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            var ahead = 1
            if let sign = peek(1), sign == "+" || sign == "-" { ahead = 2 }
            if let d = peek(ahead), d.isASCII, d.isNumber {
                isInteger = false
                position += ahead
                while let c = peek(), c.isASCII, c.isNumber { position += 1 }
            }
        }
        if let c = peek(), Self.isWordStart(c) { throw error("unexpected '\(c)' after a number", at: position) }
        guard let value = Double(String(characters[start..<position])) else { throw error("bad number", at: start) }
        return .number(value, isInteger: isInteger && abs(value) < 9.007_199_254_740_992e15)
    }

    private mutating func string(quote: Character) throws(MGLExpressionError) -> String {
        let start = position
        position += 1
        var text = ""
        while true {
            guard let c = peek() else { throw error("unterminated string", at: start) }
            position += 1
            if c == quote { return text }
            guard c == "\\" else { text.append(c); continue }
            guard let escaped = peek() else { throw error("unterminated string", at: start) }
            position += 1
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\0")
            case "u":
                var hex = ""
                while hex.count < 4, let h = peek(), h.isHexDigit { hex.append(h); position += 1 }
                guard hex.count == 4, let scalar = UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init) else {
                    throw error("bad \\u escape", at: position)
                }
                text.unicodeScalars.append(scalar)
            default: text.append(escaped)
            }
        }
    }
}

// MARK: - Parser

/// Parses Foundation's predicate and expression format syntax into ``NSExpression`` and ``NSPredicate``.
///
/// One recursive-descent grammar covers both: predicates are the lowest-precedence level, so an
/// argument, a parenthesized group or a `TERNARY` condition is parsed once, as whichever it turns out
/// to be, without backtracking.
struct FormatParser {
    /// A parsed operand: an expression or a predicate.
    enum Parsed {
        case expression(NSExpression)
        case predicate(NSPredicate)
    }

    private var tokens: [FormatToken]
    private var index = 0
    private var arguments: [Any]
    private var argumentIndex = 0
    private var depth = 0
    private static let maximumDepth = 200

    private init(tokens: [FormatToken], arguments: [Any]) {
        self.tokens = tokens
        self.arguments = arguments
    }

    static func expression(_ format: String, arguments: [Any]) throws(MGLExpressionError) -> NSExpression {
        var parser = FormatParser(tokens: try FormatLexer.tokens(format), arguments: arguments)
        let parsed = try parser.parseOr()
        try parser.expectEnd()
        if case .predicate(let p) = parsed {
            throw MGLExpressionError(.invalidFormat, "expected an expression but found the predicate \(p) "
                                     + "(a predicate is an expression's argument, as in TERNARY(\(p), a, b))", offset: 0)
        }
        return parser.expression(parsed)
    }

    static func predicate(_ format: String, arguments: [Any]) throws(MGLExpressionError) -> NSPredicate {
        var parser = FormatParser(tokens: try FormatLexer.tokens(format), arguments: arguments)
        let start = parser.current.offset
        let parsed = try parser.parseOr()
        try parser.expectEnd()
        return try parser.predicate(parsed, at: start)
    }

    // MARK: Tokens

    private var current: FormatToken { tokens[index] }
    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private func error(_ message: String, at offset: Int? = nil) -> MGLExpressionError {
        MGLExpressionError(.invalidFormat, message, offset: offset ?? current.offset)
    }

    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    /// Whether the current token is the keyword `keyword` (keywords are case-insensitive).
    private func isKeyword(_ keyword: String) -> Bool {
        if case .word(let w) = current.kind { return w.caseInsensitiveCompare(keyword) == .orderedSame }
        return false
    }

    private mutating func expect(_ symbol: String) throws(MGLExpressionError) {
        guard isSymbol(symbol) else { throw error("expected '\(symbol)' but found \(describe(current))") }
        advance()
    }

    private func expectEnd() throws(MGLExpressionError) {
        guard current.kind == .end else { throw error("unexpected \(describe(current))") }
    }

    private func describe(_ token: FormatToken) -> String {
        switch token.kind {
        case .number(let n, _): "the number \(FormatWriter.number(n))"
        case .string(let s): "the string \(FormatWriter.quoted(s))"
        case .word(let w): "'\(w)'"
        case .escapedWord(let w): "'#\(w)'"
        case .variable(let v): "'$\(v)'"
        case .specifier(let c): "'%\(c)'"
        case .symbol(let s): "'\(s)'"
        case .end: "the end of the format string"
        }
    }

    private mutating func nextArgument(for specifier: Character) throws(MGLExpressionError) -> Any? {
        guard argumentIndex < arguments.count else {
            throw error("the format string has more specifiers than the \(arguments.count) arguments given (%\(specifier))")
        }
        defer { argumentIndex += 1 }
        return unwrappedOptional(arguments[argumentIndex])
    }

    private mutating func nest() throws(MGLExpressionError) {
        depth += 1
        guard depth < Self.maximumDepth else { throw error("the format string is nested more than \(Self.maximumDepth) levels deep") }
    }

    // MARK: Conversions between the two kinds

    /// A predicate operand as an expression: a constant holding the predicate, as Foundation makes it.
    private func expression(_ parsed: Parsed) -> NSExpression {
        switch parsed {
        case .expression(let e): e
        case .predicate(let p): NSExpression(forConstantValue: p)
        }
    }

    /// A predicate where one is required: a predicate, or a constant expression holding one (`%@`).
    private func predicate(_ parsed: Parsed, at offset: Int) throws(MGLExpressionError) -> NSPredicate {
        switch parsed {
        case .predicate(let p): return p
        case .expression(let e):
            if case .constant(.predicate(let p), _) = e.node { return p }
            throw error("expected a predicate (a comparison such as x == 1) but found the expression \(e)", at: offset)
        }
    }

    // MARK: Predicates

    mutating func parseOr() throws(MGLExpressionError) -> Parsed {
        try nest()
        defer { depth -= 1 }
        let start = current.offset
        let first = try parseAnd()
        guard isKeyword("OR") || isSymbol("||") else { return first }
        var operands = [try predicate(first, at: start)]
        while isKeyword("OR") || isSymbol("||") {
            advance()
            let offset = current.offset
            operands.append(try predicate(try parseAnd(), at: offset))
        }
        return .predicate(NSCompoundPredicate(type: .or, subpredicates: operands))
    }

    private mutating func parseAnd() throws(MGLExpressionError) -> Parsed {
        let start = current.offset
        let first = try parseNot()
        guard isKeyword("AND") || isSymbol("&&") else { return first }
        var operands = [try predicate(first, at: start)]
        while isKeyword("AND") || isSymbol("&&") {
            advance()
            let offset = current.offset
            operands.append(try predicate(try parseNot(), at: offset))
        }
        return .predicate(NSCompoundPredicate(type: .and, subpredicates: operands))
    }

    private mutating func parseNot() throws(MGLExpressionError) -> Parsed {
        guard isKeyword("NOT") || isSymbol("!") else { return try parseComparison() }
        advance()
        try nest()
        defer { depth -= 1 }
        let offset = current.offset
        return .predicate(NSCompoundPredicate(type: .not, subpredicates: [try predicate(try parseNot(), at: offset)]))
    }

    private mutating func parseComparison() throws(MGLExpressionError) -> Parsed {
        if isKeyword("TRUEPREDICATE") { advance(); return .predicate(NSPredicate(value: true)) }
        if isKeyword("FALSEPREDICATE") { advance(); return .predicate(NSPredicate(value: false)) }
        var modifier = NSComparisonPredicate.Modifier.direct
        var negated = false
        if isKeyword("ANY") || isKeyword("SOME") { modifier = .any; advance() }
        else if isKeyword("ALL") { modifier = .all; advance() }
        else if isKeyword("NONE") { modifier = .any; negated = true; advance() }
        let left = try parseAdditive()
        guard let type = comparisonOperator() else {
            if modifier != .direct { throw error("expected a comparison operator after ANY, ALL, SOME or NONE") }
            return left
        }
        let options = try comparisonOptions()
        let right = try parseAdditive()
        let comparison = NSComparisonPredicate(leftExpression: expression(left), rightExpression: expression(right),
                                               modifier: modifier, type: type, options: options)
        return .predicate(negated ? NSCompoundPredicate(type: .not, subpredicates: [comparison]) : comparison)
    }

    /// Reads a comparison operator, if the current token is one.
    private mutating func comparisonOperator() -> NSComparisonPredicate.Operator? {
        let type: NSComparisonPredicate.Operator
        switch current.kind {
        case .symbol("="), .symbol("=="): type = .equalTo
        case .symbol("!="), .symbol("<>"): type = .notEqualTo
        case .symbol("<"): type = .lessThan
        case .symbol("<="), .symbol("=<"): type = .lessThanOrEqualTo
        case .symbol(">"): type = .greaterThan
        case .symbol(">="), .symbol("=>"): type = .greaterThanOrEqualTo
        case .word(let w):
            switch w.uppercased() {
            case "IN": type = .in
            case "CONTAINS": type = .contains
            case "BETWEEN": type = .between
            case "BEGINSWITH": type = .beginsWith
            case "ENDSWITH": type = .endsWith
            case "LIKE": type = .like
            case "MATCHES": type = .matches
            default: return nil
            }
        default: return nil
        }
        advance()
        return type
    }

    /// Reads `[c]`, `[d]`, `[cd]` or `[n]` after a comparison operator.
    private mutating func comparisonOptions() throws(MGLExpressionError) -> NSComparisonPredicate.Options {
        guard isSymbol("["), case .word(let letters)? = tokens.dropFirst(index + 1).first?.kind,
              tokens.dropFirst(index + 2).first?.kind == .symbol("]"),
              letters.allSatisfy({ "cdnlCDNL".contains($0) }) else { return [] }
        var options: NSComparisonPredicate.Options = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            default: throw error("the [l] (locale-sensitive) option is not supported")
            }
        }
        advance(); advance(); advance()
        return options
    }

    // MARK: Arithmetic

    // Each operator of a chain (`1 + 2 + 3 …`, `a[0][1] …`) nests the tree one level deeper, so it
    // counts towards the depth limit: descriptions, equality and conversion recurse through it.

    private mutating func parseAdditive() throws(MGLExpressionError) -> Parsed {
        let outerDepth = depth
        defer { depth = outerDepth }
        var left = try parseMultiplicative()
        while isSymbol("+") || isSymbol("-") {
            let name = isSymbol("+") ? "add:to:" : "from:subtract:"
            advance()
            try nest()
            let right = try parseMultiplicative()
            left = .expression(NSExpression(forFunction: name, arguments: [expression(left), expression(right)]))
        }
        return left
    }

    private mutating func parseMultiplicative() throws(MGLExpressionError) -> Parsed {
        let outerDepth = depth
        defer { depth = outerDepth }
        var left = try parsePower()
        while isSymbol("*") || isSymbol("/") || isSymbol("%") {
            let name = isSymbol("*") ? "multiply:by:" : isSymbol("/") ? "divide:by:" : "modulus:by:"
            advance()
            try nest()
            let right = try parsePower()
            left = .expression(NSExpression(forFunction: name, arguments: [expression(left), expression(right)]))
        }
        return left
    }

    private mutating func parsePower() throws(MGLExpressionError) -> Parsed {
        let base = try parseUnary()
        guard isSymbol("**") else { return base }
        advance()
        try nest()
        defer { depth -= 1 }
        let exponent = try parsePower()
        return .expression(NSExpression(forFunction: "raise:toPower:", arguments: [expression(base), expression(exponent)]))
    }

    private mutating func parseUnary() throws(MGLExpressionError) -> Parsed {
        if isSymbol("-") {
            advance()
            if case .number(let n, let isInteger) = current.kind {
                advance()
                return try parsePostfix(.expression(NSExpression(forConstantValue: numberValue(-n, isInteger: isInteger))))
            }
            try nest()
            defer { depth -= 1 }
            let operand = try parseUnary()
            return .expression(NSExpression(forFunction: "from:subtract:", arguments: [NSExpression(forConstantValue: 0), expression(operand)]))
        }
        if isSymbol("+") {
            advance()
            return try parseUnary()
        }
        return try parsePostfix(try parsePrimary())
    }

    private func numberValue(_ n: Double, isInteger: Bool) -> NSNumber {
        isInteger ? NSNumber(value: Int64(n)) : NSNumber(value: n)
    }

    // MARK: Primaries

    private mutating func parsePostfix(_ primary: Parsed) throws(MGLExpressionError) -> Parsed {
        let outerDepth = depth
        defer { depth = outerDepth }
        var result = primary
        while true {
            if isSymbol(".") || isSymbol("[") { try nest() }
            if isSymbol(".") {
                advance()
                let base = expression(result)
                switch current.kind {
                case .word(let key) where tokens[index + 1].kind == .symbol("("):
                    let call = try parseCall(key)
                    result = .expression(NSExpression(forFunction: base, selectorName: "valueForKey:", arguments: [call]))
                case .word(let key), .escapedWord(let key):
                    advance()
                    result = .expression(Self.member(key, of: base))
                case .specifier("K"):
                    advance()
                    result = .expression(Self.member(try keyArgument(), of: base))
                default:
                    throw error("expected a key after '.' but found \(describe(current))")
                }
            } else if isSymbol("[") {
                advance()
                try nest()
                defer { depth -= 1 }
                let subscriptExpression: NSExpression
                if case .word(let w) = current.kind, ["FIRST", "LAST", "SIZE"].contains(w.uppercased()),
                   tokens[index + 1].kind == .symbol("]") {
                    advance()
                    subscriptExpression = NSExpression(forConstantValue: w.uppercased())
                } else {
                    subscriptExpression = expression(try parseOr())
                }
                try expect("]")
                result = .expression(NSExpression(forFunction: "objectFrom:withIndex:", arguments: [expression(result), subscriptExpression]))
            } else {
                return result
            }
        }
    }

    /// `base.key`: a longer key path when the base is one, otherwise `valueForKey:` on the base.
    static func member(_ key: String, of base: NSExpression) -> NSExpression {
        if case .keyPath(let path) = base.node { return NSExpression(forKeyPath: path + "." + key) }
        return NSExpression(forFunction: base, selectorName: "valueForKey:", arguments: [NSExpression(forConstantValue: key)])
    }

    private mutating func keyArgument() throws(MGLExpressionError) -> String {
        let offset = current.offset
        let value = try nextArgument(for: "K")
        if let key = value as? String { return key }
        if let expression = value as? NSExpression, case .keyPath(let path) = expression.node { return path }
        throw error("%K needs a string argument, not \(value.map { String(describing: type(of: $0)) } ?? "nil")", at: offset)
    }

    private mutating func parsePrimary() throws(MGLExpressionError) -> Parsed {
        let token = current
        switch token.kind {
        case .number(let n, let isInteger):
            advance()
            return .expression(NSExpression(forConstantValue: numberValue(n, isInteger: isInteger)))
        case .string(let s):
            advance()
            return .expression(NSExpression(forConstantValue: s))
        case .variable(let name):
            advance()
            return .expression(NSExpression(forVariable: name))
        case .escapedWord(let key):
            advance()
            return .expression(NSExpression(forKeyPath: key))
        case .specifier(let letter):
            advance()
            switch letter {
            case "@":
                let value = try nextArgument(for: "@")
                if let expression = value as? NSExpression { return .expression(expression) }
                return .expression(NSExpression(forConstantValue: value))
            case "K":
                return .expression(NSExpression(forKeyPath: try keyArgument()))
            default:
                let value = try nextArgument(for: letter)
                guard let value, let number = numericValue(value) else {
                    throw error("%\(letter) needs a number argument, not \(value.map { String(describing: type(of: $0)) } ?? "nil")", at: token.offset)
                }
                // An integer conversion (%d, %i, %u, %x …) takes the integer part, as printf would.
                if case .number(let n) = number, !"feg".contains(letter), let integer = Int64(exactly: n.rounded(.towardZero)) {
                    return .expression(NSExpression(forConstantValue: NSNumber(value: integer)))
                }
                return .expression(NSExpression(forConstantValue: value))
            }
        case .symbol("("):
            advance()
            try nest()
            defer { depth -= 1 }
            let inner = try parseOr()
            try expect(")")
            return inner
        case .symbol("{"):
            advance()
            try nest()
            defer { depth -= 1 }
            var items: [NSExpression] = []
            if !isSymbol("}") {
                while true {
                    items.append(expression(try parseOr()))
                    if isSymbol(",") { advance(); continue }
                    break
                }
            }
            try expect("}")
            return .expression(NSExpression(forAggregate: items))
        case .word(let word):
            if tokens[index + 1].kind == .symbol("(") { return .expression(try parseCall(word)) }
            switch word.uppercased() {
            case "TRUE", "YES": advance(); return .expression(NSExpression(forConstantValue: true))
            case "FALSE", "NO": advance(); return .expression(NSExpression(forConstantValue: false))
            case "NIL", "NULL": advance(); return .expression(NSExpression(forConstantValue: nil))
            case "SELF": advance(); return .expression(NSExpression.expressionForEvaluatedObject())
            case "AND", "OR", "NOT", "IN", "CONTAINS", "BETWEEN", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES",
                 "ANY", "ALL", "SOME", "NONE", "TRUEPREDICATE", "FALSEPREDICATE", "FUNCTION", "TERNARY", "CAST", "SUBQUERY":
                throw error("expected an expression but found the keyword '\(word)' (write #\(word) for a key of that name)")
            default:
                if word.hasSuffix(":") { throw error("expected '(' after the function name '\(word)'") }
                advance()
                return .expression(NSExpression(forKeyPath: word))
            }
        default:
            throw error("expected an expression but found \(describe(token))")
        }
    }

    /// A call: `name(arguments)`, with the current token the name.
    private mutating func parseCall(_ word: String) throws(MGLExpressionError) -> NSExpression {
        let nameOffset = current.offset
        advance()
        let argumentsOffset = current.offset
        let arguments = try parseArguments()
        func argument(_ i: Int) -> NSExpression { expression(arguments[i]) }
        switch word.uppercased() {
        case "FUNCTION":
            guard arguments.count >= 2 else { throw error("FUNCTION needs a target and a selector name", at: argumentsOffset) }
            guard case .constant(.string(let selector), _) = argument(1).node else {
                throw error("FUNCTION's second argument must be a selector name in quotes", at: argumentsOffset)
            }
            return NSExpression(forFunction: argument(0), selectorName: selector, arguments: (2..<arguments.count).map(argument))
        case "TERNARY":
            guard arguments.count == 3 else { throw error("TERNARY takes a predicate and two expressions", at: argumentsOffset) }
            return NSExpression(forConditional: try predicate(arguments[0], at: argumentsOffset),
                                trueExpression: argument(1), falseExpression: argument(2))
        case "CAST":
            guard arguments.count == 2, case .constant(.string, _) = argument(1).node else {
                throw error("CAST takes an expression and a class name in quotes", at: argumentsOffset)
            }
            return NSExpression(forFunction: "castObject:toType:", arguments: [argument(0), argument(1)])
        case "SUBQUERY":
            throw error("SUBQUERY expressions are not supported", at: nameOffset)
        default:
            guard let name = Self.functionName(word, argumentCount: arguments.count) else {
                throw error("unknown function '\(word)' with \(arguments.count) argument\(arguments.count == 1 ? "" : "s")", at: nameOffset)
            }
            return NSExpression(forFunction: name, arguments: arguments.map(expression))
        }
    }

    private mutating func parseArguments() throws(MGLExpressionError) -> [Parsed] {
        try expect("(")
        try nest()
        defer { depth -= 1 }
        var items: [Parsed] = []
        if isSymbol(")") { advance(); return items }
        while true {
            items.append(try parseOr())
            if isSymbol(",") { advance(); continue }
            try expect(")")
            return items
        }
    }

    // MARK: Function names

    /// Functions with a variable number of arguments, named without a colon (Mapbox installs both spellings).
    static let variadicFunctions: Set<String> = ["MGL_LET", "MGL_MATCH", "MGL_IF", "MGL_FUNCTION"]

    /// Foundation's and Mapbox's one-argument functions, written without their colon in format strings.
    static let unaryFunctions: Set<String> = [
        "sum", "count", "min", "max", "average", "median", "mode", "stddev", "sqrt", "log", "ln", "exp", "floor",
        "ceiling", "abs", "trunc", "uppercase", "lowercase", "length", "noindex", "randomn", "onesComplement",
        "mgl_join", "mgl_round", "mgl_acos", "mgl_cos", "mgl_asin", "mgl_sin", "mgl_atan", "mgl_tan", "mgl_log2",
        "mgl_coalesce", "mgl_attributed",
    ]

    /// Functions of several arguments, named by their selectors.
    static let selectorFunctions: Set<String> = [
        "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "raise:toPower:", "objectFrom:withIndex:",
        "castObject:toType:", "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:",
        "distanceToLocation:fromLocation:", "mgl_interpolate:withCurveType:parameters:stops:", "mgl_step:from:stops:",
        "mgl_does:have:",
    ]

    /// The stored name of a function as a format string calls it, nil for an unknown function or a
    /// wrong number of arguments.
    static func functionName(_ word: String, argumentCount: Int) -> String? {
        if variadicFunctions.contains(word) { return word }
        if word.hasSuffix(":"), variadicFunctions.contains(String(word.dropLast())) { return word }
        if unaryFunctions.contains(word) { return argumentCount == 1 ? word + ":" : nil }
        if word.hasSuffix(":"), unaryFunctions.contains(String(word.dropLast())) { return argumentCount == 1 ? word : nil }
        if selectorFunctions.contains(word) { return word.filter { $0 == ":" }.count == argumentCount ? word : nil }
        if word == "now" || word == "random" { return argumentCount == 0 ? word : nil }
        return nil
    }
}

// MARK: - Writer

/// Writes expressions and predicates in format-string syntax, as Foundation's `description` and
/// `predicateFormat` do.
enum FormatWriter {
    private static let infix: [String: (symbol: String, precedence: Int)] = [
        "add:to:": ("+", 1), "from:subtract:": ("-", 1), "multiply:by:": ("*", 2), "divide:by:": ("/", 2),
        "modulus:by:": ("%", 2), "raise:toPower:": ("**", 3),
    ]

    static func expression(_ e: NSExpression) -> String {
        switch e.node {
        case .constant(let c, _): constant(c)
        case .evaluatedObject: "SELF"
        case .variable(let name): "$" + name
        case .keyPath(let path): path
        case .aggregate(let items): "{" + items.map(expression).joined(separator: ", ") + "}"
        case .conditional(let p, let t, let f): "TERNARY(\(predicate(p)), \(expression(t)), \(expression(f)))"
        case .function(let name, let target, let arguments):
            function(name, target: target, arguments: arguments)
        }
    }

    private static func function(_ name: String, target: NSExpression?, arguments: [NSExpression]) -> String {
        if let target {
            if name == "valueForKey:", arguments.count == 1, case .constant(.string(let key), _) = arguments[0].node {
                return operand(target, precedence: 4) + "." + key
            }
            return "FUNCTION(" + ([expression(target), quoted(name)] + arguments.map(expression)).joined(separator: ", ") + ")"
        }
        if let (symbol, precedence) = infix[name], arguments.count == 2 {
            let rightAssociative = name == "raise:toPower:"
            return operand(arguments[0], precedence: precedence + (rightAssociative ? 1 : 0)) + " \(symbol) "
                + operand(arguments[1], precedence: precedence + (rightAssociative ? 0 : 1))
        }
        if name == "objectFrom:withIndex:", arguments.count == 2 {
            var index = expression(arguments[1])
            if case .constant(.string(let s), _) = arguments[1].node, ["FIRST", "LAST", "SIZE"].contains(s) { index = s }
            return operand(arguments[0], precedence: 4) + "[" + index + "]"
        }
        if name == "castObject:toType:", arguments.count == 2 {
            return "CAST(\(expression(arguments[0])), \(expression(arguments[1])))"
        }
        return name + "(" + arguments.map(expression).joined(separator: ", ") + ")"
    }

    /// An operand of an infix operator, in parentheses when it binds less tightly than `precedence`.
    private static func operand(_ e: NSExpression, precedence: Int) -> String {
        if case .function(let name, nil, let arguments) = e.node, let op = infix[name], arguments.count == 2, op.precedence < precedence {
            return "(" + expression(e) + ")"
        }
        if case .constant(.number(let n), _) = e.node, n < 0, precedence > 1 { return "(" + number(n) + ")" }
        return expression(e)
    }

    static func constant(_ c: Constant) -> String {
        switch c {
        case .null: return "nil"
        case .bool(let b): return b ? "TRUE" : "FALSE"
        case .number(let n): return number(n)
        case .string(let s): return quoted(s)
        case .color(let color):
            return "UIColor(red: \(number(color.red)), green: \(number(color.green)), blue: \(number(color.blue)), alpha: \(number(color.alpha)))"
        case .insets(let i):
            return "UIEdgeInsets(top: \(number(i.top)), left: \(number(i.left)), bottom: \(number(i.bottom)), right: \(number(i.right)))"
        case .array(let items): return "{" + items.map(expression).joined(separator: ", ") + "}"
        case .dictionary(let entries):
            let members = entries.keys.sorted().map { key -> String in
                let name = switch key { case .number(let n): number(n); case .string(let s): quoted(s) }
                return name + " = " + expression(entries[key]!)
            }
            return "{" + members.joined(separator: "; ") + "}"
        case .predicate(let p): return predicate(p)
        case .type(let name): return name
        case .unsupported(_, let description): return description
        }
    }

    static func number(_ n: Double) -> String {
        if n.rounded() == n, abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    static func number(_ n: CGFloat) -> String { number(Double(n)) }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }

    static func predicate(_ p: NSPredicate) -> String {
        switch p.node {
        case .value(let v): return v ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let c):
            let modifier = switch c.modifier { case .direct: ""; case .any: "ANY "; case .all: "ALL " }
            var options = ""
            if !c.options.isEmpty {
                options = "["
                if c.options.contains(.caseInsensitive) { options += "c" }
                if c.options.contains(.diacriticInsensitive) { options += "d" }
                if c.options.contains(.normalized) { options += "n" }
                options += "]"
            }
            return modifier + expression(c.left) + " " + comparisonSymbol(c.type) + options + " " + expression(c.right)
        case .compound(let type, let subpredicates):
            func part(_ sub: NSPredicate) -> String {
                if case .compound(let t, let s) = sub.node, t != .not, s.count > 1 { return "(" + predicate(sub) + ")" }
                return predicate(sub)
            }
            switch type {
            case .not:
                if subpredicates.count == 1 {
                    if case .compound(.not, _) = subpredicates[0].node { return "NOT " + predicate(subpredicates[0]) }
                    if case .compound = subpredicates[0].node { return "NOT (" + predicate(subpredicates[0]) + ")" }
                    return "NOT " + predicate(subpredicates[0])
                }
                return "NOT (" + predicate(NSCompoundPredicate(type: .or, subpredicates: subpredicates)) + ")"
            case .and, .or:
                if subpredicates.isEmpty { return type == .and ? "TRUEPREDICATE" : "FALSEPREDICATE" }
                if subpredicates.count == 1 { return predicate(subpredicates[0]) }
                return subpredicates.map(part).joined(separator: type == .and ? " AND " : " OR ")
            }
        }
    }

    static func comparisonSymbol(_ type: NSComparisonPredicate.Operator) -> String {
        switch type {
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        case .equalTo: "=="
        case .notEqualTo: "!="
        case .matches: "MATCHES"
        case .like: "LIKE"
        case .beginsWith: "BEGINSWITH"
        case .endsWith: "ENDSWITH"
        case .in: "IN"
        case .customSelector: "CUSTOMSELECTOR"
        case .contains: "CONTAINS"
        case .between: "BETWEEN"
        }
    }
}
