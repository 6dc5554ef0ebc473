import Testing

@testable import LiveSession

/// The dashboard's and /metrics' latency histograms: each observation in the first bucket whose bound holds it,
/// the quantile as that bucket's bound.
struct LatencyHistogramTests {
    @Test func observationsLandInTheirBucketsAndQuantilesAreUpperBounds() {
        var histogram = LatencyHistogram(bounds: [0.001, 0.01, 0.1])
        #expect(histogram.upperQuantile(0.5) == nil)
        for seconds in [0.0005, 0.001, 0.002, 0.05, 3, -1, .nan] { histogram.record(seconds: seconds) }
        #expect(histogram.counts == [4, 1, 1, 1], "a bound is inclusive; negative and NaN count as zero")
        #expect(histogram.count == 7)
        #expect(abs(histogram.sum - 3.0535) < 1e-12)
        #expect(histogram.upperQuantile(0.5) == 0.001)
        #expect(histogram.upperQuantile(0.8) == 0.1)
        #expect(histogram.upperQuantile(0.99) == .infinity)
    }
}
