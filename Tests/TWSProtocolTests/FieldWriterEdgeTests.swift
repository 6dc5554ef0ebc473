import Foundation
import NIOCore
import Testing
import TWSProtocol

/// What the field writer's mutation run found untested (issue 42): a NUL inside a text field, the frame length of
/// messages encoded in place, and the ten.
@Suite struct FieldWriterEdgeTests {
    /// A NUL would end the field early at TWS and shift every field after it: it is dropped, the rest kept.
    @Test func aNulInsideATextFieldIsDropped() {
        var writer = TWSFieldWriter(style: .python)
        writer.write("A\u{0}B")
        writer.write("CD")
        #expect(TWSFrame.fields(of: writer.payload) == ["AB", "CD"])
    }

    /// Integers spell as decimals, 10 and its neighbours included (the one-digit shortcut ends at 9).
    @Test func integersAroundTheOneDigitShortcut() {
        var writer = TWSFieldWriter(style: .python)
        for value in [0, 9, 10, 11, -1, -10, 100] { writer.write(value) }
        #expect(TWSFrame.fields(of: writer.payload) == ["0", "9", "10", "11", "-1", "-10", "100"])
    }

    /// A message encoded in place in its frame (responses below protobuf, placeOrder below 201), or framed after it is
    /// written, carries its own length in the 4-byte big-endian prefix.
    @Test func aFrameEncodedInPlaceCarriesItsLength() throws {
        let framed = [
            try TWSResponse.currentTime(1_700_000_000).encode(serverVersion: 178),
            try TWSRequest.encodePlaceOrder(
                TWSOrderPlacement(orderID: 7, order: TWSOrder(action: "BUY", totalQuantity: 10, orderType: "MKT")),
                contract: TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD"),
                serverVersion: 178),
        ]
        // A payload framed afterwards, however short (one field of one letter: 2 bytes).
        var short = TWSFieldWriter(style: .python)
        short.write("A")
        for frame in framed + [short.framed()] {
            let length = try #require(frame.getInteger(at: frame.readerIndex, endianness: Endianness.big, as: UInt32.self))
            #expect(Int(length) == frame.readableBytes - 4)
        }
    }
}

extension FieldWriterEdgeTests {
    /// Java's `Double.toString` (TWS's own spelling): decimal from 10⁻³ up to but not including 10⁷, exponent form
    /// outside.
    @Test(arguments: [
        (1e7, "1.0E7"), (9_999_999.0, "9999999.0"), (0.001, "0.001"), (0.00099, "9.9E-4"), (-1e7, "-1.0E7"),
        (-0.001, "-0.001"),
    ])
    func javasDecimalRangeEndsAtTenMillion(value: Double, text: String) {
        #expect(TWSFieldWriter.format(value, style: .java) == text)
    }
}
