import Foundation

/// Custom content at a coordinate (SwiftUI's `Annotation`), placed so that `anchor` of the
/// content sits on the coordinate (default: its centre), with the title underneath.
///
/// Differs from MapKit: the content is not a live SwiftUI view but the small set of
/// ``AnnotationContent`` (shapes, ``Image``, ``Text``, ``ZStack``, padding, frames and the
/// styling modifiers: `foregroundStyle`, `font`, `background`, `cornerRadius`, `clipShape`,
/// `overlay`, `opacity`, `shadow`), drawn into the map's image.
public struct Annotation: MapContent, PrimitiveMapContent {
    let title: String
    let coordinate: CLLocationCoordinate2D
    let anchor: UnitPoint
    let content: any AnnotationContent

    public init(_ title: String, coordinate: CLLocationCoordinate2D, anchor: UnitPoint = .center,
                @AnnotationContentBuilder content: () -> ZStack) {
        (self.title, self.coordinate, self.anchor) = (title, coordinate, anchor)
        self.content = content()
    }

    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        var item = AnnotationItem(coordinate: coordinate, title: title, anchor: anchor, content: content)
        item.showsTitle = environment.titles != .hidden
        item.tag = environment.tag
        scene.annotations.append(item)
        scene.points.append(MKMapPoint(coordinate))
    }
}
