import Foundation
import MapRender
import StreetSceneRender
import XCTest

/// Meshes for the tests: boxes and quads, in the scene's frame (x east, y north, z up).
enum TestMeshes {
    typealias Colour = (red: UInt8, green: UInt8, blue: UInt8)

    /// An axis-aligned box from `min` to `max`, outward normals, each face its own four vertices.
    static func box(min: SIMD3<Float>, max: SIMD3<Float>, colour: Colour, alpha: UInt8 = 255,
                    material: SceneMaterial = .plain, into mesh: inout SceneMesh) {
        let faces: [(normal: SIMD3<Float>, corners: [SIMD3<Float>])] = [
            (SIMD3(0, -1, 0), [SIMD3(min.x, min.y, min.z), SIMD3(max.x, min.y, min.z), SIMD3(max.x, min.y, max.z), SIMD3(min.x, min.y, max.z)]),
            (SIMD3(0, 1, 0), [SIMD3(max.x, max.y, min.z), SIMD3(min.x, max.y, min.z), SIMD3(min.x, max.y, max.z), SIMD3(max.x, max.y, max.z)]),
            (SIMD3(-1, 0, 0), [SIMD3(min.x, max.y, min.z), SIMD3(min.x, min.y, min.z), SIMD3(min.x, min.y, max.z), SIMD3(min.x, max.y, max.z)]),
            (SIMD3(1, 0, 0), [SIMD3(max.x, min.y, min.z), SIMD3(max.x, max.y, min.z), SIMD3(max.x, max.y, max.z), SIMD3(max.x, min.y, max.z)]),
            (SIMD3(0, 0, 1), [SIMD3(min.x, min.y, max.z), SIMD3(max.x, min.y, max.z), SIMD3(max.x, max.y, max.z), SIMD3(min.x, max.y, max.z)]),
            (SIMD3(0, 0, -1), [SIMD3(min.x, max.y, min.z), SIMD3(max.x, max.y, min.z), SIMD3(max.x, min.y, min.z), SIMD3(min.x, min.y, min.z)]),
        ]
        for face in faces {
            // u runs along the face's bottom edge, v up from the ground (what a facade expects).
            let along = face.corners[1] - face.corners[0]
            let length = (along * along).sum().squareRoot()
            let uv: [(Float, Float)] = [(0, face.corners[0].z), (length, face.corners[1].z),
                                        (length, face.corners[2].z), (0, face.corners[3].z)]
            let vertices = zip(face.corners, uv).map { corner, uv in
                SceneVertex(x: corner.x, y: corner.y, z: corner.z, nx: face.normal.x, ny: face.normal.y, nz: face.normal.z,
                            red: colour.red, green: colour.green, blue: colour.blue, alpha: alpha,
                            u: uv.0, v: uv.1, material: material)
            }
            mesh.append(vertices: vertices, indices: [0, 1, 2, 0, 2, 3])
        }
    }

    /// The red box 10 m north of the origin, 4 m wide and tall: its south face fills the middle of
    /// a camera at (0, 0, 1.5) looking north.
    static func redBox() -> SceneMesh {
        var mesh = SceneMesh()
        box(min: SIMD3(-2, 10, 0), max: SIMD3(2, 11, 4), colour: (200, 60, 40), into: &mesh)
        return mesh
    }

    /// A label quad facing south at `y`, 2 m wide, from z = 1 to 2, atlas coordinates 0…1.
    static func labelQuad(y: Float, tint: Colour = (255, 255, 255)) -> [SceneVertex] {
        let corners: [(x: Float, z: Float, u: Float, v: Float)] = [(-1, 1, 0, 1), (1, 1, 1, 1), (1, 2, 1, 0), (-1, 2, 0, 0)]
        return corners.map { c in
            SceneVertex(x: c.x, y: y, z: c.z, nx: 0, ny: -1, nz: 0, red: tint.red, green: tint.green, blue: tint.blue,
                        u: c.u, v: c.v, material: .label)
        }
    }
}

final class SceneRasterizerTests: XCTestCase {
    func camera(heading: Double = 0, pitch: Double = 0, width: Int = 320, height: Int = 240) -> SceneCamera {
        SceneCamera(x: 0, y: 0, z: 1.5, heading: heading, pitch: pitch, fieldOfView: 90, width: width, height: height)
    }

    // The shading the shaders document, recomputed here in double precision.
    static func linear(_ c: Double) -> Double { c * c }
    static func srgb(_ c: Double) -> Double { min(max(c, 0), 1).squareRoot() * 255 }
    static func linear(_ c: SIMD3<Float>) -> SIMD3<Double> { SIMD3(linear(Double(c.x)), linear(Double(c.y)), linear(Double(c.z))) }

    /// The lit colour of an albedo on a face with `normal`, without fog (near the eye).
    static func litColour(_ colour: TestMeshes.Colour, normal: SIMD3<Double>, lighting: SceneLighting) -> SIMD3<Double> {
        let albedo = SIMD3(linear(Double(colour.red) / 255), linear(Double(colour.green) / 255), linear(Double(colour.blue) / 255))
        let sun = max(0, (normal * lighting.sunDirection).sum())
        let skyWeight = 0.5 + 0.5 * normal.z
        let hemisphere = linear(lighting.groundColor) * Double(lighting.skyLightIntensity) * (1 - skyWeight)
            + linear(lighting.skyZenithColor) * Double(lighting.skyLightIntensity) * skyWeight
        let light = linear(lighting.sunColor) * Double(lighting.sunIntensity) * sun
            + linear(lighting.ambientColor) * Double(lighting.ambientIntensity) + hemisphere
        let c = albedo * light
        return SIMD3(srgb(c.x), srgb(c.y), srgb(c.z))
    }

    /// The sky's colour in direction `d`, away from the sun (its glow negligible).
    static func skyColour(_ d: SIMD3<Double>, lighting: SceneLighting) -> SIMD3<Double> {
        let t = min(max(d.z, 0), 1).squareRoot()
        let c = linear(lighting.skyHorizonColor) * (1 - t) + linear(lighting.skyZenithColor) * t
        return SIMD3(srgb(c.x), srgb(c.y), srgb(c.z))
    }

    static func assertColour(_ pixel: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8), _ expected: SIMD3<Double>,
                             tolerance: Double, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        let got = SIMD3(Double(pixel.red), Double(pixel.green), Double(pixel.blue))
        let worst = max(abs(got.x - expected.x), abs(got.y - expected.y), abs(got.z - expected.z))
        XCTAssertLessThanOrEqual(worst, tolerance, "\(message): got \(got), expected \(expected)", file: file, line: line)
        XCTAssertEqual(pixel.alpha, 255, "\(message): alpha", file: file, line: line)
    }

    /// Pixels that look like the red box (any shade of it): red well above green and blue.
    static func reddishCount(_ image: SceneImage) -> Int {
        stride(from: 0, to: image.pixels.count, by: 4).count { (i: Int) -> Bool in
            let red = Int(image.pixels[i]), green = Int(image.pixels[i + 1]), blue = Int(image.pixels[i + 2])
            return red > 2 * green && red > 2 * blue
        }
    }

    /// Pixels that look like sky: blue above red and green.
    static func skyCount(_ image: SceneImage) -> Int {
        stride(from: 0, to: image.pixels.count, by: 4).count { (i: Int) -> Bool in
            image.pixels[i + 2] > image.pixels[i] && image.pixels[i + 2] > image.pixels[i + 1]
        }
    }

    /// The unit direction through the centre of pixel `x`, `y` of `camera`.
    static func direction(x: Int, y: Int, camera: SceneCamera) -> SIMD3<Double> {
        let tangent = tan(camera.fieldOfView * .pi / 360)
        let ndcX = (Double(x) + 0.5) / Double(camera.width) * 2 - 1
        let ndcY = 1 - (Double(y) + 0.5) / Double(camera.height) * 2
        let d = camera.forward + camera.right * (ndcX * tangent)
            + camera.up * (ndcY * tangent * Double(camera.height) / Double(camera.width))
        return d / (d * d).sum().squareRoot()
    }

    func testBoxAheadHasItsLitColourAndSkyAbove() throws {
        let rasterizer = try SceneRasterizer()
        let lighting = SceneLighting.daylight
        let image = try rasterizer.render(TestMeshes.redBox(), labelAtlas: nil, camera: camera(), lighting: lighting)
        XCTAssertEqual(image.width, 320)
        XCTAssertEqual(image.height, 240)
        XCTAssertEqual(image.pixels.count, 320 * 240 * 4)
        let expected = Self.litColour((200, 60, 40), normal: SIMD3(0, -1, 0), lighting: lighting)
        Self.assertColour(image.pixel(x: 160, y: 120), expected, tolerance: 3, "box face at the centre")
        // The top row looks 36.9° up (tan = 0.75), far above the box's top at 13.5°.
        Self.assertColour(image.pixel(x: 160, y: 0), Self.skyColour(Self.direction(x: 160, y: 0, camera: camera()), lighting: lighting),
                          tolerance: 3, "sky at the top")
        // The bottom row looks below the horizon, with nothing there: the horizon's (fog) colour.
        Self.assertColour(image.pixel(x: 5, y: 239), Self.skyColour(SIMD3(0, 1, -0.5), lighting: lighting), tolerance: 3, "fog below the horizon")
    }

    func testFogFadesFarGeometryIntoTheHorizon() throws {
        let rasterizer = try SceneRasterizer()
        let lighting = SceneLighting.daylight
        var far = SceneMesh()
        // A dark wall 1300 m north (past the fog's end at 1200 m), 200 m tall: the horizon colour.
        TestMeshes.box(min: SIMD3(-2000, 1300, -50), max: SIMD3(2000, 1310, 200), colour: (20, 20, 20), into: &far)
        let image = try rasterizer.render(far, labelAtlas: nil, camera: camera(), lighting: lighting)
        let horizon = Self.skyColour(Self.direction(x: 100, y: 119, camera: camera()), lighting: lighting)
        Self.assertColour(image.pixel(x: 100, y: 119), horizon, tolerance: 3, "fogged wall")
        // The same wall at 600 m is partly fogged: lighter than itself, darker than the horizon.
        var mid = SceneMesh()
        TestMeshes.box(min: SIMD3(-2000, 600, -50), max: SIMD3(2000, 610, 200), colour: (20, 20, 20), into: &mid)
        let partly = try rasterizer.render(mid, labelAtlas: nil, camera: camera(), lighting: lighting).pixel(x: 100, y: 119)
        XCTAssertGreaterThan(partly.green, 60)
        XCTAssertLessThan(Double(partly.green), horizon.y - 30)
    }

    func testHeadingTurnsTheBoxOutOfView() throws {
        let rasterizer = try SceneRasterizer()
        let north = try rasterizer.render(TestMeshes.redBox(), labelAtlas: nil, camera: camera(heading: 0), lighting: .daylight)
        let south = try rasterizer.render(TestMeshes.redBox(), labelAtlas: nil, camera: camera(heading: 180), lighting: .daylight)
        // 4 m square at 10 m with a 90° field of view: 64 × 64 pixels.
        XCTAssertEqual(Double(Self.reddishCount(north)), 64 * 64, accuracy: 200, "the box's face in the northward view")
        XCTAssertEqual(Self.reddishCount(south), 0, "the box is behind a southward camera")
        // East: the box spans 11° either side of north, outside a 90° view centred on east.
        let east = try rasterizer.render(TestMeshes.redBox(), labelAtlas: nil, camera: camera(heading: 90), lighting: .daylight)
        XCTAssertEqual(Self.reddishCount(east), 0)
        // Turned 30° to the right, the box is in the left half.
        let turned = try rasterizer.render(TestMeshes.redBox(), labelAtlas: nil, camera: camera(heading: 30), lighting: .daylight)
        let left = turned.pixel(x: 80, y: 120), right = turned.pixel(x: 240, y: 120)
        XCTAssertGreaterThan(Int(left.red), 2 * Int(left.green), "box on the left when turned right")
        XCTAssertGreaterThan(right.blue, right.red, "sky on the right when turned right")
    }

    func testPitchingUpShowsMoreSky() throws {
        let rasterizer = try SceneRasterizer()
        // The box on a green ground 400 m square.
        var mesh = TestMeshes.redBox()
        let ground: [SceneVertex] = [(-200, -200), (200, -200), (200, 200), (-200, 200)].map { (x: Float, y: Float) in
            SceneVertex(x: x, y: y, z: 0, nx: 0, ny: 0, nz: 1, red: 70, green: 140, blue: 50)
        }
        mesh.append(vertices: ground, indices: [0, 1, 2, 0, 2, 3])
        let level = try rasterizer.render(mesh, labelAtlas: nil, camera: camera(pitch: 0), lighting: .daylight)
        let raised = try rasterizer.render(mesh, labelAtlas: nil, camera: camera(pitch: 30), lighting: .daylight)
        let lowered = try rasterizer.render(mesh, labelAtlas: nil, camera: camera(pitch: -30), lighting: .daylight)
        XCTAssertGreaterThan(Self.skyCount(raised), Self.skyCount(level) + 320 * 240 / 10)
        XCTAssertLessThan(Self.skyCount(lowered), Self.skyCount(level))
        // Looking up, the box sinks to the bottom of the image.
        let top = raised.pixel(x: 160, y: 20), bottom = raised.pixel(x: 160, y: 230)
        XCTAssertGreaterThan(top.blue, top.red)
        XCTAssertGreaterThan(Int(bottom.red), 2 * Int(bottom.green))
    }

    func testRendersAreDeterministic() throws {
        let rasterizer = try SceneRasterizer()
        var mesh = TestMeshes.redBox()
        TestMeshes.box(min: SIMD3(-12, 20, 0), max: SIMD3(-4, 30, 15), colour: (210, 190, 160), material: .facade, into: &mesh)
        TestMeshes.box(min: SIMD3(4, 25, 0), max: SIMD3(12, 35, 20), colour: (90, 110, 130), material: .glossy, into: &mesh)
        mesh.appendLabel(vertices: TestMeshes.labelQuad(y: 9.9), indices: [0, 1, 2, 0, 2, 3])
        let atlas = SceneLabelAtlas(width: 2, height: 2, pixels: [255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255])
        let view = camera(heading: 10, pitch: 5)
        let first = try rasterizer.render(mesh, labelAtlas: atlas, camera: view, lighting: .daylight)
        let second = try rasterizer.render(mesh, labelAtlas: atlas, camera: view, lighting: .daylight)
        XCTAssertEqual(first.pixels, second.pixels, "same input, same bytes")
        // A second rasteriser (its own context) gives the same bytes too.
        let other = try SceneRasterizer().render(mesh, labelAtlas: atlas, camera: view, lighting: .daylight)
        XCTAssertEqual(first.pixels, other.pixels)
        // A different input changes the bytes (the comparison can fail).
        let moved = try rasterizer.render(mesh, labelAtlas: atlas, camera: camera(heading: 11, pitch: 5), lighting: .daylight)
        XCTAssertNotEqual(first.pixels, moved.pixels)
    }

    func testFacadeHasDarkWindows() throws {
        let rasterizer = try SceneRasterizer()
        // A 30 m wide, 12 m tall pale wall 15 m ahead, facing the camera: four levels of windows.
        var mesh = SceneMesh()
        TestMeshes.box(min: SIMD3(-15, 15, 0), max: SIMD3(15, 16, 12), colour: (220, 210, 190), material: .facade, into: &mesh)
        let image = try rasterizer.render(mesh, labelAtlas: nil, camera: camera(pitch: 15, width: 320, height: 240), lighting: .daylight)
        let wall = Self.litColour((220, 210, 190), normal: SIMD3(0, -1, 0), lighting: .daylight)
        var dark = 0, plain = 0
        for y in 0..<240 {
            for x in 0..<320 {
                let p = image.pixel(x: x, y: y)
                if Double(p.green) < wall.y * 0.5 { dark += 1 }
                if abs(Double(p.green) - wall.y) < 4 { plain += 1 }
            }
        }
        XCTAssertGreaterThan(dark, 320 * 240 / 20, "windows")
        XCTAssertGreaterThan(plain, 320 * 240 / 5, "wall between them")
        // Alpha 0 asks for a blank wall: no windows.
        var blank = SceneMesh()
        TestMeshes.box(min: SIMD3(-15, 15, 0), max: SIMD3(15, 16, 12), colour: (220, 210, 190), alpha: 0, material: .facade, into: &blank)
        let blankImage = try rasterizer.render(blank, labelAtlas: nil, camera: camera(pitch: 15), lighting: .daylight)
        Self.assertColour(blankImage.pixel(x: 160, y: 120), wall, tolerance: 3, "blank facade")
    }

    func testLabelQuadShowsTheAtlasColour() throws {
        let rasterizer = try SceneRasterizer()
        var mesh = TestMeshes.redBox()
        mesh.appendLabel(vertices: TestMeshes.labelQuad(y: 9.95), indices: [0, 1, 2, 0, 2, 3])
        let green = SceneLabelAtlas(width: 4, height: 4, pixels: Array(repeating: [0, 255, 0, 255], count: 16).flatMap { $0 })
        let image = try rasterizer.render(mesh, labelAtlas: green, camera: camera(), lighting: .daylight)
        // The quad spans z 1 … 2 at 9.95 m: the centre pixel (z 1.5) is on it; unlit, so pure green.
        Self.assertColour(image.pixel(x: 160, y: 120), SIMD3(0, 255, 0), tolerance: 2, "label at the centre")
        // Below the quad (z under 1 m, over 0) the box shows again.
        let below = image.pixel(x: 160, y: 138)
        XCTAssertGreaterThan(Int(below.red), 2 * Int(below.green))
        // A tint multiplies the atlas: a white atlas tinted blue is blue.
        var tinted = TestMeshes.redBox()
        tinted.appendLabel(vertices: TestMeshes.labelQuad(y: 9.95, tint: (20, 40, 230)), indices: [0, 1, 2, 0, 2, 3])
        let white = SceneLabelAtlas(width: 1, height: 1, pixels: [255, 255, 255, 255])
        Self.assertColour(try rasterizer.render(tinted, labelAtlas: white, camera: camera(), lighting: .daylight).pixel(x: 160, y: 120),
                          SIMD3(20, 40, 230), tolerance: 2, "tinted label")
        // A half-transparent atlas: half label, half box.
        let half = SceneLabelAtlas(width: 1, height: 1, pixels: [0, 255, 0, 128])
        let blended = try rasterizer.render(mesh, labelAtlas: half, camera: camera(), lighting: .daylight).pixel(x: 160, y: 120)
        let box = Self.litColour((200, 60, 40), normal: SIMD3(0, -1, 0), lighting: .daylight)
        Self.assertColour(blended, box * (127.0 / 255) + SIMD3(0, 128, 0), tolerance: 3, "half-transparent label")
        // Without an atlas, labels are not drawn.
        let bare = try rasterizer.render(mesh, labelAtlas: nil, camera: camera(), lighting: .daylight)
        Self.assertColour(bare.pixel(x: 160, y: 120), box, tolerance: 3, "no atlas, no label")
    }

    func testSizeAndInputErrors() throws {
        let rasterizer = try SceneRasterizer()
        let mesh = TestMeshes.redBox()
        XCTAssertThrowsError(try rasterizer.render(mesh, labelAtlas: nil, camera: camera(width: 0, height: 10), lighting: .daylight)) {
            XCTAssertEqual($0 as? SceneRenderError, .invalidSize(width: 0, height: 10))
        }
        XCTAssertThrowsError(try rasterizer.render(mesh, labelAtlas: nil, camera: camera(width: 10, height: -1), lighting: .daylight)) {
            XCTAssertEqual($0 as? SceneRenderError, .invalidSize(width: 10, height: -1))
        }
        XCTAssertThrowsError(try rasterizer.render(mesh, labelAtlas: nil, camera: camera(width: 5000, height: 10), lighting: .daylight)) {
            XCTAssertEqual($0 as? SceneRenderError, .invalidSize(width: 5000, height: 10))
            XCTAssertTrue(String(describing: $0).contains("4096"))
        }
        var broken = mesh
        broken.indices.append(contentsOf: [0, 1, 999])
        XCTAssertThrowsError(try rasterizer.render(broken, labelAtlas: nil, camera: camera(), lighting: .daylight)) {
            guard case .invalidInput(let detail)? = $0 as? SceneRenderError else { return XCTFail("\($0)") }
            XCTAssertTrue(detail.contains("999"), detail)
        }
        let shortAtlas = SceneLabelAtlas(width: 2, height: 2, pixels: [0, 0, 0, 0])
        XCTAssertThrowsError(try rasterizer.render(mesh, labelAtlas: shortAtlas, camera: camera(), lighting: .daylight))
        var wide = camera()
        wide.fieldOfView = 180
        XCTAssertThrowsError(try rasterizer.render(mesh, labelAtlas: nil, camera: wide, lighting: .daylight))
        // The cap itself draws, and the rasteriser still works after the errors.
        let edge = try rasterizer.render(mesh, labelAtlas: nil, camera: camera(width: 4096, height: 8), lighting: .daylight)
        XCTAssertEqual(edge.pixels.count, 4096 * 8 * 4)
        let after = try rasterizer.render(mesh, labelAtlas: nil, camera: camera(), lighting: .daylight)
        XCTAssertGreaterThan(Self.reddishCount(after), 1000)
    }

    /// Pixels between the red face's colour and the sky's along the diagonal edge of one large triangle.
    func edgePixels(_ rasterizer: SceneRasterizer) throws -> Int {
        var mesh = SceneMesh()
        let corners: [SIMD3<Float>] = [SIMD3(-20, 10, -20), SIMD3(20, 10, -20), SIMD3(-20, 10, 20)]
        mesh.append(vertices: corners.map {
            SceneVertex(x: $0.x, y: $0.y, z: $0.z + 1.5, nx: 0, ny: -1, nz: 0, red: 200, green: 60, blue: 40)
        }, indices: [0, 1, 2])
        let image = try rasterizer.render(mesh, labelAtlas: nil, camera: camera(), lighting: .daylight)
        let face = Self.litColour((200, 60, 40), normal: SIMD3(0, -1, 0), lighting: .daylight)
        // Each row crosses the diagonal edge once; pixels on it mix the face and the sky.
        var mixed = 0
        for y in 20..<220 {
            for x in 0..<320 {
                let green = Double(image.pixel(x: x, y: y).green)
                // The face's green is about 70, the sky's above 180: colours between are edge pixels.
                if green > face.y + 20, green < 160 { mixed += 1 }
            }
        }
        return mixed
    }

    func testEdgesAreAntialiased() throws {
        let rasterizer = try SceneRasterizer()
        XCTAssertEqual(rasterizer.samples, 4)
        let mixed = try edgePixels(rasterizer)
        XCTAssertGreaterThanOrEqual(mixed, 100, "a 200-row diagonal edge has intermediate pixels with 4× MSAA")
        XCTAssertLessThan(mixed, 1000, "only the edge is mixed")
        // Without multisampling the same edge is hard: the count above measures antialiasing.
        let aliased = try SceneRasterizer(samples: 1)
        XCTAssertEqual(aliased.samples, 1)
        XCTAssertLessThan(try edgePixels(aliased), 10)
    }

    func testPNGData() throws {
        let image = try SceneRasterizer().render(TestMeshes.redBox(), labelAtlas: nil, camera: camera(width: 64, height: 48), lighting: .daylight)
        let png = try image.pngData()
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let decoded = try RenderImage(png: png)
        XCTAssertEqual(decoded.width, 64)
        XCTAssertEqual(decoded.height, 48)
        let canvas = try image.canvas()
        XCTAssertEqual(canvas.rgbaPixels(), image.pixels, "opaque pixels survive the canvas unchanged")
        XCTAssertThrowsError(try RenderCanvas(pixelWidth: 2, pixelHeight: 2, rgba: [1, 2, 3]))
    }

    func testRendersFromSeveralThreads() throws {
        let rasterizer = try SceneRasterizer()
        let view = camera(width: 64, height: 48)
        let reference = try rasterizer.render(TestMeshes.redBox(), labelAtlas: nil, camera: view, lighting: .daylight)
        let images = NSLock()
        nonisolated(unsafe) var rendered: [SceneImage] = []
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if let image = try? rasterizer.render(TestMeshes.redBox(), labelAtlas: nil, camera: view, lighting: .daylight) {
                images.withLock { rendered.append(image) }
            }
        }
        XCTAssertEqual(rendered.count, 4)
        for image in rendered { XCTAssertEqual(image.pixels, reference.pixels) }
    }
}
