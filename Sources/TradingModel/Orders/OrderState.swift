/// Where an order is in its life. Terminal states never change again.
public enum OrderState: String, Hashable, Sendable, Codable, CaseIterable {
    /// Created by the engine, not yet sent.
    case pendingSubmit
    /// Sent, not yet acknowledged.
    case submitted
    /// Working at the broker.
    case accepted
    /// Working with part of the quantity traded.
    case partiallyFilled
    /// A cancel is in flight.
    case pendingCancel
    /// A modification is in flight.
    case pendingReplace
    /// Completely traded (terminal).
    case filled
    /// Stopped by a cancel (terminal).
    case canceled
    /// Refused by the broker (terminal).
    case rejected
    /// Refused by risk before submission (terminal).
    case denied
    /// Time in force ran out (terminal).
    case expired

    /// `true` for states that never change again.
    public var isTerminal: Bool {
        switch self {
        case .filled, .canceled, .rejected, .denied, .expired: true
        case .pendingSubmit, .submitted, .accepted, .partiallyFilled, .pendingCancel, .pendingReplace: false
        }
    }

    /// `true` while the order may still trade.
    public var isOpen: Bool { !isTerminal }
}

/// An event that the current state does not allow.
public struct OrderTransitionError: Error, Hashable, Sendable {
    /// State before the event.
    public var state: OrderState
    /// The refused event's name.
    public var event: String
}

/// The order lifecycle as one exhaustive transition table (nautilus style).
///
/// ```
/// pendingSubmit ─submitted→ submitted ─accepted→ accepted ─partiallyFilled→ partiallyFilled ─filled→ filled
///        └─denied→ denied        └─rejected→ rejected     └─cancelRequested→ pendingCancel ─canceled→ canceled
/// ```
/// A cancel or replace in flight remembers the state to return to when the broker refuses it or a replace
/// completes. Fills may still arrive while a cancel is in flight (a real-world race).
public struct OrderStateMachine: Hashable, Sendable, Codable {
    /// The current state.
    public private(set) var state: OrderState
    /// The working state to return to after a refused cancel/replace or a completed replace.
    public private(set) var restingState: OrderState

    /// A new order, in `pendingSubmit`.
    public init() {
        state = .pendingSubmit
        restingState = .pendingSubmit
    }

    /// Applies an event.
    /// - Throws: `OrderTransitionError` when the table has no entry for `(state, event)`; the state is unchanged.
    public mutating func apply(_ event: OrderEvent) throws(OrderTransitionError) {
        let next: OrderState
        switch (state, event) {
        case (.pendingSubmit, .submitted): next = .submitted
        case (.pendingSubmit, .denied): next = .denied
        case (.pendingSubmit, .rejected): next = .rejected
        case (.pendingSubmit, .canceled): next = .canceled

        case (.submitted, .accepted): next = .accepted
        case (.submitted, .rejected): next = .rejected
        case (.submitted, .partiallyFilled): next = .partiallyFilled
        case (.submitted, .filled): next = .filled
        case (.submitted, .canceled): next = .canceled
        case (.submitted, .expired): next = .expired
        case (.submitted, .cancelRequested): next = .pendingCancel

        case (.accepted, .partiallyFilled): next = .partiallyFilled
        case (.accepted, .filled): next = .filled
        case (.accepted, .canceled): next = .canceled
        case (.accepted, .expired): next = .expired
        case (.accepted, .cancelRequested): next = .pendingCancel
        case (.accepted, .replaceRequested): next = .pendingReplace

        case (.partiallyFilled, .partiallyFilled): next = .partiallyFilled
        case (.partiallyFilled, .filled): next = .filled
        case (.partiallyFilled, .canceled): next = .canceled
        case (.partiallyFilled, .expired): next = .expired
        case (.partiallyFilled, .cancelRequested): next = .pendingCancel
        case (.partiallyFilled, .replaceRequested): next = .pendingReplace

        case (.pendingCancel, .canceled): next = .canceled
        case (.pendingCancel, .expired): next = .expired
        case (.pendingCancel, .filled): next = .filled
        case (.pendingCancel, .partiallyFilled): next = .pendingCancel
        case (.pendingCancel, .cancelRejected): next = restingState

        case (.pendingReplace, .replaced): next = restingState
        case (.pendingReplace, .replaceRejected): next = restingState
        case (.pendingReplace, .filled): next = .filled
        case (.pendingReplace, .partiallyFilled): next = .pendingReplace
        case (.pendingReplace, .canceled): next = .canceled
        case (.pendingReplace, .expired): next = .expired

        case (.pendingSubmit, _), (.submitted, _), (.accepted, _), (.partiallyFilled, _),
            (.pendingCancel, _), (.pendingReplace, _),
            (.filled, _), (.canceled, _), (.rejected, _), (.denied, _), (.expired, _):
            throw OrderTransitionError(state: state, event: event.name)
        }
        if event == .cancelRequested || event == .replaceRequested {
            restingState = state
        } else if (state == .pendingCancel || state == .pendingReplace) && event == .partiallyFilled {
            restingState = .partiallyFilled
        }
        state = next
    }
}
