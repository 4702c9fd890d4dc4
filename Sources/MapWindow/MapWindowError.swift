/// Why a ``MapWindow`` could not be opened or could not draw: no display, an empty size, or an
/// SDL failure. Its description is the reason, as one line for people.
public struct MapWindowError: Error, CustomStringConvertible, Sendable {
    /// The reason.
    public var description: String

    init(_ description: String) { self.description = description }
}
