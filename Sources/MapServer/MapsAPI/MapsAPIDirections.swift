import Foundation
import Hummingbird
import OpenMapKit

/// `/v1/directions` and `/v1/etas`, answered by `MKDirections` over the request's data source.
///
/// Travel times are the road graph's free-flow times (OpenStreetMap has no traffic), so an ETA's
/// `staticTravelTimeSeconds` equals its `expectedTravelTimeSeconds`, and departure or arrival
/// dates are checked but do not change the routes or times. Instructions are in English whatever `lang` says (the
/// guidance has no translations yet); `lang` is still checked.
struct MapsAPIDirections {
    let server: MapServer

    /// The most destinations one ETA request may name, as Apple's.
    static let maximumDestinations = 10

    func directions(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request)
        let hints = try SearchParameters(query)
        let transport = try query.choice("transportType", of: APITransportType.self) ?? .automobile
        let dates = try query.travelDates()
        let alternates = try query.bool("requestsAlternateRoutes") ?? false
        var avoidTolls = false
        for item in try query.list("avoid", maximumCount: 10) ?? [] {
            guard item.caseInsensitiveCompare("Tolls") == .orderedSame else {
                throw APIError.badRequest("parameter avoid must list Tolls", details: ["got \(QueryParameters.quoted(item))"])
            }
            avoidTolls = true
        }
        let source = try server.regions.snapshot.source(named: query["region"])
        let origin = try await endpoint(query, "origin", hints: hints, source: source)
        let destination = try await endpoint(query, "destination", hints: hints, source: source)

        let directionsRequest = MKDirections.Request()
        directionsRequest.source = origin.item
        directionsRequest.destination = destination.item
        directionsRequest.transportType = transport.mapKit
        directionsRequest.requestsAlternateRoutes = alternates
        directionsRequest.departureDate = dates.departure
        directionsRequest.arrivalDate = dates.arrival
        if avoidTolls { directionsRequest.tollPreference = .avoid }
        let response = try await MKDirections(request: directionsRequest, dataSource: source).calculate()

        var body = APIDirectionsResponse(origin: origin.place, destination: destination.place, routes: [], steps: [], stepPaths: [])
        for route in response.routes {
            let type = APITransportType(route.transportType)
            var indexes: [Int] = []
            for step in route.steps {
                indexes.append(body.steps.count)
                body.stepPaths.append(step.polyline.coordinates.map(APILocation.init))
                // Steps carry no times of their own: the route's time is shared by distance.
                let share = route.distance > 0 ? step.distance / route.distance : 0
                body.steps.append(.init(stepPathIndex: body.stepPaths.count - 1, distanceMeters: Self.whole(step.distance),
                                        durationSeconds: Self.whole(route.expectedTravelTime * share),
                                        instructions: step.instructions.isEmpty ? nil : step.instructions,
                                        transportType: APITransportType(step.transportType) == type ? nil : APITransportType(step.transportType).rawValue))
            }
            body.routes.append(.init(name: route.name, distanceMeters: Self.whole(route.distance), durationSeconds: Self.whole(route.expectedTravelTime),
                                     hasTolls: route.hasTolls, stepIndexes: indexes, transportType: type.rawValue))
        }
        return try MapsAPIRoutes.json(body)
    }

    func etas(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request)
        guard let origin = try query.coordinate("origin") else { throw APIError.badRequest("parameter origin is required (latitude,longitude)") }
        let text = try query.required("destinations")
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= Self.maximumDestinations else {
            throw APIError.badRequest("parameter destinations lists too many destinations",
                                      details: ["at most \(Self.maximumDestinations), got \(parts.count)"])
        }
        let destinations = try parts.map { try QueryParameters.coordinate($0, parameter: "destinations") }
        let transport = try query.choice("transportType", of: APITransportType.self) ?? .automobile
        let dates = try query.travelDates()
        let source = try server.regions.snapshot.source(named: query["region"])

        // Each destination is its own MKDirections, as MapKit's ETA is one pair; they run at once.
        let results = await withTaskGroup(of: (Int, Result<MKDirections.ETAResponse, any Error>).self) { group in
            for (index, destination) in destinations.enumerated() {
                group.addTask {
                    let request = MKDirections.Request()
                    request.source = MKMapItem(placemark: MKPlacemark(coordinate: origin))
                    request.destination = MKMapItem(placemark: MKPlacemark(coordinate: destination))
                    request.transportType = transport.mapKit
                    request.departureDate = dates.departure
                    request.arrivalDate = dates.arrival
                    do { return (index, .success(try await MKDirections(request: request, dataSource: source).calculateETA())) }
                    catch { return (index, .failure(error)) }
                }
            }
            var all: [(Int, Result<MKDirections.ETAResponse, any Error>)] = []
            for await result in group { all.append(result) }
            return all.sorted { $0.0 < $1.0 }.map(\.1)
        }
        // A destination without a route is left out (the others still answer); when none has
        // one, the request fails as directions do, with the first reason.
        var etas: [APIEtaResponse.Eta] = []
        var firstFailure: (any Error)?
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let eta):
                let seconds = Self.whole(eta.expectedTravelTime)
                etas.append(.init(destination: APILocation(destinations[index]), transportType: APITransportType(eta.transportType).rawValue,
                                  distanceMeters: Self.whole(eta.distance), expectedTravelTimeSeconds: seconds, staticTravelTimeSeconds: seconds))
            case .failure(let error):
                if let error = error as? MKError, error.code == .serverFailure { throw error }
                firstFailure = firstFailure ?? error
            }
        }
        if etas.isEmpty, let firstFailure { throw firstFailure }
        return try MapsAPIRoutes.json(APIEtaResponse(etas: etas))
    }

    /// A directions end point: `lat,lon`, or an address geocoded with the request's hints.
    private func endpoint(_ query: QueryParameters, _ name: String, hints: SearchParameters,
                          source: MapDataSource) async throws -> (item: MKMapItem, place: APIPlace) {
        let text = try query.searchText(name)
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, parts.allSatisfy({ Double($0.trimmingCharacters(in: .whitespaces)) != nil }) {
            let coordinate = try QueryParameters.coordinate(text, parameter: name)
            let item = MKMapItem(placemark: MKPlacemark(coordinate: coordinate))
            // The place at the coordinate, for the response's origin/destination; the route still
            // starts at the coordinate itself.
            var place = APIPlace(coordinate: coordinate)
            if let reverse = MKReverseGeocodingRequest(location: CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude)) {
                reverse.dataSource = source
                reverse.preferredLocale = hints.locale
                if let found = try? await reverse.mapItems.first {
                    place = APIPlace(found)
                    place.coordinate = APILocation(coordinate)
                }
            }
            return (item, place)
        }
        guard let geocoder = MKGeocodingRequest(addressString: text) else { throw APIError.badRequest("parameter \(name) is blank") }
        geocoder.dataSource = source
        geocoder.preferredLocale = hints.locale
        geocoder.resultLimit = 5
        if let region = hints.region { geocoder.region = region }
        let items = try await MapsAPIRoutes.foundOrEmpty { try await geocoder.mapItems }
        guard let item = items.first(where: hints.allows) else {
            throw APIError.notFound("no place matches the \(name) \(QueryParameters.quoted(text))", details: ["give an address in the map data or latitude,longitude"])
        }
        return (item, APIPlace(item))
    }

    /// A non-negative whole number of metres or seconds (finite by construction; guarded anyway).
    static func whole(_ value: Double) -> Int {
        guard value.isFinite, value > 0 else { return 0 }
        return Int(min(value, Double(Int32.max)).rounded())
    }
}
