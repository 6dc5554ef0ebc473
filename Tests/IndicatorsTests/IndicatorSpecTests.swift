import Testing
@testable import Indicators

@Suite struct IndicatorSpecTests {
    @Test func columnNamesFollowTheGoldenHeaders() throws {
        let specs = try IndicatorSpec.parse("sma:10, EMA:12,rsi,bbands:20:2,macd:12:26:9,stoch:14:3:3,trange,obv,max:5,min:5")
        #expect(specs.flatMap(\.columnNames) == [
            "sma_10", "ema_12", "rsi_14", "bb_upper_20_2", "bb_middle_20_2", "bb_lower_20_2",
            "macd_12_26_9", "macd_signal_12_26_9", "macd_hist_12_26_9",
            "stoch_slowk_14_3_3", "stoch_slowd_14_3_3", "trange", "obv", "max_5", "min_5",
        ])
        #expect(try IndicatorSpec.parse("bbands:20:2.5").flatMap(\.columnNames).first == "bb_upper_20_2.5")
        #expect(try IndicatorSpec.parse("bbands").first?.kind == .bollinger(period: 20, deviations: 2))
        #expect(try IndicatorSpec.parse("macd").first?.kind == .macd(fast: 12, slow: 26, signal: 9))
    }

    @Test(arguments: [
        ("sma:10,foo:3", IndicatorSpecError.unknownIndicator(token: "foo:3")),
        ("sma:x", .invalidParameter(token: "sma:x", parameter: "x")),
        ("sma:0", .invalidParameter(token: "sma:0", parameter: "0")),
        ("ema:-3", .invalidParameter(token: "ema:-3", parameter: "-3")),
        ("sma", .wrongParameterCount(token: "sma", expected: "one period")),
        ("rsi:14:2", .wrongParameterCount(token: "rsi:14:2", expected: "at most one period")),
        ("bbands:20:nan", .invalidParameter(token: "bbands:20:nan", parameter: "nan")),
        ("bbands:20:0", .invalidParameter(token: "bbands:20:0", parameter: "0")),
        ("macd:12:26", .wrongParameterCount(token: "macd:12:26", expected: "macd[:fast:slow:signal]")),
        ("obv:3", .wrongParameterCount(token: "obv:3", expected: "no parameters")),
        ("sma:10,,rsi", .emptyToken(position: 2)),
        ("", .emptyToken(position: 1)),
    ])
    func malformedSpecsNameTheBadToken(text: String, expected: IndicatorSpecError) {
        #expect(throws: expected) { try IndicatorSpec.parse(text) }
    }

    @Test func errorDescriptionQuotesTheToken() {
        #expect(IndicatorSpecError.unknownIndicator(token: "foo:3").description.contains("'foo:3'"))
        #expect(IndicatorSpecError.invalidParameter(token: "sma:x", parameter: "x").token == "sma:x")
    }
}
