// The time source of a map view's animations, injectable so tests step time deterministically.

import Foundation

/// Where a map view reads the time for its animations (an OpenMapKit addition).
///
/// A map view never sleeps or schedules timers: whoever drives it (a window's frame loop, a test)
/// calls ``MKMapView/advanceAnimations()`` and the view moves its animations to ``now``.
public protocol MKMapViewClock: AnyObject {
    /// The current time in seconds; only differences matter, and it must never go backwards.
    var now: TimeInterval { get }
}

/// The monotonic system clock (for a real window's frame loop).
public final class MKSystemMapViewClock: MKMapViewClock {
    public init() {}
    public var now: TimeInterval { ProcessInfo.processInfo.systemUptime }
}

/// A clock that moves only when told to (for tests and offline rendering): start at 0, then
/// ``advance(by:)``.
public final class MKManualMapViewClock: MKMapViewClock {
    public private(set) var now: TimeInterval

    public init(now: TimeInterval = 0) { self.now = now.isFinite ? now : 0 }

    /// Moves the time forward by `seconds`; negative or non-finite steps are ignored.
    public func advance(by seconds: TimeInterval) {
        guard seconds.isFinite, seconds > 0 else { return }
        now += seconds
    }
}
