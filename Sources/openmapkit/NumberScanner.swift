import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum AngleKind { case latitude, longitude, azimuth, distance }

struct AngleError: Error {
    var message: String
}

/// Hand-written number scanning: a fast exact path for ordinary decimals (≤ 15 significant digits,
/// which is correctly rounded because both the integer and the power of ten are exact doubles),
/// and `strtod` for everything else, so every value is the correctly rounded double.
enum NumberScanner {
    /// 10^k for k = 0…22, all exact doubles (a switch: no lazily initialised table on the hot path).
    @inline(__always) static func power(_ k: Int) -> Double {
        switch k {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// A plain decimal: [+-]digits[.digits] with no exponent, or nil. Fast path only.
    @inline(__always)
    static func plainDecimal(_ s: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = s.count
        var negative = false
        if i < n && (s[i] == 43 || s[i] == 45) { negative = s[i] == 45; i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0, fractionDigits = 0
        var seenPoint = false, any = false
        while i < n {
            let c = s[i]
            if c >= 48 && c <= 57 {
                any = true
                if mantissa == 0 && c == 48 {
                    if seenPoint { fractionDigits += 1 }   // leading zeros don't count as significant
                } else {
                    mantissa = mantissa &* 10 &+ UInt64(c - 48)
                    digits += 1
                    if seenPoint { fractionDigits += 1 }
                }
            } else if c == 46 && !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            i += 1
        }
        guard any, digits <= 15, fractionDigits <= 22 else { return nil }
        let v = Double(mantissa) / power(fractionDigits)
        return negative ? -v : v
    }

    /// Any number strtod accepts (including exponents, nan, inf), with nothing left over.
    static func number(_ s: UnsafeBufferPointer<UInt8>) -> Double? {
        if let v = plainDecimal(s) { return v }
        return strtodWhole(s)
    }

    static func strtodWhole(_ s: UnsafeBufferPointer<UInt8>) -> Double? {
        if s.isEmpty || s.count > 400 { return nil }
        var buffer = [CChar](repeating: 0, count: s.count + 1)
        for k in 0..<s.count { buffer[k] = CChar(bitPattern: s[k]) }
        return buffer.withUnsafeMutableBufferPointer { b -> Double? in
            var end: UnsafeMutablePointer<CChar>? = nil
            guard let base = b.baseAddress else { return nil }
            let v = strtod(base, &end)
            guard let end, end - base == s.count else { return nil }
            return v
        }
    }

    /// An angle in degrees: decimal, or d/'/" (or :) separated components, with an optional hemisphere
    /// letter at either end. No exponents (as GeodSolve's DMS reader), but nan and inf are accepted.
    static func angle(_ s: UnsafeBufferPointer<UInt8>, _ kind: AngleKind) -> Result<Double, AngleError> {
        if let v = plainDecimal(s) { return .success(v) }
        let text = String(decoding: s, as: UTF8.self)
        let lower = text.lowercased()
        for special in ["nan", "+nan", "-nan"] where lower == special { return .success(.nan) }
        for (word, value) in [("inf", Double.infinity), ("+inf", .infinity), ("-inf", -.infinity),
                              ("infinity", .infinity), ("+infinity", .infinity), ("-infinity", -.infinity)]
            where lower == word { return .success(value) }
        var chars = Array(text.unicodeScalars)
        var sign = 1.0
        // Hemisphere designator at the start or the end.
        func hemisphere(_ c: Unicode.Scalar) -> Double? {
            switch c {
            case "N", "n": return kind == .latitude ? 1 : nil
            case "S", "s": return kind == .latitude ? -1 : nil
            case "E", "e": return kind == .longitude || kind == .azimuth ? 1 : nil
            case "W", "w": return kind == .longitude || kind == .azimuth ? -1 : nil
            default: return nil
            }
        }
        if let last = chars.last, last.properties.isAlphabetic {
            guard let h = hemisphere(last) else { return .failure(AngleError(message: "Illegal character \(last) in DMS string \(text)")) }
            sign = h; chars.removeLast()
        } else if let first = chars.first, first.properties.isAlphabetic {
            guard let h = hemisphere(first) else { return .failure(AngleError(message: "Illegal character \(first) in DMS string \(text)")) }
            sign = h; chars.removeFirst()
        }
        if let first = chars.first, first == "-" || first == "+" {
            if first == "-" { sign = -sign }
            chars.removeFirst()
        }
        // Components: number followed by a unit mark (d ° ' ′ " ″ or :), the last one may omit it.
        var total = 0.0
        var unitIndex = 0                // 0 degrees, 1 minutes, 2 seconds (next implied unit)
        var current = ""
        var usedColon = false, usedMarks = false
        var components = 0
        func flush(_ unit: Int) -> Bool {
            guard !current.isEmpty, let v = Double(current), v >= 0, unit >= unitIndex, unit <= 2 else { return false }
            if unit > 0 && v >= 60 && components > 0 { return false }
            total += v / [1.0, 60, 3600][unit]
            unitIndex = unit + 1
            components += 1
            current = ""
            return true
        }
        for c in chars {
            switch c {
            case "0"..."9", ".":
                current.unicodeScalars.append(c)
            case "d", "D", "°", "º":
                usedMarks = true
                if usedColon || !flush(0) { return .failure(AngleError(message: "Illegal DMS string \(text)")) }
            case "'", "′", "’":
                usedMarks = true
                if usedColon || !flush(1) { return .failure(AngleError(message: "Illegal DMS string \(text)")) }
            case "\"", "″", "”":
                usedMarks = true
                if usedColon || !flush(2) { return .failure(AngleError(message: "Illegal DMS string \(text)")) }
            case ":":
                usedColon = true
                if usedMarks || !flush(unitIndex) { return .failure(AngleError(message: "Illegal DMS string \(text)")) }
            default:
                return .failure(AngleError(message: "Illegal character \(c) in DMS string \(text)"))
            }
        }
        if !current.isEmpty {
            if !flush(unitIndex) { return .failure(AngleError(message: "Illegal DMS string \(text)")) }
        }
        if components == 0 { return .failure(AngleError(message: "Illegal DMS string \(text)")) }
        return .success(sign * total)
    }
}
