import Foundation
import class OpenMapKit.NSExpression
import class OpenMapKit.NSPredicate
import MapRender
import MapStyle
@testable import OpenMapKit
import TestSupport
import XCTest

/// A clustered MGLShapeSource drawn by `MGLMapView.render()`: clusters as circles, the clusters
/// `visibleFeatures` finds as MGLPointFeatureCluster, and the source's `leaves(of:offset:limit:)`,
/// `children(of:)` and `zoomLevel(forExpanding:)` agreeing with what is drawn.
///
/// The points: A, three points 0.3° apart on the equator (scalerank 1, 2, 3), and B, two points
/// at 40° and 41° E (scalerank 4, 5). At zoom 1 the world is 1024 points (1° = 2.8 points), so
/// with a radius of 50 points A and B are one cluster each (114 points apart).
final class MGLShapeSourceClusterTests: XCTestCase {
    static let places: [(lon: Double, rank: Int)] = [(0, 1), (0.3, 2), (0.6, 3), (40, 4), (41, 5)]

    private func features() -> [MGLPointFeature] {
        Self.places.enumerated().map { index, place in
            let feature = MGLPointFeature()
            feature.coordinate = CLLocationCoordinate2D(latitude: 0, longitude: place.lon)
            feature.identifier = index + 1
            feature.attributes = ["scalerank": place.rank]
            return feature
        }
    }

    /// A map at zoom 1 over the equator with the clustered source over the default style's
    /// background: red circles for clusters, blue for points.
    private func clusteredMap() throws -> (MGLMapView, MGLShapeSource) {
        let (map, _, _) = MapboxFixtures.map(width: 400, height: 200)
        map.dataSource = try MonacoBundle.dataSource()
        map.setCenter(CLLocationCoordinate2D(latitude: 0, longitude: 20), zoomLevel: 1, animated: false)
        map.finishLoadingStyle()
        let style = try XCTUnwrap(map.style)
        // Only the background of the base map: the world at zoom 1 is not what is tested.
        for layer in style.layers where !(layer is MGLBackgroundStyleLayer) { style.removeLayer(layer) }
        let source = MGLShapeSource(identifier: "places", features: features(), options: [
            .clustered: true,
            .clusterRadius: 50,
            .maximumZoomLevelForClustering: 10,
            .clusterProperties: ["sum": [NSExpression(forConstantValue: "+"), NSExpression(format: "scalerank")]],
        ])
        style.addSource(source)
        let clusters = MGLCircleStyleLayer(identifier: "clusters", source: source)
        clusters.predicate = NSPredicate(format: "cluster == YES")
        clusters.circleColor = NSExpression(forConstantValue: UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        clusters.circleRadius = NSExpression(forConstantValue: 10)
        style.addLayer(clusters)
        let points = MGLCircleStyleLayer(identifier: "points", source: source)
        points.predicate = NSPredicate(format: "cluster != YES")
        points.circleColor = NSExpression(forConstantValue: UIColor(red: 0, green: 0, blue: 1, alpha: 1))
        points.circleRadius = NSExpression(forConstantValue: 5)
        style.addLayer(points)
        return (map, source)
    }

    private func clusters(_ features: [MGLFeature]) -> [MGLPointFeatureCluster] {
        features.compactMap { $0 as? MGLPointFeatureCluster }.sorted { $0.clusterPointCount > $1.clusterPointCount }
    }

    func testClusteredSourceIsDrawnAndQueriedAsClusters() throws {
        let (map, source) = try clusteredMap()
        let image = try map.render()
        let a = map.convert(CLLocationCoordinate2D(latitude: 0, longitude: 0.3), toPointTo: nil)
        let b = map.convert(CLLocationCoordinate2D(latitude: 0, longitude: 40.5), toPointTo: nil)
        XCTAssertTrue(isColor(image.color(at: a), near: UIColor(red: 1, green: 0, blue: 0, alpha: 1), tolerance: 0.05))
        XCTAssertTrue(isColor(image.color(at: b), near: UIColor(red: 1, green: 0, blue: 0, alpha: 1), tolerance: 0.05))

        let found = clusters(map.visibleFeatures(in: map.bounds, styleLayerIdentifiers: ["clusters", "points"]))
        XCTAssertEqual(found.map(\.clusterPointCount), [3, 2])
        XCTAssertEqual(map.visibleFeatures(in: map.bounds, styleLayerIdentifiers: ["points"]).count, 0, "every point is in a cluster")
        let clusterA = found[0], clusterB = found[1]
        XCTAssertEqual(clusterA.attributes["sum"] as? Double, 6)
        XCTAssertEqual(clusterB.attributes["sum"] as? Double, 9)
        XCTAssertEqual(clusterA.attributes["point_count_abbreviated"] as? String, "3")
        XCTAssertEqual(clusterA.attributes["cluster"] as? Bool, true)
        XCTAssertEqual(clusterA.coordinate.longitude, 0.3, accuracy: 1e-5)
        XCTAssertEqual(clusterA.identifier as? Double, Double(clusterA.clusterIdentifier))
        // The cluster the tap finds is the same.
        let tapped = clusters(map.visibleFeatures(at: b, styleLayerIdentifiers: ["clusters"]))
        XCTAssertEqual(tapped.map(\.clusterIdentifier), [clusterB.clusterIdentifier])

        // Its leaves are the source's features, with their attributes; paged by offset and limit.
        let leaves = source.leaves(of: clusterA, offset: 0, limit: 10)
        XCTAssertEqual(leaves.compactMap { $0.identifier as? Double }.sorted(), [1, 2, 3])
        XCTAssertTrue(leaves.allSatisfy { $0 is MGLPointFeature && !($0 is MGLPointFeatureCluster) })
        XCTAssertEqual(Set(leaves.compactMap { $0.attributes["scalerank"] as? Double }), [1, 2, 3])
        let paged = source.leaves(of: clusterA, offset: 1, limit: 1)
        XCTAssertEqual(paged.count, 1)
        XCTAssertEqual(paged.first?.identifier as? Double, leaves[1].identifier as? Double)
        XCTAssertTrue(source.leaves(of: clusterA, offset: 0, limit: 0).isEmpty)

        // zoomLevel(forExpanding:) is where the drawing splits the cluster: one zoom level
        // before it B is still one cluster of 2 (the same id), at it B's points are drawn apart.
        let expansion = source.zoomLevel(forExpanding: clusterB)
        XCTAssertEqual(expansion, 6, "1° is 45.5 points at zoom 5, inside the 50-point radius, and 91 at zoom 6")
        let children = source.children(of: clusterB)
        XCTAssertEqual(children.compactMap { $0.identifier as? Double }.sorted(), [4, 5], "B splits into its two points")
        map.setCenter(CLLocationCoordinate2D(latitude: 0, longitude: 40.5), zoomLevel: expansion - 0.01, animated: false)
        _ = try map.render()
        XCTAssertEqual(clusters(map.visibleFeatures(in: map.bounds)).map(\.clusterIdentifier), [clusterB.clusterIdentifier])
        map.setCenter(CLLocationCoordinate2D(latitude: 0, longitude: 40.5), zoomLevel: expansion, animated: false)
        let split = try map.render()
        XCTAssertTrue(clusters(map.visibleFeatures(in: map.bounds)).isEmpty)
        XCTAssertEqual(Set(map.visibleFeatures(in: map.bounds, styleLayerIdentifiers: ["points"]).compactMap { $0.identifier as? Double }), [4, 5])
        let pointB = map.convert(CLLocationCoordinate2D(latitude: 0, longitude: 41), toPointTo: nil)
        XCTAssertTrue(isColor(split.color(at: pointB), near: UIColor(red: 0, green: 0, blue: 1, alpha: 1), tolerance: 0.05))

        // A cluster this source does not have, and a source that does not cluster, answer nothing.
        let stranger = MGLPointFeatureCluster()
        stranger.attributes = ["cluster_id": 123_456.0, "point_count": 2.0]
        XCTAssertTrue(source.leaves(of: stranger, offset: 0, limit: 10).isEmpty)
        XCTAssertTrue(source.children(of: stranger).isEmpty)
        XCTAssertEqual(source.zoomLevel(forExpanding: stranger), -1)
        let plain = MGLShapeSource(identifier: "plain", features: features(), options: nil)
        XCTAssertTrue(plain.children(of: clusterA).isEmpty)
        XCTAssertEqual(plain.zoomLevel(forExpanding: clusterA), -1)
    }

    /// The options are written into the source's JSON as MapLibre names them.
    func testClusterOptionsAreWrittenToTheSource() throws {
        let source = MGLShapeSource(identifier: "places", features: features(), options: [
            .clustered: true, .clusterRadius: 30, .maximumZoomLevelForClustering: 12, .clusterMinPoints: 3,
            .clusterProperties: ["sum": [NSExpression(format: "$featureAccumulated + sum"), NSExpression(format: "scalerank")],
                                 // Mapbox's documented form.
                                 "sumValue": [NSExpression(format: "sum:({$featureAccumulated, sumValue})"),
                                              NSExpression(format: "CAST(scalerank, 'NSNumber')")]],
        ])
        XCTAssertEqual(source.object["cluster"], .bool(true))
        XCTAssertEqual(source.object["clusterRadius"], .number(30))
        XCTAssertEqual(source.object["clusterMaxZoom"], .number(12))
        XCTAssertEqual(source.object["clusterMinPoints"], .number(3))
        XCTAssertEqual(source.object["clusterProperties"]?["sum"], try JSONValue.parse(#"[["+", ["accumulated"], ["get", "sum"]], ["get", "scalerank"]]"#))
        XCTAssertEqual(source.object["clusterProperties"]?["sumValue"]?.arrayValue?.first,
                       try JSONValue.parse(#"["+", ["accumulated"], ["get", "sumValue"]]"#))
        // Drawn with a minimum of 3 points, B's pair is not a cluster.
        let clusters = try XCTUnwrap(source.clusters())
        XCTAssertEqual(clusters.features(atZoom: 1).filter { $0.clusterID != nil }.map(\.pointCount), [3])
        XCTAssertEqual(clusters.features(atZoom: 1).first { $0.clusterID != nil }?.properties["sum"], .number(6))
        XCTAssertEqual(clusters.features(atZoom: 1).first { $0.clusterID != nil }?.properties["sumValue"], .number(6))
    }
}
