import OpenMapKit

extension MapWindow {
    /// What the window did and the map view's state after it, given to ``MapWindow/onReport``.
    ///
    /// Encoded as JSON (sorted keys) it is one line of `openmapkit view --report`: fields that
    /// are nil are left out.
    public struct Report: Encodable, Sendable {
        /// A search result: its title and where it is.
        public struct Place: Encodable, Sendable {
            public var title: String
            public var latitude: Double
            public var longitude: Double
            /// Where it is in the window, in points (annotations of a live map).
            public var x: Double?, y: Double?
        }

        /// A button of the app's panel and where it is drawn, in points.
        public struct Button: Encodable, Sendable {
            public var title: String
            public var x: Double, y: Double, width: Double, height: Double
        }

        /// What happened: `open` (``MapWindow/run()`` started), `frame` (a frame was drawn),
        /// `camera` (a camera change settled), `drag`, `wheel`, `doubleClick`, `rotate`, `click`,
        /// `compass`, `key:+`, `key:-`, `key:left` (and `right`, `up`, `down`), `searchFocused`,
        /// `searchCancelled`, `search`, `routeStart`, `route`, `cleared`, `button` (a panel button; its
        /// title in ``query``), `lookAround` (Look Around opened), `lookAroundTurned`,
        /// `lookAroundMoved`, `lookAroundClosed`, `lookAroundUnavailable` (no street there).
        public var event: String
        /// The event's numbers: the pointer's `x` and `y` and the wheel's `steps`; the window's
        /// `width` and `height` (open); the frame's `milliseconds`, `mapMilliseconds`,
        /// `controlsMilliseconds`, `presentMilliseconds` and `scale` (frame); `distance` and
        /// `seconds` (route); `latitude` and `longitude` (routeStart).
        public var values: [String: Double]?
        /// The camera's centre, zoom level, heading and pitch after the event.
        public var latitude = 0.0, longitude = 0.0, zoom = 0.0, heading = 0.0, pitch = 0.0
        /// The selected annotation's title.
        public var selected: String?
        /// The route's length in metres, while one is shown.
        public var routeDistance: Double?
        /// How long the last frame took to draw, in milliseconds.
        public var frameMilliseconds: Double?
        /// The query (search).
        public var query: String?
        /// The places found (search).
        public var results: [Place]?
        /// Why there is no route (route).
        public var failure: String?
        /// Whether the camera is still moving by an animation.
        public var animating = false
        /// The lines of the app's panel as last drawn (see ``MapWindow/panel``), when it has one.
        public var panel: [String]?
        /// The panel's buttons as last drawn.
        public var buttons: [Button]?
        /// A live map's annotations on screen, with their points (``MapWindow/mapHost``'s maps;
        /// reported when the camera settles and after clicks).
        public var annotations: [Place]?
        /// The panel's Look Around preview as last drawn: its frame, titled with the scene's street.
        public var preview: Button?
        /// Where the viewer stands and looks, while the window shows Look Around.
        public var lookAround: LookAround?

        /// A Look Around standpoint: on the street, looking `heading` degrees from north.
        public struct LookAround: Encodable, Sendable {
            public var latitude: Double, longitude: Double, heading: Double, pitch: Double
            public var street: String?
        }

        init(event: String, values: [String: Double]?) {
            self.event = event
            self.values = values
        }
    }
}
