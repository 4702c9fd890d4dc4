/// A small deterministic random number generator (SplitMix64), so randomised tests and
/// benchmarks use the same inputs on every run and every machine.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in `lo ... hi`, from the top 53 bits of the next value.
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53)
    }

    /// A double in `range`.
    public mutating func nextDouble(in range: ClosedRange<Double>) -> Double {
        uniform(range.lowerBound, range.upperBound)
    }
}
