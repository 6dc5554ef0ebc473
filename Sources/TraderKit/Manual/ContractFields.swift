import Analytics
import TradingModel

/// A contract's terms in a `--json` record, each field by name (`null` where IB gave none), after the record's own
/// fields: `secType`, `expiry` (IB's last trade date or contract month), `strike` (a decimal string), `right`
/// (`P`/`C`), `multiplier`, `localSymbol`, `currency`, and `description` (what the tables show). The journal's records
/// name them in its snake case (`sec_type`, `local_symbol`).
enum ContractFields {
    /// A record's JSON line: its members, then the contract's fields (`snakeCase` for the journal's records).
    static func line(
        _ members: KeyValuePairs<String, JSONValue>, _ terms: ContractTerms, snakeCase: Bool = false
    ) -> String {
        JSONLine.render(members.map { (key: $0.key, value: $0.value) } + (snakeCase ? Self.snakeCase(terms) : camelCase(terms)))
    }

    /// The fields of the manual tools' records (`positions`, `orders`, `cancel`).
    static func camelCase(_ terms: ContractTerms) -> [(key: String, value: JSONValue)] {
        fields(terms, names: ["secType", "expiry", "strike", "right", "multiplier", "localSymbol", "currency", "description"])
    }

    /// The fields of `ibtrader journal`'s records.
    static func snakeCase(_ terms: ContractTerms) -> [(key: String, value: JSONValue)] {
        fields(terms, names: ["sec_type", "expiry", "strike", "right", "multiplier", "local_symbol", "currency", "description"])
    }

    private static func fields(_ terms: ContractTerms, names: [String]) -> [(key: String, value: JSONValue)] {
        func text(_ value: String) -> JSONValue { value.isEmpty ? .null : .string(value) }
        let values: [JSONValue] = [
            .string(terms.type), text(terms.expiry), terms.strike.map { .string($0.description) } ?? .null,
            text(terms.right), text(terms.multiplier), text(terms.localSymbol), text(terms.currency),
            .string(terms.description),
        ]
        return zip(names, values).map { (key: $0, value: $1) }
    }
}
