import Foundation

extension StringProtocol {
    /// The text without leading and trailing whitespace and newlines, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives it.
    ///
    /// Names, address fields and ids read from a bundle almost never need trimming, and on Linux
    /// Foundation's trimming bridges through `NSString` every time: it was a fifth of answering a
    /// `/v1/search` request and a quarter of building a route's steps. This looks at the two ends
    /// first and only asks Foundation when one of them is blank.
    func trimmingWhitespace() -> String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return "" }
        guard first.properties.isWhitespace || last.properties.isWhitespace else { return String(self) }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether the text is empty or only whitespace and newlines.
    var isBlank: Bool { unicodeScalars.allSatisfy(\.properties.isWhitespace) }
}
