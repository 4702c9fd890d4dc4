// OpenMapKit speaks MapKit's vocabulary, which starts in MapGeometry: `import OpenMapKit` is enough
// to get CLLocationCoordinate2D, MKMapPoint, MKMapRect and the rest.
@_exported import MapGeometry
