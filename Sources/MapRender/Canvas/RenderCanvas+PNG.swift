import CCairo
import Foundation
import MapFormats
import Synchronization

extension RenderCanvas {
    /// The canvas as a PNG file, encoded for speed rather than size: what a tile server or a
    /// benchmark wants per image.
    ///
    /// Cairo's writer (``pngData()``) lets libpng try every row filter and deflate at level 6,
    /// which takes longer than drawing a typical map. Here every row uses the "up" filter (map
    /// images are mostly flat areas and straight edges, so it leaves long runs of zeros),
    /// libdeflate compresses at `level` (1 fastest … 9 smallest), and an opaque canvas is written
    /// as RGB, a quarter less data. The pixels are the same as ``pngData()``'s: straight (not
    /// premultiplied) 8-bit RGB(A). Large images are converted on up to `threads` threads.
    public func fastPNGData(level: Int32 = 1, threads: Int = ProcessInfo.processInfo.activeProcessorCount) throws(RenderError) -> [UInt8] {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { throw RenderError("cannot encode PNG: no pixel data") }
        let rowStride = Int(cairo_image_surface_get_stride(surface))
        let width = pixelWidth, height = pixelHeight
        // Rows are converted and filtered in bands, one per thread; libdeflate then compresses
        // the whole at once (one thread of it beats zlib on two).
        let bandCount = max(1, min(threads, height / 64))
        let bands = Self.rowBands(height: height, count: bandCount)
        // One band runs here: libdispatch's apply, called from a thread it did not make, leaves
        // that thread a continuation cache that is freed under it when the thread exits.
        func forEachBand(_ body: @Sendable (Int) -> Void) {
            if bandCount == 1 { body(0) } else { DispatchQueue.concurrentPerform(iterations: bandCount, execute: body) }
        }
        nonisolated(unsafe) let pixels = UnsafeRawPointer(data)
        // ARGB32 is a native-endian 32-bit word per pixel, colour premultiplied by alpha.
        @Sendable func word(_ x: Int, _ y: Int) -> UInt32 { (pixels + y * rowStride + x * 4).loadUnaligned(as: UInt32.self) }
        let translucentBands = Mutex(0)
        forEachBand { band in
            for y in bands[band] {
                for x in 0..<width where word(x, y) >> 24 != 0xFF {
                    translucentBands.withLock { $0 += 1 }
                    return
                }
            }
        }
        let opaque = translucentBands.withLock { $0 } == 0
        let channels = opaque ? 3 : 4
        let rowBytes = 1 + width * channels
        var raw = [UInt8](repeating: 0, count: rowBytes * height)
        raw.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let out = buffer
            // Straight (not premultiplied) RGB(A), each row behind its filter byte.
            forEachBand { band in
                for y in bands[band] {
                    let row = y * rowBytes
                    out[row] = y == 0 ? 0 : 2  // filter: none for the first row, then "up"
                    var i = row + 1
                    for x in 0..<width {
                        let w = word(x, y)
                        let a = Int(w >> 24)
                        var r = Int(w >> 16 & 0xFF), g = Int(w >> 8 & 0xFF), b = Int(w & 0xFF)
                        if a != 255, a != 0 {
                            r = min(255, (r * 255 + a / 2) / a)
                            g = min(255, (g * 255 + a / 2) / a)
                            b = min(255, (b * 255 + a / 2) / a)
                        }
                        out[i] = UInt8(r); out[i + 1] = UInt8(g); out[i + 2] = UInt8(b)
                        if channels == 4 { out[i + 3] = UInt8(a) }
                        i += channels
                    }
                }
            }
            // "Up" subtracts the unfiltered byte above, so each band works bottom-up, and its top
            // row uses a copy of the row above it, which the band above may be filtering.
            let rowsAbove: [[UInt8]] = bands.map { rows in
                rows.lowerBound == 0 ? [] : Array(out[(rows.lowerBound - 1) * rowBytes + 1..<rows.lowerBound * rowBytes])
            }
            forEachBand { band in
                for y in bands[band].reversed() where y > 0 {
                    let row = y * rowBytes + 1
                    if y == bands[band].lowerBound {
                        let above = rowsAbove[band]
                        for i in 0..<(rowBytes - 1) { out[row + i] = out[row + i] &- above[i] }
                    } else {
                        let above = row - rowBytes
                        for i in 0..<(rowBytes - 1) { out[row + i] = out[row + i] &- out[above + i] }
                    }
                }
            }
        }
        let compressed: [UInt8]
        do {
            compressed = try raw.withUnsafeBytes { bytes throws(CompressionError) in
                try Compression.wholeBufferZlibDeflate(bytes, level: min(max(level, 0), 9))
            }
        } catch {
            throw RenderError("cannot encode PNG: \(error)")
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(compressed.count + 64)
        func chunk(_ type: String, _ body: [UInt8]) {
            let typed = Array(type.utf8) + body
            png += bigEndian(UInt32(body.count)) + typed + bigEndian(Compression.crc32(typed))
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        // IHDR: size, 8 bits per channel, colour type 2 (RGB) or 6 (RGBA), deflate, adaptive filtering, no interlace.
        chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, opaque ? 2 : 6, 0, 0, 0])
        chunk("IDAT", compressed)
        chunk("IEND", [])
        return png
    }
}
