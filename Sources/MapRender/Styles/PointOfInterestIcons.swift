import CCairo
import Foundation

/// The icons drawn for points of interest: in the default styles' sprite (one per OpenMapTiles POI
/// class, white on a disc of the category's colour, as Apple Maps shows them) and as the glyphs of
/// markers (by SF Symbols-like names, so `Marker("Café", systemImage: "cup.and.saucer.fill", ...)`
/// shows a cup).
///
/// Every icon is drawn by OpenMapKit with Cairo paths on a 24-unit grid scaled to the requested
/// size, so it stays sharp at any scale; none is copied from an icon font.
public enum PointOfInterestIcon: String, CaseIterable, Sendable {
    case pin, restaurant, cafe, bar, fastFood, iceCream, bakery, grocery, shop, clothing, lodging
    case hospital, pharmacy, doctor, school, library, museum, theatre, attraction, information, townHall
    case police, fireStation, post, bank, placeOfWorship, parking, fuel, toilets, drinkingWater
    case train, bus, ferry, cableCar, airport, park, sports, playground, office, peak, beach, car, house, star, heart, flag

    /// The icon for an SF Symbols name a MapKit app would use (`fork.knife`, `cup.and.saucer`,
    /// `bed.double.fill`, ...), or nil when none looks like it. `.fill`, `.circle` and other
    /// variants of a name map to the same icon.
    public init?(systemImageName: String) {
        var name = systemImageName.lowercased()
        // Variants stack ("airplane.circle.fill"): strip them until the base name is left.
        while Self.systemImageNames[name] == nil,
              let suffix = [".fill", ".circle", ".square", ".slash"].first(where: { name.hasSuffix($0) }) {
            name.removeLast(suffix.count)
        }
        guard let icon = Self.systemImageNames[name] else { return nil }
        self = icon
    }

    /// The icon the default styles show for an OpenMapTiles `poi` class (see the import's
    /// schema), or nil for classes shown without an icon.
    public init?(openMapTilesClass: String) {
        guard let icon = Self.openMapTilesClasses[openMapTilesClass] else { return nil }
        self = icon
    }

    private static let systemImageNames: [String: PointOfInterestIcon] = [
        "mappin": .pin, "mappin.and.ellipse": .pin, "smallcircle": .pin, "circle": .pin, "mappin.circle": .pin,
        "fork.knife": .restaurant, "takeoutbag.and.cup.and.straw": .fastFood, "cup.and.saucer": .cafe, "mug": .cafe,
        "wineglass": .bar, "waterbottle": .drinkingWater, "birthday.cake": .bakery, "carrot": .grocery, "cart": .grocery,
        "basket": .grocery, "bag": .shop, "handbag": .shop, "tshirt": .clothing, "bed.double": .lodging, "building": .office,
        "cross": .hospital, "cross.case": .hospital, "staroflife": .hospital, "pills": .pharmacy, "pill": .pharmacy,
        "stethoscope": .doctor, "graduationcap": .school, "book": .library, "books.vertical": .library,
        "building.columns": .museum, "theatermasks": .theatre, "ticket": .theatre, "film": .theatre, "star": .star,
        "info": .information, "info.circle": .information, "flag": .flag, "shield": .police, "flame": .fireStation,
        "envelope": .post, "banknote": .bank, "dollarsign": .bank, "eurosign": .bank, "creditcard": .bank,
        "building.2": .office, "parkingsign": .parking, "p": .parking, "fuelpump": .fuel, "bolt.car": .fuel,
        "toilet": .toilets, "drop": .drinkingWater, "tram": .train, "train.side.front.car": .train, "tram.fill.tunnel": .train,
        "bus": .bus, "ferry": .ferry, "cablecar": .cableCar, "airplane": .airport, "airplane.departure": .airport,
        "tree": .park, "leaf": .park, "figure.run": .sports, "sportscourt": .sports, "soccerball": .sports,
        "tennisball": .sports, "basketball": .sports, "figure.play": .playground, "figure.and.child.holdinghands": .playground,
        "briefcase": .office, "mountain.2": .peak, "beach.umbrella": .beach, "sun.max": .beach, "car": .car,
        "house": .house, "heart": .heart, "camera": .attraction, "binoculars": .attraction, "building.columns.circle": .museum,
        "mappin.square": .pin, "moon.stars": .placeOfWorship, "hands.sparkles": .placeOfWorship, "phone": .information,
    ]

    private static let openMapTilesClasses: [String: PointOfInterestIcon] = [
        "restaurant": .restaurant, "fast_food": .fastFood, "cafe": .cafe, "bar": .bar, "ice_cream": .iceCream,
        "bakery": .bakery, "grocery": .grocery, "shop": .shop, "clothing_store": .clothing, "lodging": .lodging,
        "hospital": .hospital, "pharmacy": .pharmacy, "doctors": .doctor, "school": .school, "college": .school,
        "library": .library, "museum": .museum, "theatre": .theatre, "attraction": .attraction, "information": .information,
        "town_hall": .townHall, "police": .police, "fire_station": .fireStation, "post": .post, "bank": .bank,
        "place_of_worship": .placeOfWorship, "parking": .parking, "fuel": .fuel, "toilets": .toilets,
        "drinking_water": .drinkingWater, "railway": .train, "bus": .bus, "ferry_terminal": .ferry, "aerialway": .cableCar,
        "aerodrome": .airport, "park": .park, "sports": .sports, "playground": .playground, "office": .office,
    ]

    /// The OpenMapTiles `poi` classes that have an icon, in a fixed order.
    public static var openMapTilesClassNames: [String] { openMapTilesClasses.keys.sorted() }

    /// The colour of the icon's category, as Apple Maps groups them: food and drink orange,
    /// shopping yellow, health red, education and culture brown and purple, transport blue,
    /// nature and sport green, services grey.
    public var categoryColor: RenderColor {
        switch self {
        case .restaurant, .cafe, .bar, .fastFood, .iceCream, .bakery: RenderColor(hex: 0xF09A37)
        case .grocery, .shop, .clothing: RenderColor(hex: 0xE7B416)
        case .hospital, .pharmacy, .doctor, .heart: RenderColor(hex: 0xE5534B)
        case .school, .library: RenderColor(hex: 0xA07850)
        case .museum, .theatre, .attraction, .star, .placeOfWorship: RenderColor(hex: 0xB36AE2)
        case .lodging: RenderColor(hex: 0x9C6ADE)
        case .train, .bus, .ferry, .cableCar, .airport, .parking, .fuel, .car: RenderColor(hex: 0x3C8CE7)
        case .park, .sports, .playground, .peak, .beach: RenderColor(hex: 0x4CAF62)
        case .information, .townHall, .police, .fireStation, .post, .bank, .office, .toilets, .drinkingWater,
             .pin, .house, .flag: RenderColor(hex: 0x7D8794)
        }
    }

    /// Draws the icon in `color`, centred on (`centerX`, `centerY`) in a square of side `size`
    /// points.
    public func draw(on canvas: RenderCanvas, centerX: Double, centerY: Double, size: Double, color: RenderColor) {
        guard size > 0, size.isFinite, centerX.isFinite, centerY.isFinite else { return }
        let cairo = canvas.cairo
        cairo_save(cairo)
        // In a group of its own, so the holes some icons cut (with the CLEAR operator) go through
        // the icon only, not through what it is drawn on.
        cairo_push_group(cairo)
        cairo_translate(cairo, centerX - size / 2, centerY - size / 2)
        cairo_scale(cairo, size / 24, size / 24)
        canvas.setSource(color)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        IconPen(cairo: cairo).draw(self)
        cairo_pop_group_to_source(cairo)
        cairo_paint(cairo)
        cairo_restore(cairo)
    }

    /// Draws the badge the default styles show: the icon in white on a disc of its category
    /// colour with a thin white rim, filling a square of side `size` points.
    public func drawBadge(on canvas: RenderCanvas, centerX: Double, centerY: Double, size: Double) {
        canvas.fillCircle(x: centerX, y: centerY, radius: size / 2, color: .white)
        canvas.fillCircle(x: centerX, y: centerY, radius: size / 2 - max(1, size / 16), color: categoryColor)
        draw(on: canvas, centerX: centerX, centerY: centerY, size: size * 0.62, color: .white)
    }
}

extension RenderColor {
    /// A colour from a 0xRRGGBB literal.
    init(hex: UInt32, alpha: Double = 1) {
        self.init(red: Double(hex >> 16 & 0xFF) / 255, green: Double(hex >> 8 & 0xFF) / 255, blue: Double(hex & 0xFF) / 255, alpha: alpha)
    }
}

/// Path drawing on a 24-unit grid: shapes are added to the current path, then filled (even-odd,
/// so a shape inside another cuts a hole) or stroked.
private struct IconPen {
    let cairo: OpaquePointer

    func circle(_ x: Double, _ y: Double, _ r: Double) {
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, x, y, r, 0, 2 * .pi)
    }

    func arc(_ x: Double, _ y: Double, _ r: Double, _ from: Double, _ to: Double) {
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, x, y, r, from * .pi / 180, to * .pi / 180)
    }

    func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, r: Double = 0) {
        guard r > 0 else { return cairo_rectangle(cairo, x, y, w, h) }
        let r = min(r, w / 2, h / 2)
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, x + w - r, y + r, r, -.pi / 2, 0)
        cairo_arc(cairo, x + w - r, y + h - r, r, 0, .pi / 2)
        cairo_arc(cairo, x + r, y + h - r, r, .pi / 2, .pi)
        cairo_arc(cairo, x + r, y + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cairo)
    }

    func poly(_ points: [(Double, Double)], closed: Bool = true) {
        guard let first = points.first else { return }
        cairo_move_to(cairo, first.0, first.1)
        for p in points.dropFirst() { cairo_line_to(cairo, p.0, p.1) }
        if closed { cairo_close_path(cairo) }
    }

    func fill() {
        cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_fill(cairo)
    }

    func stroke(_ width: Double) {
        cairo_set_line_width(cairo, width)
        cairo_stroke(cairo)
    }

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    func draw(_ icon: PointOfInterestIcon) {
        switch icon {
        case .pin:
            circle(12, 12, 5); fill()
        case .restaurant:
            // Fork (left) and knife (right).
            poly([(6, 3), (6, 8)], closed: false); poly([(8.5, 3), (8.5, 8)], closed: false); poly([(11, 3), (11, 8)], closed: false); stroke(1.4)
            rect(5.3, 7, 6.4, 3.5, r: 1.6); fill()
            rect(7.6, 9, 1.8, 12, r: 0.9); fill()
            poly([(17.5, 3), (17.5, 21)], closed: false); stroke(1.8)
            poly([(17.5, 3), (14.8, 7), (14.8, 13), (17.5, 13)]); fill()
        case .cafe:
            rect(4, 8, 12, 9, r: 2.5); fill()
            arc(16.5, 12.5, 3, -90, 90); stroke(1.8)
            rect(3, 18.5, 15, 2, r: 1); fill()
            poly([(8, 3), (8.8, 5.5), (8, 7)], closed: false); poly([(12, 3), (12.8, 5.5), (12, 7)], closed: false); stroke(1.2)
        case .bar:
            poly([(4, 4), (20, 4), (12, 13)]); fill()
            poly([(12, 12), (12, 19.5)], closed: false); stroke(1.8)
            poly([(7.5, 20), (16.5, 20)], closed: false); stroke(2)
        case .fastFood:
            poly([(6, 7), (18, 7), (16.5, 21), (7.5, 21)]); fill()
            rect(5, 5, 14, 2.5, r: 1); fill()
            poly([(13, 6), (15.5, 1.5)], closed: false); stroke(1.5)
        case .iceCream:
            poly([(7.5, 11), (16.5, 11), (12, 22)]); fill()
            circle(12, 8, 5); fill()
        case .bakery:
            // A loaf seen from the side, with scores.
            rect(3, 8, 18, 11, r: 5.5); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
            poly([(8, 10.5), (6.5, 15.5)], closed: false); poly([(12.8, 10.5), (11.3, 15.5)], closed: false)
            poly([(17.5, 10.5), (16, 15.5)], closed: false); stroke(1.3)
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
        case .grocery:
            poly([(2.5, 4), (5.5, 4), (8, 15), (18.5, 15), (20.5, 7.5), (6.3, 7.5)], closed: false); stroke(1.8)
            circle(9, 19, 1.8); circle(17, 19, 1.8); fill()
        case .shop:
            rect(5, 8, 14, 13, r: 1.5); fill()
            arc(12, 8, 3.5, 180, 360); stroke(1.6)
        case .clothing:
            poly([(8, 3.5), (3, 6.5), (5, 11), (7, 10), (7, 20.5), (17, 20.5), (17, 10), (19, 11), (21, 6.5), (16, 3.5),
                  (14.5, 5.5), (9.5, 5.5)]); fill()
        case .lodging:
            rect(3, 5, 2, 15); fill()
            rect(3, 14, 18, 3); fill()
            rect(19, 11, 2, 9); fill()
            circle(8.5, 11, 2.2); fill()
            rect(11.5, 9.5, 9.5, 4, r: 1.5); fill()
        case .hospital:
            rect(9.5, 3.5, 5, 17); rect(3.5, 9.5, 17, 5); cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_WINDING); cairo_fill(cairo)
        case .pharmacy:
            cairo_save(cairo)
            cairo_translate(cairo, 12, 12); cairo_rotate(cairo, -.pi / 4); cairo_translate(cairo, -12, -12)
            rect(3, 8.5, 18, 7, r: 3.5); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
            poly([(12, 8), (12, 16)], closed: false); stroke(1.2)
            cairo_restore(cairo)
        case .doctor:
            // Stethoscope: the tubes and the chest piece.
            arc(9, 8, 5, 0, 180); stroke(1.8)
            poly([(4, 8), (4, 3.5)], closed: false); poly([(14, 8), (14, 3.5)], closed: false); stroke(1.8)
            cairo_new_sub_path(cairo)
            cairo_move_to(cairo, 9, 13); cairo_curve_to(cairo, 9, 20, 17.5, 21, 17.5, 14.5); stroke(1.8)
            circle(17.5, 12.5, 2.6); fill()
        case .school:
            poly([(12, 4), (23, 9), (12, 14), (1, 9)]); fill()
            poly([(6, 11.5), (6, 16), (12, 19), (18, 16), (18, 11.5), (12, 14.5)]); fill()
            poly([(21, 9.5), (21, 16)], closed: false); stroke(1.3)
        case .library:
            poly([(12, 6), (3, 4), (3, 18), (12, 20)]); fill()
            poly([(12, 6), (21, 4), (21, 18), (12, 20)]); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
            poly([(12, 5.5), (12, 20.5)], closed: false); stroke(1.2)
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
        case .museum, .townHall:
            poly([(12, 2.5), (22, 8), (2, 8)]); fill()
            for x in [4.5, 9.5, 14.5] { rect(x + (icon == .townHall ? 0 : 0), 9.5, 2.8, 8) }
            rect(18.7, 9.5, 2.8, 8); fill()
            rect(2.5, 18.5, 19, 3); fill()
            if icon == .townHall {
                cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR); circle(12, 6.3, 1.2); fill(); cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
            }
        case .theatre:
            // Two masks.
            cairo_new_sub_path(cairo)
            cairo_move_to(cairo, 2.5, 4); cairo_line_to(cairo, 13.5, 4); cairo_curve_to(cairo, 13.5, 13, 11, 16, 8, 16)
            cairo_curve_to(cairo, 5, 16, 2.5, 13, 2.5, 4); cairo_close_path(cairo)
            circle(5.8, 8, 1.1); circle(10.2, 8, 1.1)
            arc(8, 11, 2.3, 20, 160)
            fill()
            cairo_new_sub_path(cairo)
            cairo_move_to(cairo, 11, 9); cairo_line_to(cairo, 21.5, 9); cairo_curve_to(cairo, 21.5, 17.5, 19.2, 21, 16.25, 21)
            cairo_curve_to(cairo, 13.3, 21, 12.3, 19, 12, 17); cairo_line_to(cairo, 14, 15.5); cairo_line_to(cairo, 14.8, 9); cairo_close_path(cairo)
            fill()
        case .attraction, .star:
            var points: [(Double, Double)] = []
            for k in 0..<10 {
                let angle = -Double.pi / 2 + Double(k) * .pi / 5
                let r = k % 2 == 0 ? 10.0 : 4.2
                points.append((12 + r * cos(angle), 12.8 + r * sin(angle)))
            }
            poly(points); fill()
        case .information:
            circle(12, 5.5, 2.2); fill()
            poly([(8.5, 10), (14, 10), (14, 19), (16, 19), (16, 21), (8.5, 21), (8.5, 19), (10.5, 19), (10.5, 12), (8.5, 12)]); fill()
        case .police:
            cairo_new_sub_path(cairo)
            cairo_move_to(cairo, 12, 2.5); cairo_line_to(cairo, 20.5, 5.5); cairo_curve_to(cairo, 20.5, 14, 17, 19, 12, 21.5)
            cairo_curve_to(cairo, 7, 19, 3.5, 14, 3.5, 5.5); cairo_close_path(cairo); fill()
        case .fireStation:
            cairo_new_sub_path(cairo)
            cairo_move_to(cairo, 12, 2); cairo_curve_to(cairo, 13, 7, 19, 9, 19, 15); cairo_curve_to(cairo, 19, 19, 16, 22, 12, 22)
            cairo_curve_to(cairo, 8, 22, 5, 19, 5, 15); cairo_curve_to(cairo, 5, 11, 8, 10, 8.5, 7)
            cairo_curve_to(cairo, 10.5, 9, 10.5, 11, 10.5, 11); cairo_curve_to(cairo, 12.5, 8, 12.5, 5, 12, 2); cairo_close_path(cairo); fill()
        case .post:
            rect(2.5, 5.5, 19, 13, r: 1.5); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
            poly([(3.5, 7), (12, 13), (20.5, 7)], closed: false); stroke(1.5)
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
        case .bank:
            rect(2, 6, 20, 12, r: 1.5); circle(12, 12, 3.2); fill()
            circle(12, 12, 1.6); fill()
        case .placeOfWorship:
            rect(6, 11, 12, 10); fill()
            poly([(12, 3.5), (19, 11.5), (5, 11.5)]); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
            rect(10, 15, 4, 6.5, r: 2); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
        case .parking:
            cairo_new_sub_path(cairo)
            cairo_move_to(cairo, 6.5, 21); cairo_line_to(cairo, 6.5, 3); cairo_line_to(cairo, 13, 3)
            cairo_arc(cairo, 13, 9, 6, -.pi / 2, .pi / 2); cairo_line_to(cairo, 10, 15); cairo_line_to(cairo, 10, 21); cairo_close_path(cairo)
            cairo_new_sub_path(cairo)
            cairo_move_to(cairo, 10, 6); cairo_line_to(cairo, 13, 6); cairo_arc(cairo, 13, 9, 3, -.pi / 2, .pi / 2)
            cairo_line_to(cairo, 10, 12); cairo_close_path(cairo)
            fill()
        case .fuel:
            rect(4, 3, 10, 18.5, r: 1.5); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR); rect(6, 5, 6, 5); fill(); cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
            poly([(14, 9), (17, 9), (17, 17), (19.5, 17), (19.5, 6.5), (17, 4)], closed: false); stroke(1.5)
        case .toilets:
            circle(7, 4.5, 2.2); circle(17, 4.5, 2.2); fill()
            rect(5, 8, 4, 13.5, r: 1.2); fill()
            poly([(17, 8), (20.5, 16.5), (13.5, 16.5)]); rect(15.5, 15, 3, 6.5); cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_WINDING); cairo_fill(cairo)
        case .drinkingWater:
            cairo_new_sub_path(cairo)
            cairo_move_to(cairo, 12, 2.5); cairo_curve_to(cairo, 14, 7, 19, 11, 19, 15); cairo_arc(cairo, 12, 15, 7, 0, .pi)
            cairo_curve_to(cairo, 5, 11, 10, 7, 12, 2.5); cairo_close_path(cairo); fill()
        case .train:
            rect(5, 2.5, 14, 16, r: 3.5); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
            rect(7, 5.5, 10, 5.5, r: 1); fill(); circle(8.5, 14.5, 1.4); circle(15.5, 14.5, 1.4); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
            poly([(8, 19), (5.5, 22)], closed: false); poly([(16, 19), (18.5, 22)], closed: false); stroke(1.6)
        case .bus:
            rect(4, 2.5, 16, 17, r: 2.5); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
            rect(6, 5.5, 12, 6.5, r: 0.8); fill(); circle(8, 16, 1.3); circle(16, 16, 1.3); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
            rect(5.5, 19, 3, 3, r: 0.8); rect(15.5, 19, 3, 3, r: 0.8); fill()
        case .ferry:
            poly([(2.5, 13), (21.5, 13), (18, 19.5), (6, 19.5)]); fill()
            rect(6.5, 7.5, 11, 4.5, r: 0.8); fill()
            rect(10, 3.5, 3, 4.5); fill()
            cairo_new_sub_path(cairo)
            cairo_move_to(cairo, 2, 22); cairo_curve_to(cairo, 5, 20.5, 7, 23.5, 10, 22); cairo_curve_to(cairo, 13, 20.5, 15, 23.5, 18, 22)
            cairo_line_to(cairo, 22, 21.5); stroke(1.2)
        case .cableCar:
            poly([(2, 5), (22, 2.5)], closed: false); stroke(1.5)
            poly([(12, 4), (12, 9)], closed: false); stroke(1.5)
            rect(5.5, 9, 13, 12, r: 2.5); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR); rect(7.5, 11, 9, 4.5, r: 0.8); fill(); cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
        case .airport:
            poly([(12, 2), (13.6, 4), (13.6, 9.5), (22, 14.5), (22, 16.5), (13.6, 13.8), (13.6, 18.5), (16.5, 20.7), (16.5, 22),
                  (12, 20.8), (7.5, 22), (7.5, 20.7), (10.4, 18.5), (10.4, 13.8), (2, 16.5), (2, 14.5), (10.4, 9.5), (10.4, 4)]); fill()
        case .park:
            circle(12, 8, 6); circle(8, 12, 4.5); circle(16, 12, 4.5); cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_WINDING); cairo_fill(cairo)
            rect(10.8, 13, 2.4, 9); fill()
        case .sports:
            circle(12, 12, 9); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
            poly([(12, 3), (12, 21)], closed: false); stroke(1.3)
            arc(2.5, 12, 7, -55, 55); arc(21.5, 12, 7, 125, 235); stroke(1.3)
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
        case .playground:
            // A swing: frame, ropes and seat.
            poly([(3, 21.5), (7, 3.5), (17, 3.5), (21, 21.5)], closed: false); stroke(1.8)
            poly([(10, 4), (10, 15)], closed: false); poly([(14, 4), (14, 15)], closed: false); stroke(1.1)
            rect(8.5, 15, 7, 2, r: 0.8); fill()
        case .office:
            rect(2.5, 7, 19, 13, r: 2); fill()
            rect(8.5, 3.5, 7, 5, r: 1.5); stroke(1.6)
        case .peak:
            poly([(1.5, 20), (9, 6), (13, 13), (15.5, 9.5), (22.5, 20)]); fill()
        case .beach:
            cairo_new_sub_path(cairo)
            cairo_move_to(cairo, 2.5, 11); cairo_curve_to(cairo, 4, 3, 16, 1, 21, 7); cairo_close_path(cairo); fill()
            poly([(11.5, 6), (15.5, 21)], closed: false); stroke(1.6)
            poly([(4, 21.5), (20, 21.5)], closed: false); stroke(1.6)
        case .car:
            cairo_new_sub_path(cairo)
            cairo_move_to(cairo, 3, 17); cairo_line_to(cairo, 3, 12); cairo_line_to(cairo, 6, 6); cairo_line_to(cairo, 18, 6)
            cairo_line_to(cairo, 21, 12); cairo_line_to(cairo, 21, 17); cairo_close_path(cairo); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
            poly([(7, 8), (17, 8), (18.8, 11.5), (5.2, 11.5)]); fill(); circle(6.5, 14.3, 1.3); circle(17.5, 14.3, 1.3); fill()
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
            rect(4, 16, 3.5, 4, r: 1); rect(16.5, 16, 3.5, 4, r: 1); fill()
        case .house:
            poly([(12, 3), (22, 12), (19, 12), (19, 21), (14.5, 21), (14.5, 15), (9.5, 15), (9.5, 21), (5, 21), (5, 12), (2, 12)]); fill()
        case .heart:
            cairo_new_sub_path(cairo)
            cairo_move_to(cairo, 12, 21); cairo_curve_to(cairo, 3, 14, 1, 9, 4, 5.5); cairo_curve_to(cairo, 7, 2.5, 11, 4, 12, 7)
            cairo_curve_to(cairo, 13, 4, 17, 2.5, 20, 5.5); cairo_curve_to(cairo, 23, 9, 21, 14, 12, 21); cairo_close_path(cairo); fill()
        case .flag:
            poly([(5.5, 3), (5.5, 21.5)], closed: false); stroke(1.8)
            poly([(6, 3.5), (19.5, 3.5), (16, 8.5), (19.5, 13.5), (6, 13.5)]); fill()
        }
    }
}
