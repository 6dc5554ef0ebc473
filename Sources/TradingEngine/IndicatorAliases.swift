import Indicators

// The indicator types the strategies use, in one place (TA-Lib-exact implementations from `Indicators`).
@usableFromInline typealias SMAIndicator = Indicators.SMA
@usableFromInline typealias EMAIndicator = Indicators.EMA
@usableFromInline typealias RSIIndicator = Indicators.RSI
@usableFromInline typealias ROCIndicator = Indicators.ROC
@usableFromInline typealias StandardDeviationIndicator = Indicators.StandardDeviation
@usableFromInline typealias ATRIndicator = Indicators.ATR
@usableFromInline typealias BollingerBandsIndicator = Indicators.BollingerBands
