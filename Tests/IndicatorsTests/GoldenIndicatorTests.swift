import Testing
@testable import Indicators

/// Every column of the TA-Lib golden files, every row, through the CLI spec parser and runner.
@Suite struct GoldenIndicatorTests {
    static let mainSpecs = "sma:10,sma:30,ema:12,ema:26,rsi:14,atr:14,bbands:20:2,macd:12:26:9,roc:10,stddev:20"
    static let extraSpecs = "wma:10,mom:10,trange,stoch:14:3:3,willr:14,cci:20,obv,mfi:14"

    static func bars(_ table: GoldenTable) -> [OHLCVBar] {
        let o = table.numbers("open"), h = table.numbers("high"), l = table.numbers("low")
        let c = table.numbers("close"), v = table.numbers("volume")
        return (0..<c.count).map { OHLCVBar(open: o[$0], high: h[$0], low: l[$0], close: c[$0], volume: v[$0]) }
    }

    @Test(arguments: [("indicators.csv", mainSpecs), ("indicators_extra.csv", extraSpecs)])
    func everyGoldenColumnMatches(file: String, specText: String) throws {
        let table = try GoldenTable.load(file)
        let specs = try IndicatorSpec.parse(specText)
        let columns = IndicatorRunner.compute(specs, bars: Self.bars(table))
        // The spec list produces exactly the golden columns after the six input columns, in order.
        #expect(columns.map(\.name) == Array(table.header.dropFirst(6)))
        #expect(table.rows.count == 2148)
        for column in columns {
            let golden = table.column(column.name)
            #expect(!golden.isEmpty, "no golden column \(column.name)")
            let mismatch = firstMismatch(column.values, golden)
            #expect(mismatch == nil, "\(column.name): \(mismatch ?? "")")
        }
    }

    @Test func firstValidIndicesMatchTheReadme() throws {
        let table = try GoldenTable.load("indicators.csv")
        let columns = IndicatorRunner.compute(try IndicatorSpec.parse(Self.mainSpecs), bars: Self.bars(table))
        let first = Dictionary(uniqueKeysWithValues: columns.map { ($0.name, $0.values.firstIndex { $0 != nil }) })
        #expect(first["sma_10"] == 9)
        #expect(first["ema_26"] == 25)
        #expect(first["rsi_14"] == 14)
        #expect(first["atr_14"] == 14)
        #expect(first["macd_12_26_9"] == 33)
        #expect(first["roc_10"] == 10)
    }

    @Test func streamingStructsMatchTheGoldenColumns() throws {
        let table = try GoldenTable.load("indicators.csv")
        let closes = table.numbers("close"), highs = table.numbers("high"), lows = table.numbers("low")
        var sma = SMA(period: 10), ema = EMA(period: 12), rsi = RSI(period: 14), atr = ATR(period: 14)
        var bands = BollingerBands(period: 20, deviations: 2), macd = MACD(fast: 12, slow: 26, signal: 9)
        var smaOut: [Double?] = [], emaOut: [Double?] = [], rsiOut: [Double?] = [], atrOut: [Double?] = []
        var upper: [Double?] = [], signal: [Double?] = [], hist: [Double?] = []
        for i in closes.indices {
            smaOut.append(sma.update(closes[i]))
            emaOut.append(ema.update(closes[i]))
            rsiOut.append(rsi.update(closes[i]))
            atrOut.append(atr.update(high: highs[i], low: lows[i], close: closes[i]))
            upper.append(bands.update(closes[i])?.upper)
            let m = macd.update(closes[i])
            signal.append(m?.signal)
            hist.append(m?.histogram)
        }
        #expect(firstMismatch(smaOut, table.column("sma_10")) == nil)
        #expect(firstMismatch(emaOut, table.column("ema_12")) == nil)
        #expect(firstMismatch(rsiOut, table.column("rsi_14")) == nil)
        #expect(firstMismatch(atrOut, table.column("atr_14")) == nil)
        #expect(firstMismatch(upper, table.column("bb_upper_20_2")) == nil)
        #expect(firstMismatch(signal, table.column("macd_signal_12_26_9")) == nil)
        #expect(firstMismatch(hist, table.column("macd_hist_12_26_9")) == nil)
        #expect(sma.value == smaOut.last ?? nil)
        #expect(macd.value?.signal == signal.last ?? nil)
    }

    @Test func barByBarUpdatesEqualTheBatchColumns() throws {
        let table = try GoldenTable.load("indicators_extra.csv")
        let specs = try IndicatorSpec.parse(Self.extraSpecs + ",max:20,min:20")
        let bars = Self.bars(table)
        let batch = IndicatorRunner.compute(specs, bars: bars)
        var runner = IndicatorRunner(specs: specs)
        var row: [Double?] = []
        for (index, bar) in bars.enumerated() {
            runner.update(bar, into: &row)
            #expect(row == batch.map { $0.values[index] })
        }
        let highs = table.numbers("high")
        #expect(batch[batch.count - 2].values.last == highs.suffix(20).max())
    }

    @Test func parallelArrayEntryPointChecksLengths() throws {
        let specs = try IndicatorSpec.parse("sma:2")
        #expect(throws: IndicatorInputError.mismatchedLengths(open: 1, high: 2, low: 2, close: 2, volume: 2)) {
            try IndicatorRunner.compute(specs, open: [1], high: [1, 2], low: [1, 2], close: [1, 2], volume: [1, 2])
        }
        let columns = try IndicatorRunner.compute(
            specs, open: [1, 2, 3], high: [1, 2, 3], low: [1, 2, 3], close: [1, 2, 3], volume: [1, 1, 1])
        #expect(columns == [IndicatorColumn(name: "sma_2", values: [nil, 1.5, 2.5])])
    }
}
