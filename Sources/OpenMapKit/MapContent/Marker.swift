import Foundation
import MapRender

/// A balloon marker (SwiftUI's `Marker`): a glyph — the pin, an SF Symbols name, up to three
/// letters or an image — on a balloon in the tint colour (red by default), titled underneath.
///
/// Differs from MapKit: an SF Symbols name draws OpenMapKit's point-of-interest icon for it (the
/// pin when there is none), and a named image is a PNG file's path (there are no asset
/// catalogues).
public struct Marker: MapContent, PrimitiveMapContent {
    let title: String
    let coordinate: CLLocationCoordinate2D
    let glyph: MarkerItem.Glyph
    /// The map item a ``init(item:)`` marker stands for: its selection value when it has no tag.
    var item: MKMapItem?

    public init(_ title: String, coordinate: CLLocationCoordinate2D) {
        (self.title, self.coordinate, glyph) = (title, coordinate, .pin)
    }

    /// A marker whose glyph is the icon matching an SF Symbols name (the pin when none does).
    public init(_ title: String, systemImage: String, coordinate: CLLocationCoordinate2D) {
        (self.title, self.coordinate, glyph) = (title, coordinate, MarkerItem.glyph(systemImage: systemImage))
    }

    /// A marker showing up to three letters; longer monograms are cut to their first three.
    public init(_ title: String, monogram: Text, coordinate: CLLocationCoordinate2D) {
        (self.title, self.coordinate, glyph) = (title, coordinate, .text(String(monogram.string.prefix(3))))
    }

    /// A marker showing an image.
    public init(_ title: String, image: UIImage, coordinate: CLLocationCoordinate2D) {
        (self.title, self.coordinate, glyph) = (title, coordinate, .image(image))
    }

    /// A marker for a map item: titled with its name, its glyph and tint from its category (a
    /// fork and knife on orange for a restaurant), else the pin on red.
    public init(item: MKMapItem) {
        title = item.name ?? ""
        coordinate = item.placemark.coordinate
        self.item = item
        let icon = item.pointOfInterestCategory.flatMap(Marker.icon(for:))
        glyph = icon.map(MarkerItem.Glyph.icon) ?? .pin
        categoryTint = icon?.categoryColor
    }

    var categoryTint: RenderColor?

    /// The point-of-interest icon of a category: that of its first OpenMapTiles class or subclass
    /// that has one.
    static func icon(for category: MKPointOfInterestCategory) -> PointOfInterestIcon? {
        for name in category.openMapTilesClasses + category.openMapTilesSubclasses {
            if let icon = PointOfInterestIcon(openMapTilesClass: name) { return icon }
        }
        return nil
    }

    /// A marker showing the image named `image`. There are no asset catalogues on Linux: the name
    /// is looked up as a PNG among the resources of the main bundle and of every loaded bundle
    /// (a SwiftPM target's `Bundle.module`, e.g. `DucklingAsset.png`), then as a file path; the
    /// pin is shown when no image is found.
    public init(_ title: String, image: String, coordinate: CLLocationCoordinate2D) {
        (self.title, self.coordinate) = (title, coordinate)
        glyph = Marker.resourceImage(named: image).map { .image($0) } ?? .pin
    }

    /// A marker showing the image named `image` in `bundle`'s resources (a PNG).
    public init(_ title: String, image: String, bundle: Bundle, coordinate: CLLocationCoordinate2D) {
        (self.title, self.coordinate) = (title, coordinate)
        glyph = Marker.resourceImage(named: image, in: [bundle]).map { .image($0) } ?? .pin
    }

    /// The PNG named `name` in the first of `bundles` that has it (the name may carry its
    /// extension), else the file at the path `name`.
    static func resourceImage(named name: String, in bundles: [Bundle] = [Bundle.main] + Bundle.allBundles) -> UIImage? {
        let url = URL(fileURLWithPath: name)
        let base = url.pathExtension.isEmpty ? name : url.deletingPathExtension().lastPathComponent
        let ext = url.pathExtension.isEmpty ? "png" : url.pathExtension
        for bundle in bundles {
            if let found = bundle.url(forResource: base, withExtension: ext), let image = UIImage(contentsOfFile: found.path) { return image }
        }
        return UIImage(contentsOfFile: name)
    }

    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        var item = MarkerItem(coordinate: coordinate, title: title,
                              tint: environment.tint?.renderColor ?? categoryTint ?? MarkerItem.defaultTint, glyph: glyph)
        item.showsTitle = environment.titles != .hidden
        item.tag = environment.tag ?? self.item.map(AnyHashable.init)
        scene.markers.append(item)
        scene.points.append(MKMapPoint(coordinate))
    }
}
