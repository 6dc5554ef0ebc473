#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small, fast, seeded pseudo-random generator (Steele, Lea and Flood's SplitMix64).
///
/// Same seed → same sequence on every platform, so simulations and synthetic data are reproducible.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable, Codable {
    /// The internal state; advancing it is the whole algorithm.
    public private(set) var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { self.state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1) with 53 random bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A standard normal variate (Box–Muller; uses two uniforms per call, no cached spare, so the stream
    /// position is simple to reason about).
    public mutating func nextGaussian() -> Double {
        var u1 = nextUnit()
        if u1 < 1e-300 { u1 = 1e-300 }
        let u2 = nextUnit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
