import LiveSession
import Testing
import TradingModel

@testable import InteractiveBrokers

@Suite("ibtrader order: algo, outside-RTH, IOC and GTD")
struct ManualOrderExecutionTicketTests {
    static func ticket(type: String = "MKT", _ change: (inout ManualOrderArguments) -> Void) throws -> ManualOrderTicket {
        var a = ManualOrderArguments(side: "buy", symbol: "AAPL", quantity: "10")
        a.type = type
        if type == "LMT" { a.limit = "150" }
        if type == "STP" { a.stop = "140" }
        change(&a)
        return try ManualOrderTicket(a, at: .zero)
    }

    static func message(type: String = "MKT", _ change: (inout ManualOrderArguments) -> Void) -> String? {
        do {
            _ = try ticket(type: type, change)
            return nil
        } catch let error as ManualOrderError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func adaptiveWithAPriorityReachesTheRequest() throws {
        let ticket = try Self.ticket(type: "LMT") {
            $0.algo = "Adaptive"
            $0.priority = "patient"
        }
        #expect(ticket.request(for: InstrumentID(index: 0)).execution == OrderExecution(algo: .adaptive(.patient)))
        let normal = try Self.ticket { $0.algo = "adaptive" }
        #expect(normal.execution == OrderExecution(algo: .adaptive(.normal)))
        #expect(try Self.ticket { _ in }.execution == nil)
    }

    @Test func gtdNeedsAGoodTillTimeInAnyOfThreeSpellings() throws {
        let expected = Timestamp(year: 2030, month: 1, day: 2, secondOfDay: 15 * 3600 + 30 * 60)
        for text in ["2030-01-02T15:30:00Z", "2030-01-02 15:30:00", "20300102-15:30:00"] {
            let ticket = try Self.ticket {
                $0.timeInForce = "gtd"
                $0.goodTill = text
            }
            #expect(ticket.timeInForce == .gtd && ticket.execution?.goodTill == expected, "\(text)")
        }
        #expect(try Self.ticket { $0.timeInForce = "IOC" }.timeInForce == .ioc)
    }

    @Test func optionsThatDoNotFitAreRefusedByName() {
        #expect(Self.message { $0.timeInForce = "GTD" } == "--tif GTD needs --good-till TIME (UTC, e.g. 2026-11-24T21:00:00Z)")
        #expect(Self.message {
            $0.timeInForce = "GTD"
            $0.goodTill = "tomorrow"
        } == "--good-till must be a UTC time like 2026-11-24T21:00:00Z or 20261124-21:00:00, got 'tomorrow'")
        #expect(Self.message { $0.goodTill = "2030-01-02T15:30:00Z" } == "--good-till applies only with --tif GTD")
        #expect(Self.message { $0.priority = "patient" } == "--priority applies only with --algo adaptive")
        #expect(Self.message { $0.algo = "vwap" } == "--algo must be adaptive, got 'vwap'")
        #expect(Self.message(type: "STP") { $0.algo = "adaptive" } == "--algo adaptive works only MKT and LMT orders")
        #expect(Self.message {
            $0.algo = "adaptive"
            $0.priority = "fast"
        } == "--priority must be urgent, normal or patient, got 'fast'")
        #expect(Self.message { $0.timeInForce = "FOK" } == "--tif must be DAY, GTC, IOC or GTD, got 'FOK'")
        #expect(Self.message(type: "LMT") {
            $0.timeInForce = "IOC"
            $0.takeProfit = "160"
            $0.stopLoss = "140"
        } == "a bracket's entry cannot be IOC: its protective orders would outlive it")
    }

    @Test func aBracketsChildrenTradeOutsideRTHWithTheirEntry() throws {
        let ticket = try Self.ticket(type: "LMT") {
            $0.outsideRegularHours = true
            $0.algo = "adaptive"
            $0.takeProfit = "160"
            $0.stopLoss = "140"
        }
        let orders = ticket.orders(for: InstrumentID(index: 0), clientOrderID: "B-1", at: .zero)
        #expect(orders.count == 3)
        #expect(orders[0].execution == OrderExecution(algo: .adaptive(.normal), outsideRegularHours: true))
        // The children carry no algo: a stop and a take-profit rest at the broker as plain orders.
        #expect(orders.dropFirst().allSatisfy { $0.execution == OrderExecution(outsideRegularHours: true) })
    }
}
