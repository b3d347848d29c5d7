import EntitlementRules

/// ANSI colour for terminals; every function is the identity when colour is off.
struct Style {
    let enabled: Bool

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }

    /// Green for access, yellow for at-risk access or access to come (scheduled, paused), red for none.
    func state(_ text: String, _ state: AccessState) -> String {
        switch state {
        case .active: return wrap(text, "32")
        case .gracePeriod, .scheduled, .paused: return wrap(text, "33")
        case .billingRetry, .expired, .revoked: return wrap(text, "31")
        case .never: return dim(text)
        }
    }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
