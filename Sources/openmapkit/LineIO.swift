import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Fast line-oriented standard I/O for the filter verbs (`geodesic`, `mappoint`), which are
// benchmarked as whole processes against GeodSolve and PROJ: big reads, no String per line,
// one output buffer.

/// Calls `body` for every line of standard input (without its newline), numbered from 1, with
/// the shared output buffer; flushes the buffer at the end. A last line without a newline counts.
func streamStandardInputLines(_ body: (UnsafeBufferPointer<UInt8>, Int, inout OutputBuffer) -> Void) {
    var output = OutputBuffer()
    var lineNumber = 0
    var pending: [UInt8] = []       // an incomplete line carried over between chunks
    let chunkSize = 1 << 20
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { chunk.deallocate() }
    while true {
        let count = read(0, chunk.baseAddress, chunkSize)
        if count < 0 {
            if errno == EINTR { continue }
            break
        }
        if count == 0 { break }
        let bytes = UnsafeRawBufferPointer(rebasing: chunk[0..<count]).bindMemory(to: UInt8.self)
        var start = 0
        while let newline = bytes[start...].firstIndex(of: 10) {
            lineNumber += 1
            if pending.isEmpty {
                body(UnsafeBufferPointer(rebasing: bytes[start..<newline]), lineNumber, &output)
            } else {
                pending.append(contentsOf: bytes[start..<newline])
                pending.withUnsafeBufferPointer { body($0, lineNumber, &output) }
                pending.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
        if start < count { pending.append(contentsOf: bytes[start..<count]) }
    }
    if !pending.isEmpty {
        lineNumber += 1
        pending.withUnsafeBufferPointer { body($0, lineNumber, &output) }
    }
    output.flush()
}

/// Buffered standard output with a fast fixed-point formatter that prints exactly what
/// printf("%.*f") prints (it falls back to vsnprintf in the rare cases near a rounding tie).
struct OutputBuffer {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1 << 17) }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }
    mutating func append(_ s: String) { bytes.append(contentsOf: s.utf8) }

    mutating func appendFixed(_ x: Double, _ decimals: Int) {
        if x.isNaN { append("nan"); return }
        if x.isInfinite { append(x < 0 ? "-inf" : "inf"); return }
        let y = abs(x) * NumberScanner.power(decimals)
        let r = y.rounded()
        // y carries a rounding error below one ulp; only trust the rounding if y is clearly away from a tie.
        if y < 1e15 && abs((y - y.rounded(.down)) - 0.5) > 4 * y.ulp + 1e-300 && r < 1e15 {
            if x.sign == .minus { bytes.append(45) }
            let n = UInt64(r)
            let scale = UInt64(NumberScanner.power(decimals))
            appendInteger(n / scale)
            if decimals > 0 {
                bytes.append(46)
                var fraction = n % scale
                let base = bytes.count
                bytes.append(contentsOf: repeatElement(48, count: decimals))
                var k = base + decimals - 1
                while fraction > 0 {
                    bytes[k] = UInt8(48 + fraction % 10)
                    fraction /= 10
                    k -= 1
                }
            }
        } else {
            var buffer = [CChar](repeating: 0, count: 400)
            let length = buffer.withUnsafeMutableBufferPointer { b in
                guard let base = b.baseAddress else { return Int32(0) }
                return withVaList([Int32(decimals), x]) { vsnprintf(base, 400, "%.*f", $0) }
            }
            for k in 0..<Int(max(0, min(length, 399))) { bytes.append(UInt8(bitPattern: buffer[k])) }
        }
        if bytes.count >= 1 << 16 { flush() }
    }

    private mutating func appendInteger(_ value: UInt64) {
        if value == 0 { bytes.append(48); return }
        var v = value
        var tmp: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                  UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &tmp) { t in
            while v > 0 {
                t[count] = UInt8(48 + v % 10)
                v /= 10
                count += 1
            }
            for k in stride(from: count - 1, through: 0, by: -1) { bytes.append(t[k]) }
        }
    }

    mutating func flush() {
        bytes.withUnsafeBytes { b in
            guard let base = b.baseAddress else { return }
            var offset = 0
            while offset < b.count {
                let written = write(1, base + offset, b.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
