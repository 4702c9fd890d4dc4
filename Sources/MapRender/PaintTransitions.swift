// Style transitions: when a paint property changes in a style already on screen, MapLibre does not
// switch to the new value at once but blends from the value shown to the new one over the
// property's `*-transition` (or the style's `transition`: 300 ms by default), after its delay,
// eased by MapLibre's default transition curve. This file keeps which properties are on their way
// (`PaintTransitions`, owned by whoever draws frames and knows the time: a map view) and blends
// them when a renderer evaluates them (`CompiledTransition`, read by `CompiledProperty`).

import Foundation
import MapStyle

/// The paint properties of a style that are part-way from an earlier value to the one the style
/// now gives (MapLibre Native's `Transitioning` values), keyed by layer and property.
///
/// A map view keeps one: each change of its style document passes through
/// ``styleChanged(from:to:at:)``, which starts a transition for every transitionable paint
/// property whose written value changed in a layer that stays (same id and type), and the
/// renderers made for the new document get it (``StyleRenderer/init(style:loader:transitions:)``)
/// and blend at ``StyleRenderer/transitionTime``. As in MapLibre:
/// - a change made while a transition runs starts from the value shown then (the earlier
///   transition is kept as the new one's prior, and evaluated recursively);
/// - a property that becomes data-driven (different per feature) is not blended: it shows its new
///   value at once;
/// - new layers, layers whose type changed and whole new styles have no prior, so they appear
///   as they are; snapshots draw without transitions.
public struct PaintTransitions: Sendable {
    /// One property's way from its prior value to the style's current one.
    final class Transition: Sendable {
        /// The property as written before the change; nil when it was left to its default.
        let prior: StyleProperty?
        /// The transition the prior value was itself in at the change, if it had not ended.
        let priorTransition: Transition?
        /// When blending starts (the change plus the delay) and ends, on the map view's clock.
        let begin: TimeInterval, end: TimeInterval

        init(prior: StyleProperty?, priorTransition: Transition?, begin: TimeInterval, end: TimeInterval) {
            (self.prior, self.priorTransition, self.begin, self.end) = (prior, priorTransition, begin, end)
        }
    }

    struct Key: Hashable, Sendable {
        let layer: String
        let property: String
    }

    private(set) var running: [Key: Transition] = [:]

    /// No property in transition.
    public init() {}

    /// MapLibre's default transition easing (`util::DEFAULT_TRANSITION_EASE`).
    static let ease = UnitBezier(0, 0, 0.25, 1)

    /// Starts the transitions that changing the drawn style from `old` to `new` at time `now`
    /// (seconds, on the clock later given as ``StyleRenderer/transitionTime``) calls for, and
    /// forgets those of layers that went away or ended.
    public mutating func styleChanged(from old: Style, to new: Style, at now: TimeInterval) {
        let fallback = new.transition ?? StyleTransition()
        var previous: [String: StyleLayer] = [:]
        for layer in old.layers where previous[layer.id] == nil { previous[layer.id] = layer }
        var next: [Key: Transition] = [:]
        for layer in new.layers {
            guard let before = previous[layer.id], before.type == layer.type else { continue }
            let section = "paint_" + layer.type.rawValue
            var names: [String] = []
            for property in before.paint + layer.paint where !property.isTransition && !names.contains(property.name) {
                names.append(property.name)
            }
            for name in names {
                guard let spec = StyleReference.property(name, in: section), spec.transition else { continue }
                let key = Key(layer: layer.id, property: name)
                let earlier = running[key].flatMap { $0.end > now ? $0 : nil }
                let (was, is_) = (before.paint[name], layer.paint[name])
                guard was?.value != is_?.value else {
                    // Unchanged: a transition under way goes on.
                    if let earlier { next[key] = earlier }
                    continue
                }
                if let is_, let expression = is_.expression, !expression.isFeatureConstant { continue }
                let timing = layer.paint[name + "-transition"]?.value.objectValue.map(StyleTransition.init) ?? fallback
                let delay = max(timing.delay.isFinite ? timing.delay : 0, 0) / 1000
                let duration = max(timing.duration.isFinite ? timing.duration : 0, 0) / 1000
                guard duration > 0 || delay > 0 else { continue }
                next[key] = Transition(prior: was, priorTransition: earlier, begin: now + delay, end: now + delay + duration)
            }
        }
        running = next
    }

    /// Whether some property is still blending (or waiting out its delay) at `now`: frames
    /// drawn until then differ, so a window keeps drawing.
    public func isRunning(at now: TimeInterval) -> Bool { running.values.contains { $0.end > now } }

    /// Whether no property is in transition.
    public var isEmpty: Bool { running.isEmpty }

    /// Forgets the transitions that ended by `now`.
    public mutating func removeFinished(at now: TimeInterval) {
        running = running.filter { $0.value.end > now }
    }

    /// The transitions of one layer's paint properties, by property name.
    func transitions(ofLayer id: String) -> [String: Transition] {
        var result: [String: Transition] = [:]
        for (key, transition) in running where key.layer == id { result[key.property] = transition }
        return result
    }
}

/// The time a renderer's transitions are evaluated at: one object shared by every compiled
/// property of a renderer, set before each frame (``StyleRenderer/transitionTime``). Written
/// only between renders, read while one draws (perhaps on several threads).
final class TransitionClock: @unchecked Sendable {
    var now: TimeInterval = .infinity
}

/// A paint property's transition compiled for a renderer: the prior value compiled as the
/// property itself is (with its own transition, if it was in one), and the times.
final class CompiledTransition: Sendable {
    let prior: CompiledProperty
    let begin: TimeInterval, end: TimeInterval
    let clock: TransitionClock

    init(prior: CompiledProperty, begin: TimeInterval, end: TimeInterval, clock: TransitionClock) {
        (self.prior, self.begin, self.end, self.clock) = (prior, begin, end, clock)
    }

    /// What the property shows now, given its final value for the feature: the prior value
    /// before `begin`, the final one from `end` on, eased between (MapLibre's
    /// `Transitioning::evaluate`).
    func blend(to final: ExpressionValue, _ context: EvaluationContext) -> ExpressionValue {
        let now = clock.now
        if now >= end { return final }
        let prior = self.prior.evaluate(context)
        if now < begin { return prior }
        let fraction = PaintTransitions.ease.solve((now - begin) / (end - begin), epsilon: 0.001)
        return prior.interpolated(to: final, fraction: fraction)
    }
}
