import Foundation

/// An Xvfb server on a display number nobody uses, for the tests that open a real window
/// (`openmapkit view`, MapWindow); xdotool drives it and xwd reads its screen.
public final class VirtualDisplay {
    public let name: String
    private let server = Process()

    /// Starts Xvfb with one screen of `screen` (WIDTHxHEIGHTxDEPTH).
    public init(screen: String = "1200x800x24") throws {
        let number = (90..<190).first { !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock")
            && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") } ?? 189
        name = ":\(number)"
        server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        server.arguments = [name, "-screen", "0", screen, "-nolisten", "tcp"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
            guard Date() < deadline, server.isRunning else { throw DisplayFailure("Xvfb did not start on \(name)") }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    public func xdotool(_ arguments: [String]) throws -> String {
        let result = try runProcess("/usr/bin/env", ["DISPLAY=\(name)", "xdotool"] + arguments)
        guard result.status == 0 else { throw DisplayFailure("xdotool \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The whole screen, from xwd's dump (read here: a header of big-endian words, a colour
    /// map, then rows of pixels).
    public func screenshot() throws -> XWDImage {
        let result = try runProcess("/usr/bin/env", ["xwd", "-root", "-silent", "-display", name])
        guard result.status == 0 else { throw DisplayFailure("xwd: \(result.stderr)") }
        return try XWDImage(result.standardOutput)
    }

    public func stop() {
        if server.isRunning { server.terminate() }
        server.waitUntilExit()
    }
}

/// A ZPixmap X window dump with 24 or 32 bits per pixel.
public struct XWDImage {
    public let data: Data
    public let width: Int, height: Int
    private let bytes: [UInt8]
    private let offset: Int, bytesPerLine: Int, bytesPerPixel: Int, littleEndian: Bool
    private let masks: (UInt32, UInt32, UInt32)

    public init(_ data: Data) throws {
        self.data = data
        let bytes = [UInt8](data)
        self.bytes = bytes
        func word(_ i: Int) -> UInt32 { bytes[i * 4..<i * 4 + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        guard bytes.count >= 100, word(1) == 7, word(2) == 2, word(11) == 32 || word(11) == 24 else {
            throw DisplayFailure("not a 24- or 32-bit ZPixmap XWD dump: \(bytes.count) bytes, header \((0..<min(12, bytes.count / 4)).map { word($0) })")
        }
        width = Int(word(4))
        height = Int(word(5))
        littleEndian = word(7) == 0
        bytesPerPixel = Int(word(11)) / 8
        bytesPerLine = Int(word(12))
        masks = (word(14), word(15), word(16))
        offset = Int(word(0)) + Int(word(19)) * 12
        guard offset + bytesPerLine * height <= bytes.count else { throw DisplayFailure("truncated XWD dump") }
    }

    public func pixel(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let i = offset + y * bytesPerLine + x * bytesPerPixel
        let b = bytes[i..<i + bytesPerPixel]
        let value = littleEndian ? b.reversed().reduce(0) { $0 << 8 | UInt32($1) } : b.reduce(0) { $0 << 8 | UInt32($1) }
        func channel(_ mask: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: (value & mask) >> UInt32(mask.trailingZeroBitCount)) }
        return (channel(masks.0), channel(masks.1), channel(masks.2))
    }
}

/// Why the virtual display or a tool on it failed.
public struct DisplayFailure: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
