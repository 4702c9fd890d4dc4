import Foundation
import MapFormats
import MapRouting

/// The travel profiles: which OSM ways, barriers and restrictions each ``TravelMode`` may use, at
/// what speed. The README's "Directions" section states these rules in prose; keep them in step.
public enum RoadProfiles {
    /// Car speeds (km/h) per highway class, used when a way has no usable maxspeed.
    static let carSpeeds: [String: Float] = [
        "motorway": 100, "motorway_link": 45, "trunk": 85, "trunk_link": 40, "primary": 65, "primary_link": 30,
        "secondary": 55, "secondary_link": 25, "tertiary": 40, "tertiary_link": 20, "unclassified": 25,
        "residential": 25, "living_street": 10, "service": 15, "winter_road": 30, "ice_road": 30,
    ]
    /// Classes a bicycle may ride (at `cyclingSpeed`) without an explicit bicycle tag.
    static let cyclingClasses: Set<String> = [
        "cycleway", "primary", "primary_link", "secondary", "secondary_link", "tertiary", "tertiary_link",
        "unclassified", "residential", "living_street", "road", "service", "track", "path",
    ]
    /// Classes where a cyclist pushes (walking speed) unless bicycle=yes/designated.
    static let pushingClasses: Set<String> = ["footway", "pedestrian", "steps", "platform", "bridleway"]
    /// Classes a pedestrian may walk without an explicit foot tag.
    static let walkingClasses: Set<String> = [
        "primary", "primary_link", "secondary", "secondary_link", "tertiary", "tertiary_link", "unclassified",
        "residential", "road", "living_street", "service", "track", "path", "steps", "pedestrian", "footway",
        "cycleway", "bridleway", "platform", "corridor",
    ]
    static let walkingSpeed: Float = 5
    static let pushingSpeed: Float = 5
    static let cyclingSpeed: Float = 15

    /// Access values that close a way or node to a mode (each part of a `;` list must be one).
    static let deniedAccess: Set<String> = [
        "no", "private", "agricultural", "forestry", "psv", "taxi", "share_taxi", "minibus", "bus", "foot", "restricted",
        "military", "official", "emergency", "emergency_vehicle", "disabled", "hgv", "goods", "delivery_only", "bicycle",
        "horse", "agricultural;forestry",
    ]
    static let grantedAccess: Set<String> = ["yes", "permissive", "designated", "destination", "official_yes"]

    /// The access tag keys consulted per mode, most specific first.
    static func accessKeys(_ mode: TravelMode) -> [String] {
        switch mode {
        case .automobile: ["motorcar", "motor_vehicle", "vehicle", "access"]
        case .cycling: ["bicycle", "vehicle", "access"]
        case .walking: ["foot", "access"]
        }
    }

    enum AccessAnswer { case granted, denied, unspecified }

    /// A direction along a way, as access tags name it (`access:forward`, `motor_vehicle:backward`).
    enum AccessDirection: String { case forward, backward }

    /// The most specific access tag's verdict, for one direction or none.
    static func access(_ tags: OSMTags, mode: TravelMode, direction: AccessDirection?) -> AccessAnswer {
        accessValue(tags, mode: mode, direction: direction).map { verdict($0, mode: mode) } ?? .unspecified
    }

    /// Each access key's rank (0 most specific) per mode and direction: `key:direction` before
    /// `key`, in `accessKeys` order. Made once, because every road of an import asks three modes
    /// several questions each.
    private struct AccessKeyRanks {
        let plain: [String: Int], forward: [String: Int], backward: [String: Int]

        init(_ mode: TravelMode) {
            func ranks(_ direction: AccessDirection?) -> [String: Int] {
                let keys = accessKeys(mode).flatMap { key in [direction.map { "\(key):\($0.rawValue)" }, key].compactMap { $0 } }
                return Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: min)
            }
            plain = ranks(nil)
            forward = ranks(.forward)
            backward = ranks(.backward)
        }

        static let automobile = AccessKeyRanks(.automobile), walking = AccessKeyRanks(.walking), cycling = AccessKeyRanks(.cycling)

        static func of(_ mode: TravelMode, direction: AccessDirection?) -> [String: Int] {
            let ranks = switch mode {
            case .automobile: automobile
            case .walking: walking
            case .cycling: cycling
            }
            return switch direction {
            case nil: ranks.plain
            case .forward: ranks.forward
            case .backward: ranks.backward
            }
        }
    }

    static func verdict(_ value: String, mode: TravelMode) -> AccessAnswer {
        let parts = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        // Private roads stay out of every graph: a route never starts, ends or passes on one.
        if parts.allSatisfy({ deniedAccess.contains($0) || (mode != .automobile && ["delivery", "customers"].contains($0))
                                || (mode == .cycling && ["use_sidepath", "dismount"].contains($0)) }) { return .denied }
        if mode == .walking, parts.contains("foot") || parts.contains("designated") { return .granted }
        return .granted
    }

    /// Oneway tag keys per mode, most specific first.
    static func onewayKeys(_ mode: TravelMode) -> [String] {
        switch mode {
        case .automobile: ["oneway:motorcar", "oneway:motor_vehicle", "oneway:vehicle", "oneway"]
        case .cycling: ["oneway:bicycle", "oneway:vehicle", "oneway"]
        case .walking: ["oneway:foot"]
        }
    }

    /// 1 forward only, -1 backward only, 0 both ways, nil closed (reversible/alternating).
    static func oneway(_ tags: OSMTags, mode: TravelMode, highway: String) -> Int? {
        for key in onewayKeys(mode) {
            // Contraflow cycle lanes open a oneway to cyclists unless oneway:bicycle says otherwise.
            if mode == .cycling && key != "oneway:bicycle" {
                for laneKey in ["cycleway", "cycleway:left", "cycleway:right", "cycleway:both"] {
                    if let value = tags.value(for: laneKey), value.hasPrefix("opposite") { return 0 }
                }
            }
            guard let value = tags.value(for: key) else { continue }
            switch value {
            case "yes", "true", "1": return 1
            case "-1", "reverse": return -1
            case "no", "false", "0": return 0
            case "reversible": return mode == .walking ? 0 : nil
            case "alternating": return 0
            default: continue
            }
        }
        if mode == .walking { return 0 }
        let junction = tags.value(for: "junction")
        if junction == "roundabout" || junction == "circular" || highway == "motorway" { return 1 }
        return 0
    }

    /// km/h from a maxspeed value: plain numbers, "km/h" and "mph" units, and country zone
    /// codes ("FR:urban", "DE:rural", "RU:motorway", "zone30", "walk"); nil when unreadable.
    public static func parseMaxspeed(_ raw: String?) -> Float? {
        guard let raw = raw?.trimmingCharacters(in: .whitespaces).lowercased(), !raw.isEmpty else { return nil }
        if raw == "walk" { return 6 }
        if raw == "none" || raw == "signals" || raw == "variable" { return nil }
        let zone = raw.split(separator: ":").last.map(String.init) ?? raw
        switch zone {
        case "urban": return 50
        case "rural": return 90
        case "trunk": return 110
        case "motorway": return 130
        case "living_street": return 10
        case "bicycle_road": return 30
        default: break
        }
        if zone.hasPrefix("zone"), let value = Float(zone.dropFirst(4)) { return value }
        let digits = raw.prefix { $0.isNumber || $0 == "." }
        guard let value = Float(digits), value > 0 else { return nil }
        return raw.contains("mph") ? value * 1.609344 : (raw.contains("knots") ? value * 1.852 : value)
    }

    /// Ferry duration: "HH:MM", "HH:MM:SS", minutes, or ISO 8601 ("PT1H30M"); seconds.
    public static func parseDuration(_ raw: String?) -> Double? {
        guard let raw = raw?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        let parts = raw.split(separator: ":")
        if parts.count >= 2, parts.count <= 3, let values = Optional(parts.compactMap { Double($0) }), values.count == parts.count {
            return values.count == 2 ? values[0] * 3600 + values[1] * 60 : values[0] * 3600 + values[1] * 60 + values[2]
        }
        if let minutes = Double(raw) { return minutes * 60 }
        if raw.uppercased().hasPrefix("PT") {
            var total = 0.0, number = ""
            for c in raw.uppercased().dropFirst(2) {
                if c.isNumber || c == "." { number.append(c); continue }
                guard let value = Double(number) else { return nil }
                switch c {
                case "H": total += value * 3600
                case "M": total += value * 60
                case "S": total += value
                default: return nil
                }
                number = ""
            }
            return total > 0 ? total : nil
        }
        return nil
    }

    /// Speed factors for cycling on rough surfaces.
    static let surfaceSpeeds: [String: Float] = [
        "cobblestone": 10, "sett": 10, "unhewn_cobblestone": 6, "gravel": 10, "fine_gravel": 12, "compacted": 13,
        "pebblestone": 8, "unpaved": 8, "ground": 8, "dirt": 8, "earth": 8, "grass": 6, "mud": 4, "sand": 4, "wood": 10,
    ]

    /// The most specific access value for `mode` in `direction` (or none), as tagged.
    static func accessValue(_ tags: OSMTags, mode: TravelMode, direction: AccessDirection?) -> String? {
        let ranks = AccessKeyRanks.of(mode, direction: direction)
        // One pass over the tags keeps the most specific non-empty access value.
        var best: (rank: Int, value: String)?
        for (key, value) in tags where !value.isEmpty {
            guard let rank = ranks[key], rank < best?.rank ?? Int.max else { continue }
            best = (rank, value)
        }
        return best?.value
    }

    /// Whether the way is explicitly opened to `mode` (yes/permissive/designated) in some direction:
    /// that opens highway classes the mode does not use by default.
    static func explicitlyGranted(_ tags: OSMTags, mode: TravelMode) -> Bool {
        [AccessDirection.forward, .backward].contains { direction in
            ["yes", "permissive", "designated"].contains(accessValue(tags, mode: mode, direction: direction) ?? "")
        }
    }

    /// What `mode` may do on a way; `.closed` when nothing.
    public static func access(for way: OSMTags, mode: TravelMode) -> RoadNetwork.Access {
        let highway = way.value(for: "highway")
        let isFerry = way.value(for: "route") == "ferry"
        guard highway != nil || isFerry else { return .closed }
        let klass = highway ?? "ferry"
        if ["construction", "proposed", "abandoned", "disused", "razed", "platform"].contains(klass) && !isFerry { return .closed }
        if way.value(for: "impassable") == "yes" || way.value(for: "status") == "impassable" { return .closed }
        if mode != .walking, way.value(for: "area") == "yes" { return .closed }
        let forwardAnswer = access(way, mode: mode, direction: .forward)
        let backwardAnswer = access(way, mode: mode, direction: .backward)
        let explicit = explicitlyGranted(way, mode: mode)
        let footAllowed = access(way, mode: .walking, direction: nil) != .denied
        var speed: Float
        switch mode {
        case .automobile:
            if klass == "steps" { return .closed }
            // As OSRM's car profile: a road under construction (not merely widened), an
            // emergency-access service road and an impassable surface are no roads for a car.
            if let construction = way.value(for: "construction"), !["no", "widening", "minor"].contains(construction) { return .closed }
            if way.value(for: "service") == "emergency_access" || way.value(for: "smoothness") == "impassable" { return .closed }
            if isFerry {
                speed = 5
            } else if let classSpeed = carSpeeds[klass] {
                speed = classSpeed
                if let limit = parseMaxspeed(way.value(for: "maxspeed")) { speed = min(max(limit * 0.8, 5), 130) }
            } else if explicit {
                speed = 10
            } else {
                return .closed
            }
            if let surface = way.value(for: "surface"), surfaceSpeeds[surface] != nil { speed = min(speed, 40) }
        case .walking:
            if isFerry {
                speed = walkingSpeed
            } else if walkingClasses.contains(klass) {
                speed = klass == "steps" ? 3 : walkingSpeed
            } else if explicit && !klass.hasPrefix("motorway") && !klass.hasPrefix("trunk") {
                speed = walkingSpeed
            } else {
                return .closed
            }
        case .cycling:
            // A motorroad (Kraftfahrstraße) is for motor vehicles only.
            if way.value(for: "motorroad") == "yes" && !explicit { return .closed }
            if isFerry || cyclingClasses.contains(klass) || explicit {
                speed = cyclingSpeed
            } else if pushingClasses.contains(klass) && footAllowed {
                speed = pushingSpeed
            } else {
                return .closed
            }
            if let surface = way.value(for: "surface"), let surfaceSpeed = surfaceSpeeds[surface] { speed = min(speed, surfaceSpeed) }
        }
        guard let direction = oneway(way, mode: mode, highway: klass) else { return .closed }
        var forward: Float = direction >= 0 && forwardAnswer != .denied ? speed : 0
        var backward: Float = direction <= 0 && backwardAnswer != .denied ? speed : 0
        if mode == .automobile {
            if forward > 0, let limit = parseMaxspeed(way.value(for: "maxspeed:forward")) { forward = min(max(limit * 0.8, 5), 130) }
            if backward > 0, let limit = parseMaxspeed(way.value(for: "maxspeed:backward")) { backward = min(max(limit * 0.8, 5), 130) }
        }
        // Cyclists may push their bicycle against a oneway where pedestrians may walk.
        if mode == .cycling && footAllowed && (walkingClasses.contains(klass) || pushingClasses.contains(klass)) {
            if forward == 0 && direction < 0 && forwardAnswer != .denied { forward = pushingSpeed }
            if backward == 0 && direction > 0 && backwardAnswer != .denied { backward = pushingSpeed }
        }
        return RoadNetwork.Access(forwardSpeed: forward, backwardSpeed: backward)
    }

    /// Barrier values a mode passes without an access tag.
    static func barrierPassable(_ barrier: String, mode: TravelMode) -> Bool {
        switch mode {
        case .automobile:
            return ["gate", "lift_gate", "cattle_grid", "border_control", "toll_booth", "sally_port", "entrance", "no",
                    "height_restrictor", "arch", "swing_gate", "hampshire_gate", "bump_gate", "cattle_grid", "checkpoint"].contains(barrier)
        case .walking, .cycling:
            return !["wall", "fence", "hedge", "retaining_wall", "city_wall", "ditch", "guard_rail", "handrail", "kerb_raised"].contains(barrier)
        }
    }

    /// The modes a tagged node blocks.
    public static func blockedModes(node tags: OSMTags) -> Set<TravelMode> {
        var blocked = Set<TravelMode>()
        for mode in TravelMode.allCases {
            let answer = access(tags, mode: mode, direction: nil)
            if answer == .denied { blocked.insert(mode); continue }
            if answer == .granted { continue }
            guard let barrier = tags.value(for: "barrier") else { continue }
            var passable = barrierPassable(barrier, mode: mode)
            switch barrier {
            case "bollard" where mode == .automobile: passable = tags.value(for: "bollard") == "rising"
            case "kerb" where mode == .automobile:
                passable = tags.value(for: "highway") == "crossing" || ["lowered", "flush"].contains(tags.value(for: "kerb") ?? "")
            case "fence": passable = ["audible", "audio"].contains(tags.value(for: "sensory") ?? "")
            case "height_restrictor" where mode == .automobile:
                passable = tags.value(for: "maxheight").flatMap { Double($0) }.map { $0 >= 2.5 } ?? true
            default: break
            }
            if !passable { blocked.insert(mode) }
        }
        return blocked
    }

    /// The way's attributes for route descriptions and avoidance.
    static func info(for tags: OSMTags) -> RoadNetwork.WayInfo {
        let isFerry = tags.value(for: "route") == "ferry"
        let highway = tags.value(for: "highway") ?? (isFerry ? "ferry" : "road")
        let junction = tags.value(for: "junction")
        let toll = tags.value(for: "toll") ?? ""
        let service = tags.value(for: "service") ?? ""
        // Ways into car parks and garages: guidance does not count them as exits.
        let isMinorService = highway == "service" && (["parking_aisle", "driveway", "drive-through", "parking", "garage", "garages"].contains(service)
            || tags.value(for: "amenity") == "parking" || ["garage", "garages"].contains(tags.value(for: "building") ?? "")
            || tags.value(for: "parking") != nil)
        return RoadNetwork.WayInfo(name: tags.value(for: "name").flatMap { $0.isEmpty ? nil : $0 },
                                   ref: tags.value(for: "ref").flatMap { $0.isEmpty ? nil : $0 },
                                   roadClass: isFerry ? "ferry" : highway,
                                   isToll: toll == "yes" || toll.hasPrefix("toll:") == false && toll != "no" && !toll.isEmpty,
                                   isMotorway: highway == "motorway" || highway == "motorway_link",
                                   isRoundabout: junction == "roundabout" || junction == "circular", isFerry: isFerry,
                                   isMinorService: isMinorService)
    }

    /// The modes a restriction relation applies to, honouring restriction:<mode> keys and `except`.
    static func restrictionModes(_ tags: OSMTags) -> (value: String, modes: Set<TravelMode>)? {
        var result: (String, Set<TravelMode>)? = nil
        // A plain restriction binds motor vehicles; cyclists only follow restriction:bicycle.
        if let value = tags.value(for: "restriction") { result = (value, [.automobile]) }
        for (key, mode) in [("restriction:motorcar", TravelMode.automobile), ("restriction:motor_vehicle", .automobile),
                            ("restriction:vehicle", .automobile), ("restriction:bicycle", .cycling)] {
            if let value = tags.value(for: key) { result = (value, (result?.1 ?? []).union([mode])) }
        }
        guard let (value, restricted) = result else { return nil }
        var modes = restricted
        if let except = tags.value(for: "except") {
            let parts = except.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.contains("motorcar") || parts.contains("motor_vehicle") { modes.remove(.automobile) }
            if parts.contains("bicycle") { modes.remove(.cycling) }
        }
        return (value, modes)
    }
}
