import CSDL2
import Foundation
import MapRender
@_spi(MapWindow) import OpenMapKit

/// A desktop window (SDL2) that shows an `MKMapView` and turns mouse, wheel and keys into the
/// map view's gestures: the window of `openmapkit view`, for any Swift program.
///
/// Left-drag pans (coasting on release), the wheel zooms at the cursor, right-drag rotates
/// (sideways) and tilts (up and down), a double-click zooms in, a click selects the annotation
/// under the cursor or looks up the place there and shows its callout, two right-clicks draw a
/// route between two points (`MKDirections`, by car), `/` opens a search field (Enter searches
/// the visible region), `+`/`-` and the arrows zoom and pan, Escape clears what the window added,
/// and Ctrl+Q or closing the window ends ``run()``. Searches and routes use the map view's
/// `dataSource` (else `MapDataSource.default`).
///
/// The window needs a display: a desktop session, or a virtual X server without one
/// (`xvfb-run`, or `Xvfb :99` with `DISPLAY=:99`). Without one ``init(mapView:title:size:)``
/// throws ``MapWindowError``.
///
/// ```swift
/// let mapView = MKMapView(frame: CGRect(x: 0, y: 0, width: 1280, height: 800))
/// mapView.dataSource = try MapDataSource(path: "monaco.omk")
/// mapView.setCenter(CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), animated: false)
/// let window = try MapWindow(mapView: mapView, title: "Monaco")
/// try window.run()
/// ```
///
/// The loop draws a frame only when something changed (the camera, the annotations, the
/// overlays, the search field) or an animation runs; between changes it sleeps in SDL's event
/// wait, so an idle window costs nothing. All motion events that queued up while a frame was
/// drawn are handled before the next one, so a slow frame never makes the map lag behind the mouse.
///
/// Use a window on one thread: the one that made it runs it. One window at a time per process.
public final class MapWindow {
    /// The map view the window shows and drives. The window is its delegate (see
    /// ``init(mapView:title:size:)``) and sets its frame when the window is resized.
    public let mapView: MKMapView
    /// The Mapbox-shaped map view the window shows, when it was made with
    /// ``init(mapboxMapView:title:size:)``; ``mapView`` is then its engine.
    public let mapboxMapView: MGLMapView?
    /// Draws a frame: the map view's `render()`, or the Mapbox face's (its style, its ornaments),
    /// or the map host's (which evaluates its map first).
    private var renderMap: () throws -> UIImage
    /// The host whose `Map` the window shows, when made with ``init(mapHost:title:size:)``.
    public private(set) var mapHost: MapHost?

    /// What the app shows along the bottom of the window (an OpenMapKit addition), asked for
    /// before each frame; nil shows nothing. Clicks on its buttons run their actions.
    public var panel: (() -> MapWindowPanel)?
    private var panelButtons: [(CGRect, MapWindowButton)] = []
    private var panelLines: [String]?

    /// Called on the window's thread for every event the window handled, every camera change
    /// that settled and every frame it drew, with the map view's state after it (what
    /// `openmapkit view --report` prints as JSON lines). Nil, the default, reports nothing.
    public var onReport: ((Report) -> Void)?

    private let delegate: WindowMapDelegate
    private var videoStarted = false
    private var window: OpaquePointer?
    private var renderer: OpaquePointer?
    private var texture: OpaquePointer?
    /// The frame shown: the map view's last image with the search field and status line drawn over it.
    private var canvas: RenderCanvas
    /// The device pixels per point of the frame shown (below 1 while the map moves).
    private var drawnScale = 1.0
    private var texturePixels = (width: 0, height: 0)
    private var needsFrame = true
    private var running = true

    // Pointer state.
    private var leftDown: (x: Double, y: Double)?
    private var rightDown: (x: Double, y: Double)?
    private var last = (x: 0.0, y: 0.0)
    private var dragging = false
    private var motion: [(time: Double, x: Double, y: Double)] = []
    /// A single click waits this long for a second one, so a double-click only zooms.
    private static let doubleClickDelay = 0.3
    private static let dragThreshold = 4.0
    private var pendingClick: (x: Double, y: Double, deadline: Double)?

    // What the user added.
    private var placeMarkers: [MKPointAnnotation] = []
    private var searchMarkers: [MKPointAnnotation] = []
    private var routeEnds: [MKPointAnnotation] = []
    private var route: MKPolyline?
    private var routeDistance: Double?
    private var searchFocused = false
    private var searchText = ""
    private var status = ""
    private var lastFrameMilliseconds: Double?
    /// Where the viewer stands while the window is in Look Around mode (nil: the map).
    private var lookAround: LookAroundSession?
    /// The panel's Look Around preview's frame and scene as last drawn (a click there opens it).
    private var previewHit: (frame: CGRect, scene: MKLookAroundScene)?
    /// What the panel showed in the last frame (see ``signature(of:)``).
    private var drawnPanelSignature: String?

    /// Opens a window showing `mapView`.
    ///
    /// The window becomes the map view's delegate, to redraw when the camera, annotations or
    /// selection change and to draw its markers and route. A delegate the map view had is kept
    /// and asked first: its annotation views, its overlay renderers for overlays the window did
    /// not add, and every callback are passed on to it. Set the delegate before making the
    /// window, not after.
    ///
    /// - Parameters:
    ///   - mapView: The map view to show and drive. Give it a `dataSource` (or set
    ///     `MapDataSource.default`) for it to have a map to draw.
    ///   - title: The window's title.
    ///   - size: The window's size in points; nil takes the map view's frame size. The map
    ///     view's frame is set to it.
    /// - Throws: ``MapWindowError`` when there is no display to open a window on (neither
    ///   `DISPLAY` nor `WAYLAND_DISPLAY` is set, or SDL cannot connect to it), when the size
    ///   is empty, or when SDL cannot make the window or draw in it.
    public convenience init(mapView: MKMapView, title: String = "OpenMapKit", size: CGSize? = nil) throws {
        try self.init(engine: mapView, mapbox: nil, title: title, size: size)
    }

    /// Opens a window showing a Mapbox-shaped map view: its style, ornaments and delegate, with
    /// the same gestures, search and routes as a MapKit map view's window (they drive the one
    /// engine both faces share). The Mapbox view's delegate hears its callbacks as usual.
    public convenience init(mapboxMapView: MGLMapView, title: String = "OpenMapKit", size: CGSize? = nil) throws {
        try self.init(engine: mapboxMapView.windowEngine, mapbox: mapboxMapView, title: title, size: size)
    }

    /// Opens a window showing a live `Map` (see `MapHost`): the window drives the host's map view,
    /// evaluates the host's map before each frame (and redraws when it changed), and sends clicks
    /// to the host, which selects content, works the controls and calls the map's tap action.
    /// The window's own places, search and routes are off: the app's map is its own. Tasks the
    /// app starts on the main actor (a search, directions) run between the window's frames.
    public convenience init(mapHost: MapHost, title: String = "OpenMapKit", size: CGSize? = nil) throws {
        try self.init(engine: mapHost.mapView, mapbox: nil, title: title, size: size)
        self.mapHost = mapHost
        renderMap = { try mapHost.render() }
    }

    private init(engine mapView: MKMapView, mapbox: MGLMapView?, title: String, size: CGSize?) throws {
        let size = size ?? mapView.frame.size
        guard size.width.isFinite, size.height.isFinite, size.width >= 1, size.height >= 1 else {
            throw MapWindowError("cannot make a \(size.width)x\(size.height) window: the size must be at least 1x1")
        }
        do { canvas = try RenderCanvas(width: Double(size.width), height: Double(size.height)) } catch {
            throw MapWindowError("cannot make a \(Int(size.width))x\(Int(size.height)) frame: \(error.description)")
        }
        self.mapView = mapView
        mapboxMapView = mapbox
        renderMap = mapbox.map { face in { try face.render() } } ?? { try mapView.render() }
        if mapView.frame != CGRect(origin: .zero, size: size) { mapView.frame = CGRect(origin: .zero, size: size) }
        delegate = WindowMapDelegate(forwardingTo: mapView.delegate)
        mapView.delegate = delegate
        delegate.owner = self

        // Without a display SDL may fall back to a video driver that shows nothing (offscreen,
        // KMS); a window nobody can see is a failure, unless SDL_VIDEODRIVER asks for one.
        // (A throw from here on runs deinit, which closes what was opened.)
        let environment = ProcessInfo.processInfo.environment
        let hint = "Run it in a desktop session, or under Xvfb (xvfb-run \(ProcessInfo.processInfo.processName) ...)."
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil || environment["SDL_VIDEODRIVER"] != nil else {
            throw MapWindowError("no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set). " + hint)
        }
        SDL_SetMainReady()
        guard SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO)) == 0 else {
            let reason = String(cString: SDL_GetError())
            let display = environment["DISPLAY"].map { "DISPLAY=\($0)" } ?? "DISPLAY is not set"
            throw MapWindowError("no display to open a window on (\(display)): \(reason). " + hint)
        }
        videoStarted = true
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
        if ["offscreen", "dummy", "evdev", "none"].contains(driver), environment["SDL_VIDEODRIVER"] == nil {
            let display = environment["DISPLAY"] ?? environment["WAYLAND_DISPLAY"] ?? ""
            throw MapWindowError("no display to open a window on: cannot connect to \(display) (SDL fell back to its \(driver) driver). "
                                 + hint)
        }
        let centered = Int32(bitPattern: 0x2FFF_0000)
        guard let window = SDL_CreateWindow(title, centered, centered, Int32(size.width), Int32(size.height),
                                            SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_RESIZABLE.rawValue) else {
            throw MapWindowError("cannot open a window: \(String(cString: SDL_GetError()))")
        }
        self.window = window
        // Frames drawn at half resolution while the map moves are scaled up smoothly.
        SDL_SetHint("SDL_RENDER_SCALE_QUALITY", "linear")
        guard let renderer = SDL_CreateRenderer(window, -1, 0) ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue) else {
            throw MapWindowError("cannot draw in the window: \(String(cString: SDL_GetError()))")
        }
        self.renderer = renderer
        try makeTexture()
        // Text input only while the search field has the focus (SDL starts with it on).
        SDL_StopTextInput()
    }

    deinit {
        if let texture { SDL_DestroyTexture(texture) }
        if let renderer { SDL_DestroyRenderer(renderer) }
        if let window { SDL_DestroyWindow(window) }
        if videoStarted { SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO)) }
        if mapView.delegate === delegate { mapView.delegate = delegate.forwarded }
    }

    private func makeTexture() throws {
        if let texture { SDL_DestroyTexture(texture) }
        texture = nil
        guard let made = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                           Int32(canvas.pixelWidth), Int32(canvas.pixelHeight)) else {
            throw MapWindowError("cannot make the window's texture: \(String(cString: SDL_GetError()))")
        }
        texture = made
        texturePixels = (canvas.pixelWidth, canvas.pixelHeight)
    }

    // MARK: - The loop

    /// Shows the window and handles its input until it is closed (the window's close button,
    /// Ctrl+Q, or ``close()``), drawing the map view whenever it changed. Returns when the
    /// window is closed; the window stays on screen, its last frame shown, until this object
    /// is released.
    ///
    /// Blocks the calling thread; run it on the thread that made the window. Searches and
    /// routes started from the window wait for their answers on this thread too.
    public func run() throws {
        running = true
        report("open", ["width": Double(canvas.width), "height": Double(canvas.height)])
        var event = SDL_Event()
        while running {
            // A style change blending in (Mapbox's runtime styling) needs frames as animations do.
            let animating = mapView.isAnimating || mapView.isTransitioningStyle
            // Wait for input; wake for the pending click's deadline and for animation frames.
            var timeout: Int32 = needsFrame || animating ? 0 : 250
            if let click = pendingClick { timeout = min(timeout, Int32(max(0, (click.deadline - now) * 1000))) }
            if SDL_WaitEventTimeout(&event, timeout) == 1 {
                handle(&event)
                while SDL_PollEvent(&event) == 1 { handle(&event) }
            }
            if let click = pendingClick, now >= click.deadline {
                pendingClick = nil
                select(at: CGPoint(x: click.x, y: click.y))
            }
            if mapView.isAnimating {
                mapView.advanceAnimations()
                needsFrame = true
            }
            if mapView.isTransitioningStyle { needsFrame = true }
            // Remote tiles a frame did not wait for have come (checked at least every 250 ms).
            if mapView.hasNewlyLoadedTiles { needsFrame = true }
            if let mapHost {
                // The app's main-actor tasks (searches, directions) finish here, between frames,
                // and whatever state they changed shows in the next one.
                RunLoop.main.run(until: Date())
                if mapHost.update() { needsFrame = true }
            }
            // The app's panel changed (a task set what it shows): draw it.
            if let panel, Self.signature(of: panel()) != drawnPanelSignature { needsFrame = true }
            // The map came to rest after frames drawn at low resolution: draw it sharp.
            if drawnScale < 1, !moving { needsFrame = true }
            if needsFrame, running {
                needsFrame = false
                drawFrame()
            }
        }
    }

    /// The frame shown now as a PNG (an OpenMapKit addition): the map with the controls and the
    /// app's panel drawn over it, at the window's size; for screenshots and tests.
    public func framePNG() throws -> [UInt8] {
        do { return try canvas.pngData() } catch { throw MapWindowError("cannot encode the frame: \(error.description)") }
    }

    /// Asks ``run()`` to return: it does once it has handled the events before this request.
    /// Safe to call from any thread (it posts SDL's quit event), and before ``run()`` (which
    /// then returns at once).
    public func close() {
        var quit = SDL_Event()
        quit.type = SDL_QUIT.rawValue
        _ = SDL_PushEvent(&quit)
    }

    private var now: Double { ProcessInfo.processInfo.systemUptime }

    /// Whether the map is moving under the pointer or by an animation: frames are then drawn at
    /// half resolution (a quarter of the pixels) and scaled up by SDL; the frame it settles on is
    /// drawn sharp.
    private var moving: Bool { (dragging && (leftDown != nil || rightDown != nil)) || mapView.isAnimating }

    private func drawFrame() {
        if lookAround != nil { return drawLookAroundFrame() }
        let start = now
        let scale: CGFloat = moving ? 0.5 : 1
        mapView.contentScaleFactor = scale
        var mapDone = start
        do {
            // The controls are drawn straight onto the map view's image: no copy of the frame.
            canvas = try renderMap().renderCanvas
            mapDone = now
        } catch {
            if let blank = try? RenderCanvas(width: canvas.width, height: canvas.height) {
                canvas = blank
                canvas.fill(RenderColor(red: 0.96, green: 0.95, blue: 0.93))
            }
            status = "cannot draw the map: \((error as? MKError)?.reason ?? "\(error)")"
        }
        drawnScale = canvas.scale
        drawSearchField()
        drawStatus()
        drawPanel()
        let composed = now
        guard present() else { return }
        lastFrameMilliseconds = (now - start) * 1000
        // The whole frame, and its parts: the map view's render, the controls drawn over it,
        // and the copy into the window.
        report("frame", ["milliseconds": lastFrameMilliseconds!, "mapMilliseconds": (mapDone - start) * 1000,
                         "controlsMilliseconds": (composed - mapDone) * 1000, "presentMilliseconds": (now - composed) * 1000,
                         "scale": Double(scale)])
    }

    /// Copies the frame into the window; false when the window's texture cannot be made.
    private func present() -> Bool {
        if canvas.pixelWidth != texturePixels.width || canvas.pixelHeight != texturePixels.height {
            do { try makeTexture() } catch { status = "\(error)"; return false }
        }
        canvas.withPremultipliedARGB { pixels, stride in
            _ = SDL_UpdateTexture(texture, nil, pixels.baseAddress, Int32(stride))
        }
        SDL_RenderClear(renderer)
        SDL_RenderCopy(renderer, texture, nil, nil)
        SDL_RenderPresent(renderer)
        return true
    }

    // MARK: - Look Around

    /// Whether the window shows Look Around (an OpenMapKit addition).
    public var isLookingAround: Bool { lookAround != nil }
    /// The scene the window's Look Around stands at, and where it looks.
    public var lookAroundView: (scene: MKLookAroundScene, heading: Double, pitch: Double)? {
        lookAround.map { ($0.scene, $0.heading, $0.pitch) }
    }

    /// Enters Look Around at the street nearest `coordinate` (as the L key does at the pointer, and
    /// as a Maps URL's `/look-around` asks); false, with the reason in the status line, where
    /// there is no street.
    @discardableResult
    public func enterLookAround(at coordinate: CLLocationCoordinate2D, heading: Double? = nil) -> Bool {
        do {
            guard var session = try LookAroundSession.start(at: coordinate, dataSource: mapView.dataSource) else {
                status = "No Look Around here: no street within \(Int(MKLookAroundSceneRequest.maximumDistance)) m"
                needsFrame = true
                report("lookAroundUnavailable", ["latitude": coordinate.latitude, "longitude": coordinate.longitude])
                return false
            }
            if let heading, heading.isFinite { session.heading = (heading.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) }
            enter(session)
            return true
        } catch {
            status = "No Look Around: \((error as? MKError)?.reason ?? "\(error)")"
            needsFrame = true
            return false
        }
    }

    private func enter(_ session: LookAroundSession) {
        lookAround = session
        status = ""
        needsFrame = true
        report("lookAround")
    }

    /// Leaves Look Around for the map, centred where the viewer stood.
    public func leaveLookAround() {
        guard let session = lookAround else { return }
        lookAround = nil
        mapView.setCenter(session.scene.coordinate, animated: false)
        status = ""
        needsFrame = true
        report("lookAroundClosed")
    }

    private func drawLookAroundFrame() {
        guard let session = lookAround else { return }
        let start = now
        let scale = dragging ? 0.5 : 1
        do {
            canvas = try session.draw(width: canvas.width, height: canvas.height, scale: scale)
        } catch {
            if let blank = try? RenderCanvas(width: canvas.width, height: canvas.height) { canvas = blank }
            status = "cannot draw Look Around: \((error as? MKError)?.reason ?? "\(error)")"
        }
        drawnScale = canvas.scale
        let street = session.scene.streetName.map { "\($0) · " } ?? ""
        if status.isEmpty || status.hasPrefix("Look Around") {
            status = "Look Around · \(street)drag to turn, click to walk, L or Esc for the map"
        }
        drawStatus()
        guard present() else { return }
        lastFrameMilliseconds = (now - start) * 1000
        report("frame", ["milliseconds": lastFrameMilliseconds!, "scale": scale])
    }

    /// Walks toward a point of the view (clicks), or along the view with the arrow keys.
    private func walkLookAround(toward x: Double, metres: Double = LookAroundSession.step) {
        guard var session = lookAround else { return }
        do {
            if try session.walk(toward: x, width: canvas.width, metres: metres) {
                lookAround = session
                report("lookAroundMoved")
            } else {
                status = "Look Around · no street that way"
            }
        } catch {
            status = "Look Around · \((error as? MKError)?.reason ?? "\(error)")"
        }
        needsFrame = true
    }

    // MARK: - Input

    private func handle(_ event: inout SDL_Event) {
        switch event.type {
        case SDL_QUIT.rawValue:
            running = false
        case SDL_WINDOWEVENT.rawValue:
            let kind = UInt32(event.window.event)
            if kind == SDL_WINDOWEVENT_SIZE_CHANGED.rawValue {
                resize(width: Double(event.window.data1), height: Double(event.window.data2))
            } else if kind == SDL_WINDOWEVENT_EXPOSED.rawValue {
                // Show the last frame again; nothing changed on the map.
                SDL_RenderClear(renderer)
                SDL_RenderCopy(renderer, texture, nil, nil)
                SDL_RenderPresent(renderer)
            }
        case SDL_MOUSEBUTTONDOWN.rawValue:
            let b = event.button, x = Double(b.x), y = Double(b.y)
            last = (x, y)
            dragging = false
            if lookAround != nil {
                if Int32(b.button) == SDL_BUTTON_LEFT { leftDown = (x, y) }
                break
            }
            if let hit = previewHit, Int32(b.button) == SDL_BUTTON_LEFT, hit.frame.contains(CGPoint(x: x, y: y)) {
                // A click on the panel's Look Around preview opens it.
                enter(LookAroundSession(scene: hit.scene, heading: hit.scene.heading, dataSource: mapView.dataSource))
                break
            }
            if Int32(b.button) == SDL_BUTTON_LEFT {
                leftDown = (x, y)
                motion = [(now, x, y)]
                mapView.beginGesture()
            } else if Int32(b.button) == SDL_BUTTON_RIGHT {
                rightDown = (x, y)
                mapView.beginGesture()
            }
        case SDL_MOUSEMOTION.rawValue:
            let m = event.motion, x = Double(m.x), y = Double(m.y)
            defer { last = (x, y) }
            if var session = lookAround, let down = leftDown {
                if !dragging, hypot(x - down.x, y - down.y) >= Self.dragThreshold { dragging = true }
                if dragging {
                    session.drag(dx: x - last.x, dy: y - last.y, width: canvas.width)
                    lookAround = session
                    needsFrame = true
                }
                break
            }
            if let down = leftDown {
                if !dragging, hypot(x - down.x, y - down.y) >= Self.dragThreshold {
                    dragging = true
                    pendingClick = nil
                    mapView.pan(by: CGPoint(x: x - down.x, y: y - down.y))
                } else if dragging {
                    mapView.pan(by: CGPoint(x: x - last.x, y: y - last.y))
                }
                motion.append((now, x, y))
                motion.removeAll { now - $0.time > 0.1 }
            } else if let down = rightDown {
                if !dragging, hypot(x - down.x, y - down.y) >= Self.dragThreshold { dragging = true }
                if dragging {
                    let center = CGPoint(x: canvas.width / 2, y: canvas.height / 2)
                    // Sideways turns the map (a full width is a half turn); up and down tilt it.
                    if x != last.x { mapView.rotate(by: (x - last.x) / canvas.width * 180, around: center) }
                    if y != last.y { mapView.tilt(by: (last.y - y) / canvas.height * 90) }
                }
            }
        case SDL_MOUSEBUTTONUP.rawValue:
            let b = event.button, x = Double(b.x), y = Double(b.y)
            if lookAround != nil {
                if Int32(b.button) == SDL_BUTTON_LEFT, leftDown != nil {
                    leftDown = nil
                    if dragging { report("lookAroundTurned") } else { walkLookAround(toward: x) }
                }
                rightDown = nil
                dragging = false
                needsFrame = true
                break
            }
            if Int32(b.button) == SDL_BUTTON_LEFT, leftDown != nil {
                leftDown = nil
                if dragging {
                    mapView.endGesture(velocity: releaseVelocity())
                    report("drag")
                } else {
                    mapView.endGesture()
                    if b.clicks >= 2 {
                        pendingClick = nil
                        mapView.doubleTap(at: CGPoint(x: x, y: y))
                        report("doubleClick", ["x": x, "y": y])
                    } else {
                        pendingClick = (x, y, now + Self.doubleClickDelay)
                    }
                }
                dragging = false
            } else if Int32(b.button) == SDL_BUTTON_RIGHT, rightDown != nil {
                rightDown = nil
                mapView.endGesture()
                if dragging {
                    report("rotate")
                } else {
                    routePoint(at: CGPoint(x: x, y: y))
                }
                dragging = false
            }
        case SDL_MOUSEWHEEL.rawValue:
            var mx: Int32 = 0, my: Int32 = 0
            SDL_GetMouseState(&mx, &my)
            let w = event.wheel
            var steps = Double(w.preciseY)
            if steps == 0 { steps = Double(w.y) }
            if w.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue { steps = -steps }
            guard steps != 0, lookAround == nil else { break }
            // Half a level per notch, as MapKit's scroll-wheel zoom.
            mapView.zoom(by: steps / 2, around: CGPoint(x: Double(mx), y: Double(my)), animated: false)
            report("wheel", ["x": Double(mx), "y": Double(my), "steps": steps])
        case SDL_KEYDOWN.rawValue:
            key(event.key.keysym)
        case SDL_TEXTINPUT.rawValue:
            guard searchFocused else { break }
            let text = withUnsafeBytes(of: event.text.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if ignoreSlash, text == "/" { ignoreSlash = false; break }
            ignoreSlash = false
            if searchText.count < 100 { searchText += text }
            needsFrame = true
        default:
            break
        }
        if mapView.isAnimating { needsFrame = true }
    }

    /// The text input event of the `/` that opened the search field is not part of the query.
    private var ignoreSlash = false

    private func key(_ keysym: SDL_Keysym) {
        let sym = UInt32(bitPattern: keysym.sym)
        let ctrl = UInt32(keysym.mod) & KMOD_CTRL.rawValue != 0
        if ctrl, sym == SDLK_q.rawValue { running = false; return }
        if searchFocused {
            switch sym {
            case SDLK_ESCAPE.rawValue:
                closeSearch()
                report("searchCancelled")
            case SDLK_RETURN.rawValue, SDLK_KP_ENTER.rawValue:
                runSearch()
            case SDLK_BACKSPACE.rawValue:
                if !searchText.isEmpty { searchText.removeLast() }
                needsFrame = true
            default:
                break
            }
            return
        }
        if lookAround != nil {
            switch sym {
            case SDLK_ESCAPE.rawValue, SDLK_l.rawValue: leaveLookAround()
            case SDLK_UP.rawValue: walkLookAround(toward: canvas.width / 2)
            case SDLK_DOWN.rawValue: walkLookAround(toward: canvas.width / 2, metres: -LookAroundSession.step)
            case SDLK_LEFT.rawValue, SDLK_RIGHT.rawValue:
                lookAround?.drag(dx: (sym == SDLK_LEFT.rawValue ? 1 : -1) * canvas.width / 5, dy: 0, width: canvas.width)
                needsFrame = true
                report("lookAroundTurned")
            default: break
            }
            return
        }
        let center = CGPoint(x: canvas.width / 2, y: canvas.height / 2)
        switch sym {
        case SDLK_l.rawValue:
            // At the pointer when it is over the map, else at the centre.
            var mx: Int32 = 0, my: Int32 = 0
            SDL_GetMouseState(&mx, &my)
            let inside = mx > 0 && my > 0 && Double(mx) < canvas.width && Double(my) < canvas.height
            let point = inside ? CGPoint(x: Double(mx), y: Double(my)) : center
            enterLookAround(at: mapView.convert(point, toCoordinateFrom: mapView))
        case SDLK_PLUS.rawValue, SDLK_EQUALS.rawValue, SDLK_KP_PLUS.rawValue:
            mapView.zoom(by: 1, around: center, animated: true)
            report("key:+")
        case SDLK_MINUS.rawValue, SDLK_KP_MINUS.rawValue:
            mapView.zoom(by: -1, around: center, animated: true)
            report("key:-")
        case SDLK_LEFT.rawValue: mapView.pan(by: CGPoint(x: 100, y: 0)); report("key:left")
        case SDLK_RIGHT.rawValue: mapView.pan(by: CGPoint(x: -100, y: 0)); report("key:right")
        case SDLK_UP.rawValue: mapView.pan(by: CGPoint(x: 0, y: 100)); report("key:up")
        case SDLK_DOWN.rawValue: mapView.pan(by: CGPoint(x: 0, y: -100)); report("key:down")
        case SDLK_SLASH.rawValue, SDLK_KP_DIVIDE.rawValue:
            guard mapHost == nil else { break }
            searchFocused = true
            searchText = ""
            ignoreSlash = true
            SDL_StartTextInput()
            needsFrame = true
            report("searchFocused")
        case SDLK_ESCAPE.rawValue:
            clearAll()
            report("cleared")
        default:
            break
        }
    }

    /// The pointer's speed over the last tenth of a second before release (points per second);
    /// zero when it had stopped, so a drag that ends still does not coast.
    private func releaseVelocity() -> CGPoint {
        guard let first = motion.first, let end = motion.last, now - end.time < 0.05, end.time - first.time > 0.01 else { return .zero }
        let dt = end.time - first.time
        return CGPoint(x: (end.x - first.x) / dt, y: (end.y - first.y) / dt)
    }

    private func resize(width: Double, height: Double) {
        guard width >= 1, height >= 1, width != canvas.width || height != canvas.height,
              let resized = try? RenderCanvas(width: width, height: height) else { return }
        canvas = resized
        do { try makeTexture() } catch { status = "\(error)" }
        mapView.frame = CGRect(x: 0, y: 0, width: width, height: height)
        needsFrame = true
    }

    // MARK: - Places, search and routes

    /// A click: the annotation under the pointer is selected; on the bare map, the point of
    /// interest nearest the click (within 40 m), else the address there, gets a marker that is
    /// selected so its callout shows.
    private func select(at point: CGPoint) {
        if let button = panelButtons.first(where: { $0.0.contains(point) })?.1 {
            button.action()
            needsFrame = true
            report("button", ["x": Double(point.x), "y": Double(point.y)], query: button.title)
            return
        }
        if let mapHost {
            mapHost.tap(at: point)
            needsFrame = true
            report("click", ["x": Double(point.x), "y": Double(point.y)])
            return
        }
        if mapView.isOnControl(point) {
            // The map view's own: the compass turns the map north up, the tracking, pitch and
            // zoom buttons act, a callout's accessory reaches the delegate.
            let compass = mapView.isOnCompass(point)
            mapView.tap(at: point)
            needsFrame = true
            report(compass ? "compass" : "control", ["x": Double(point.x), "y": Double(point.y)])
            return
        }
        if let view = mapView.annotationView(at: point), let annotation = view.annotation {
            mapView.selectAnnotation(annotation, animated: true)
            needsFrame = true
            report("click", ["x": Double(point.x), "y": Double(point.y)], selected: .some(annotation.title))
            return
        }
        let coordinate = mapView.convert(point, toCoordinateFrom: mapView)
        guard CLLocationCoordinate2DIsValid(coordinate) else { return }
        let place = placeNear(coordinate)
        let marker = MKPointAnnotation(coordinate: place?.coordinate ?? coordinate,
                                       title: place?.title ?? String(format: "%.5f, %.5f", coordinate.latitude, coordinate.longitude),
                                       subtitle: place?.subtitle)
        mapView.removeAnnotations(placeMarkers)
        placeMarkers = [marker]
        mapView.addAnnotation(marker)
        mapView.selectAnnotation(marker, animated: true)
        needsFrame = true
        report("click", ["x": Double(point.x), "y": Double(point.y)], selected: marker.title)
    }

    private func placeNear(_ coordinate: CLLocationCoordinate2D) -> (title: String, subtitle: String?, coordinate: CLLocationCoordinate2D)? {
        let request = MKLocalPointsOfInterestRequest(center: coordinate, radius: 40)
        let search = mapView.dataSource.map { MKLocalSearch(request: request, dataSource: $0) } ?? MKLocalSearch(request: request)
        let here = CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude)
        if let items = try? waitForAsync({ try await search.start().mapItems }),
           let nearest = items.filter({ $0.name != nil }).min(by: { $0.location.distance(from: here) < $1.location.distance(from: here) }),
           let name = nearest.name {
            return (name, nearest.placemark.title.flatMap { $0 == name ? nil : $0 }, nearest.location.coordinate)
        }
        guard let reverse = MKReverseGeocodingRequest(location: here) else { return nil }
        reverse.dataSource = mapView.dataSource
        guard let item = (try? waitForAsync({ try await reverse.mapItems }))?.first,
              let title = item.name ?? item.placemark.title else { return nil }
        return (title, nil, coordinate)
    }

    /// A right-click: the first sets the route's start, the second its end and draws the route
    /// (MKDirections, by car); a third starts a new route.
    private func routePoint(at point: CGPoint) {
        guard mapHost == nil else { return }
        let coordinate = mapView.convert(point, toCoordinateFrom: mapView)
        guard CLLocationCoordinate2DIsValid(coordinate) else { return }
        if routeEnds.count >= 2 { clearRoute() }
        let marker = MKPointAnnotation(coordinate: coordinate, title: routeEnds.isEmpty ? "Start" : "End", subtitle: nil)
        routeEnds.append(marker)
        mapView.addAnnotation(marker)
        needsFrame = true
        guard routeEnds.count == 2 else {
            report("routeStart", ["latitude": coordinate.latitude, "longitude": coordinate.longitude])
            return
        }
        let request = MKDirections.Request()
        request.source = MKMapItem(placemark: MKPlacemark(coordinate: routeEnds[0].coordinate))
        request.destination = MKMapItem(placemark: MKPlacemark(coordinate: coordinate))
        request.transportType = .automobile
        let directions = mapView.dataSource.map { MKDirections(request: request, dataSource: $0) } ?? MKDirections(request: request)
        do {
            let response = try waitForAsync({ try await directions.calculate() })
            guard let best = response.routes.first else { throw MapWindowError("no route") }
            route = best.polyline
            routeDistance = best.distance
            mapView.addOverlay(best.polyline, level: .aboveRoads)
            status = String(format: "Route: %.1f km, %.0f min", best.distance / 1000, best.expectedTravelTime / 60)
            report("route", ["distance": best.distance, "seconds": best.expectedTravelTime])
        } catch {
            routeDistance = nil
            status = "No route: \((error as? MKError)?.reason ?? "\(error)")"
            report("route", ["distance": 0], failure: status)
        }
    }

    private func runSearch() {
        let query = searchText.trimmingCharacters(in: .whitespacesAndNewlines)
        closeSearch()
        guard !query.isEmpty else { return }
        let request = MKLocalSearch.Request(naturalLanguageQuery: query, region: mapView.region)
        request.regionPriority = .required
        let search = mapView.dataSource.map { MKLocalSearch(request: request, dataSource: $0) } ?? MKLocalSearch(request: request)
        mapView.removeAnnotations(searchMarkers)
        searchMarkers = []
        do {
            let items = try waitForAsync({ try await search.start().mapItems })
            for item in items.prefix(50) {
                searchMarkers.append(MKPointAnnotation(coordinate: item.location.coordinate, title: item.name ?? item.placemark.title, subtitle: nil))
            }
            mapView.addAnnotations(searchMarkers)
            status = "\(searchMarkers.count) result\(searchMarkers.count == 1 ? "" : "s") for “\(query)”"
        } catch {
            status = "No results for “\(query)”"
        }
        report("search", query: query, results: searchMarkers)
    }

    private func closeSearch() {
        searchFocused = false
        SDL_StopTextInput()
        needsFrame = true
    }

    private func clearRoute() {
        mapView.removeAnnotations(routeEnds)
        routeEnds = []
        if let route { mapView.removeOverlay(route) }
        route = nil
        routeDistance = nil
    }

    private func clearAll() {
        clearRoute()
        mapView.removeAnnotations(placeMarkers + searchMarkers)
        placeMarkers = []
        searchMarkers = []
        for selected in mapView.selectedAnnotations { mapView.deselectAnnotation(selected, animated: false) }
        status = ""
        needsFrame = true
    }

    // MARK: - Drawing the controls

    private static let uiFont = ["Noto Sans Regular", "DejaVu Sans"]

    private func drawSearchField() {
        guard searchFocused else { return }
        let x = 12.0, y = 12.0, w = min(360.0, canvas.width - 24), h = 36.0
        let box: [RenderPathElement] = [.move(x: x, y: y), .line(x: x + w, y: y), .line(x: x + w, y: y + h), .line(x: x, y: y + h), .close]
        canvas.fillShadow(path: box, offsetX: 0, offsetY: 1, blur: 4, color: RenderColor(red: 0, green: 0, blue: 0, alpha: 0.3))
        canvas.fill(path: box, color: RenderColor(red: 1, green: 1, blue: 1))
        let shown = searchText.isEmpty ? "Search places…" : searchText + "▏"
        drawText(shown, x: x + 10, y: y + 24, size: 15,
                 color: searchText.isEmpty ? RenderColor(red: 0.55, green: 0.55, blue: 0.58) : RenderColor(red: 0, green: 0, blue: 0))
    }

    /// Draws the app's panel over the bottom of the frame, above the map data's credit.
    /// What a panel shows, to tell when it changed.
    private static func signature(of panel: MapWindowPanel) -> String {
        let scene = panel.preview?.scene.map { "\($0.coordinate.latitude),\($0.coordinate.longitude),\($0.heading)" } ?? "-"
        return (panel.lines + panel.buttons.map(\.title) + [scene]).joined(separator: "\u{1}")
    }

    private func drawPanel() {
        panelButtons = []
        guard let panel = panel?() else { return }
        drawnPanelSignature = Self.signature(of: panel)
        panelLines = panel.lines
        let reserved = mapView.attributionFrame.map { canvas.height - Double($0.minY) + 2 } ?? 0
        let size = MapWindowPanelLayout.textSize
        let measure = { (text: String) -> Double in
            ((try? FontCatalog.installed.shapeLine(text, stack: Self.uiFont, size: size)) ?? []).reduce(0) { $0 + $1.advance }
        }
        guard let layout = MapWindowPanelLayout.layout(panel, width: canvas.width, height: canvas.height, reserved: reserved,
                                                       measure: measure) else { return }
        // The content the map frames by itself stays clear of the panel (SwiftUI's safe area).
        mapHost?.safeAreaInsets.bottom = canvas.height - Double(layout.box.minY)
        canvas.fill(path: RoundedRectangle(cornerRadius: 10).path(in: layout.box), color: RenderColor(red: 1, green: 1, blue: 1, alpha: 0.88))
        previewHit = nil
        if let frame = layout.preview, let preview = panel.preview, let scene = preview.scene {
            if let image = preview.image(size: frame.size, scale: canvas.scale) {
                canvas.save()
                canvas.clip(path: RoundedRectangle(cornerRadius: 10).path(in: frame))
                canvas.draw(image.renderCanvas, x: Double(frame.minX), y: Double(frame.minY))
                canvas.restore()
                if preview.allowsNavigation { previewHit = (frame, scene) }
            }
        }
        for (line, origin) in layout.lines {
            drawText(line, x: Double(origin.x), y: Double(origin.y), size: size + 1, color: RenderColor(red: 0.1, green: 0.1, blue: 0.12))
        }
        for (frame, button) in layout.buttons {
            canvas.fill(path: RoundedRectangle(cornerRadius: 8).path(in: frame), color: RenderColor(red: 0.0, green: 0.48, blue: 1.0))
            drawText(button.title, x: Double(frame.minX) + 12, y: Double(frame.midY) + size * 0.36, size: size, color: RenderColor(red: 1, green: 1, blue: 1))
        }
        panelButtons = layout.buttons
    }

    private func drawStatus() {
        guard !status.isEmpty else { return }
        let h = 26.0, y = canvas.height - h
        // The band stops short of the map data's credit, which must stay visible.
        let right = mapView.attributionFrame.map { Double($0.minX) - 4 } ?? canvas.width
        let band: [RenderPathElement] = [.move(x: 0, y: y), .line(x: right, y: y), .line(x: right, y: canvas.height),
                                         .line(x: 0, y: canvas.height), .close]
        canvas.fill(path: band, color: RenderColor(red: 1, green: 1, blue: 1, alpha: 0.85))
        drawText(status, x: 10, y: y + 18, size: 13, color: RenderColor(red: 0.1, green: 0.1, blue: 0.12))
    }

    private func drawText(_ text: String, x: Double, y: Double, size: Double, color: RenderColor) {
        guard let runs = try? FontCatalog.installed.shapeLine(text, stack: Self.uiFont, size: size) else { return }
        var pen = x
        for run in runs {
            canvas.draw(run, x: pen, y: y, color: color)
            pen += run.advance
        }
    }

    // MARK: - Report

    /// Calls ``onReport`` with the event, the camera after it, the selection, the route and the
    /// last frame's time.
    func report(_ event: String, _ values: [String: Double] = [:], selected: String?? = nil, query: String? = nil,
                results: [MKPointAnnotation]? = nil, failure: String? = nil) {
        guard let onReport else { return }
        let camera = mapView.camera
        var line = Report(event: event, values: values.isEmpty ? nil : values)
        line.latitude = camera.centerCoordinate.latitude
        line.longitude = camera.centerCoordinate.longitude
        line.zoom = mapView.zoomLevel
        line.heading = camera.heading
        line.pitch = camera.pitch
        line.selected = selected ?? mapView.selectedAnnotations.first.flatMap { $0.title ?? nil }
        line.routeDistance = routeDistance
        line.frameMilliseconds = lastFrameMilliseconds
        line.query = query
        line.results = results?.map { Report.Place(title: $0.title ?? "", latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude) }
        line.failure = failure
        line.animating = mapView.isAnimating
        if let (frame, scene) = previewHit {
            line.preview = Report.Button(title: scene.streetName ?? "", x: Double(frame.minX), y: Double(frame.minY),
                                         width: Double(frame.width), height: Double(frame.height))
        }
        if let session = lookAround {
            line.lookAround = Report.LookAround(latitude: session.scene.coordinate.latitude, longitude: session.scene.coordinate.longitude,
                                                heading: session.heading, pitch: session.pitch, street: session.scene.streetName)
        }
        line.panel = panelLines
        if !panelButtons.isEmpty {
            line.buttons = panelButtons.map { frame, button in
                Report.Button(title: button.title, x: Double(frame.minX), y: Double(frame.minY), width: Double(frame.width), height: Double(frame.height))
            }
        }
        if mapHost != nil, ["camera", "click", "button"].contains(event) {
            let visible = mapView.visibleMapRect
            line.annotations = mapView.annotations.filter { visible.contains(MKMapPoint($0.coordinate)) }.prefix(100).map { annotation in
                let point = mapView.convert(annotation.coordinate, toPointTo: nil)
                return Report.Place(title: (annotation.title ?? nil) ?? "", latitude: annotation.coordinate.latitude,
                                    longitude: annotation.coordinate.longitude, x: Double(point.x), y: Double(point.y))
            }
        }
        onReport(line)
    }

    func cameraSettled() {
        needsFrame = true
        report("camera")
    }

    func regionMoved() { needsFrame = true }

    func selectionChanged() { needsFrame = true }

    /// Whether the window added `annotation` (a place, search result or route end marker).
    func owns(annotation: any MKAnnotation) -> Bool {
        (placeMarkers + searchMarkers + routeEnds).contains { $0 === annotation }
    }

    /// Whether the window added `overlay` (its route).
    func owns(overlay: any MKOverlay) -> Bool { route.map { $0 === overlay } ?? false }
}
