import Foundation
import MapRender
import OpenMapKit

/// What an app shows along the bottom of a window over its map (an OpenMapKit addition: the
/// stand-in for the SwiftUI views an app puts beside its `Map`, e.g. in a `safeAreaInset`): a
/// Look Around preview, a few lines of text and a row of buttons. The window asks for it before each frame
/// (``MapWindow/panel``), so it always shows the app's current state.
public struct MapWindowPanel {
    /// Lines of text above the buttons (an info view's title, travel time…), first on top.
    public var lines: [String]
    /// Buttons, left to right.
    public var buttons: [MapWindowButton]
    /// A Look Around preview above the lines (the talk's place card), ``previewHeight`` points tall;
    /// a click on it opens the window's Look Around when it allows navigation.
    public var preview: LookAroundPreview?
    /// The preview's height in points (the talk's `.frame(height: 128)`).
    public var previewHeight: Double

    public init(lines: [String] = [], buttons: [MapWindowButton] = [], preview: LookAroundPreview? = nil, previewHeight: Double = 128) {
        (self.lines, self.buttons, self.preview, self.previewHeight) = (lines, buttons, preview, previewHeight)
    }
}

/// A button of a ``MapWindowPanel``: a title and what a click on it does (on the window's thread).
public struct MapWindowButton {
    public var title: String
    public var action: () -> Void

    public init(_ title: String, action: @escaping () -> Void) {
        (self.title, self.action) = (title, action)
    }
}

/// How a panel is laid out and drawn.
enum MapWindowPanelLayout {
    static let buttonHeight = 30.0, lineHeight = 20.0, padding = 8.0, textSize = 13.0

    /// The panel's box, its lines' baselines and its buttons' frames, in a window of `size`
    /// points whose bottom `reserved` points stay clear (the map data's credit).
    static func layout(_ panel: MapWindowPanel, width: Double, height: Double, reserved: Double,
                       measure: (String) -> Double)
        -> (box: CGRect, preview: CGRect?, lines: [(String, CGPoint)], buttons: [(CGRect, MapWindowButton)])? {
        let showsPreview = panel.preview?.scene != nil && panel.previewHeight >= 16 && width > 4 * padding
        guard !panel.lines.isEmpty || !panel.buttons.isEmpty || showsPreview else { return nil }
        let buttonsHeight = panel.buttons.isEmpty ? 0 : buttonHeight + padding
        let previewHeight = showsPreview ? min(panel.previewHeight, height / 2) + padding : 0
        let boxHeight = padding + previewHeight + Double(panel.lines.count) * lineHeight + buttonsHeight
        let bottom = height - reserved
        let box = CGRect(x: padding, y: bottom - boxHeight, width: width - 2 * padding, height: boxHeight)
        // As wide as a phone's card (three times its height) at most: wider, it would show a sliver of street.
        let previewWidth = min(Double(box.width) - 2 * padding, 3 * (previewHeight - padding))
        let preview = showsPreview
            ? CGRect(x: Double(box.minX) + padding, y: Double(box.minY) + padding, width: previewWidth, height: previewHeight - padding)
            : nil
        var lines: [(String, CGPoint)] = []
        for (index, line) in panel.lines.enumerated() {
            lines.append((line, CGPoint(x: Double(box.minX) + padding,
                                        y: Double(box.minY) + padding + previewHeight + Double(index + 1) * lineHeight - 6)))
        }
        var buttons: [(CGRect, MapWindowButton)] = []
        var x = Double(box.minX) + padding
        let y = Double(box.maxY) - padding - buttonHeight
        for button in panel.buttons {
            let w = measure(button.title) + 24
            buttons.append((CGRect(x: x, y: y, width: w, height: buttonHeight), button))
            x += w + padding
        }
        return (box, preview, lines, buttons)
    }
}
