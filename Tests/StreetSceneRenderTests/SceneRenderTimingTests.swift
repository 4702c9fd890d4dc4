import Foundation
import StreetSceneRender
import XCTest

final class SceneRenderTimingTests: XCTestCase {
    /// A city of boxes: 134 × 134 buildings 7 m square every 9 m (215k triangles, windows on their
    /// walls), seen from a 2 m alley between them at 640 × 480. Prints the time per frame; asserts
    /// only a generous bound, since test machines are shared.
    func testRenderTimeOfACityBlock() throws {
        var mesh = SceneMesh()
        for i in -67..<67 {
            for j in -67..<67 {
                let x = Float(i) * 9, y = Float(j) * 9
                let height = Float(6 + (i * 7 + j * 13) & 15)
                let shade = UInt8(150 + ((i * 31 + j * 17) & 63))
                TestMeshes.box(min: SIMD3(x - 3.5, y - 3.5, 0), max: SIMD3(x + 3.5, y + 3.5, height),
                               colour: (shade, shade - 10, shade - 30), material: .facade, into: &mesh)
            }
        }
        let camera = SceneCamera(x: 4.5, y: 0, z: 2.5, heading: 20, pitch: 5, fieldOfView: 90, width: 640, height: 480)
        XCTAssertGreaterThan(mesh.triangleCount, 200_000)
        for samples in [4, 1] {
            let rasterizer = try SceneRasterizer(samples: samples)
            _ = try rasterizer.render(mesh, labelAtlas: nil, camera: camera, lighting: .daylight)   // makes the framebuffers
            let frames = 5
            let start = Date()
            for _ in 0..<frames { _ = try rasterizer.render(mesh, labelAtlas: nil, camera: camera, lighting: .daylight) }
            let perFrame = Date().timeIntervalSince(start) / Double(frames)
            print("SceneRasterizer: 640 × 480, \(samples) sample(s), \(mesh.triangleCount) triangles (\(mesh.vertices.count) vertices): \(String(format: "%.1f", perFrame * 1000)) ms a frame")
            XCTAssertLessThan(perFrame, 2, "a frame in well under two seconds even on a busy machine")
        }
        if let path = ProcessInfo.processInfo.environment["SCENE_RENDER_SAMPLE"] {
            let image = try SceneRasterizer().render(mesh, labelAtlas: nil, camera: camera, lighting: .daylight)
            try Data(image.pngData()).write(to: URL(fileURLWithPath: path))
        }
    }
}
