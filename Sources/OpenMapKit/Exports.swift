// OpenMapKit speaks MapKit's vocabulary, which starts in MapGeometry: `import OpenMapKit` is enough
// to get CLLocationCoordinate2D, MKMapPoint, MKMapRect and the rest.
@_exported import MapGeometry

// As `import MapKit` brings Foundation, so does `import OpenMapKit`. It matters for Mapbox code:
// swift-corelibs-foundation declares (unavailable) NSExpression and NSPredicate classes, and a file
// that imports only OpenMapKit sees OpenMapKit's, which shadow them. A file that also imports
// Foundation (or XCTest) must name ours, e.g. `import class OpenMapKit.NSExpression`.
@_exported import Foundation
