import Foundation

// A first, minimal MKMapItem and MKPlacemark: enough for `Marker(item:)` and
// `MapCameraPosition.item(_:)`. Search, geocoding and directions will add to them.

/// A place's location and description (MapKit's `MKPlacemark`; without the address fields yet).
open class MKPlacemark: NSObject, MKAnnotation, @unchecked Sendable {
    public let coordinate: CLLocationCoordinate2D
    /// The place's name, if known.
    open var name: String?

    public init(coordinate: CLLocationCoordinate2D) {
        self.coordinate = coordinate
        super.init()
    }

    open var title: String? { name }
}

/// A point of interest or place on the map (MapKit's `MKMapItem`).
open class MKMapItem: NSObject, @unchecked Sendable {
    public let placemark: MKPlacemark
    /// The place's name.
    open var name: String?
    /// The kind of place; nil when it is not a point of interest of a known category.
    open var pointOfInterestCategory: MKPointOfInterestCategory?
    open var phoneNumber: String?
    open var url: URL?
    open var timeZone: TimeZone?
    /// Whether the item stands for the device's location.
    public private(set) var isCurrentLocation = false

    public init(placemark: MKPlacemark) {
        self.placemark = placemark
        name = placemark.name
        super.init()
    }

    /// The item for the device's location (there is no location service here, so its coordinate
    /// is invalid until one is given).
    public static func forCurrentLocation() -> MKMapItem {
        let item = MKMapItem(placemark: MKPlacemark(coordinate: kCLLocationCoordinate2DInvalid))
        item.isCurrentLocation = true
        return item
    }
}
