import Foundation

/// Which points of interest a SwiftUI map shows (SwiftUI's `PointOfInterestCategories`).
public struct PointOfInterestCategories: Sendable, ExpressibleByArrayLiteral {
    let filter: MKPointOfInterestFilter?

    public static let all = PointOfInterestCategories(filter: nil)
    public static let excludingAll = PointOfInterestCategories(filter: .excludingAll)
    public static func including(_ categories: [MKPointOfInterestCategory]) -> PointOfInterestCategories {
        PointOfInterestCategories(filter: MKPointOfInterestFilter(including: categories))
    }
    public static func including(_ categories: MKPointOfInterestCategory...) -> PointOfInterestCategories { including(categories) }
    public static func excluding(_ categories: [MKPointOfInterestCategory]) -> PointOfInterestCategories {
        PointOfInterestCategories(filter: MKPointOfInterestFilter(excluding: categories))
    }
    public static func excluding(_ categories: MKPointOfInterestCategory...) -> PointOfInterestCategories { excluding(categories) }

    init(filter: MKPointOfInterestFilter?) { self.filter = filter }
    /// The listed categories only.
    public init(arrayLiteral categories: MKPointOfInterestCategory...) { filter = MKPointOfInterestFilter(including: categories) }
}
