import Foundation
import TWSClient
import TWSProtocol
import Testing
import TradingModel

@testable import InteractiveBrokers

/// The broker's placeOrder templates: one per instrument and server version, made from the contract book.
@Suite(.timeLimit(.minutes(1))) struct IBBrokerPlaceOrderTemplateTests {
    @Test("a template is kept per instrument until the server version changes; an unknown instrument is refused")
    func templatesFollowTheInstrumentAndTheVersion() async throws {
        try await withSimulator { _, port in
            try await TWSConnection.connect(connectionConfiguration(port)) { connection, _ in
                let broker = IBBroker(connection: connection, contracts: simulatorBook, clock: { fixedTime })
                let first = try broker.placeOrderTemplate(for: syn0, serverVersion: 187)
                #expect(first.contract == simulatorBook.contracts[0])
                #expect(try broker.placeOrderTemplate(for: syn0, serverVersion: 187) === first)
                let second = try broker.placeOrderTemplate(for: InstrumentID(1), serverVersion: 187)
                #expect(second.contract == simulatorBook.contracts[1])
                #expect(try broker.placeOrderTemplate(for: syn0, serverVersion: 187) === first)
                // Another version (a reconnect to another gateway): a new template, kept in turn.
                let older = try broker.placeOrderTemplate(for: syn0, serverVersion: 176)
                #expect(older !== first && older.serverVersion == 176)
                #expect(try broker.placeOrderTemplate(for: syn0, serverVersion: 176) === older)
                #expect(throws: IBMappingError.self) {
                    try broker.placeOrderTemplate(for: InstrumentID(2), serverVersion: 187)
                }
                #expect(throws: IBMappingError.self) {
                    try broker.placeOrderTemplate(for: InstrumentID(-1), serverVersion: 187)
                }
            }
        }
    }
}
