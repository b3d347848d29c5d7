import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementRules

/// One vendor verdict next to ours (docs/import.md, section 10).
package struct VerdictRow: Equatable, Sendable {
    package enum Result: String, Sendable {
        case agree, disagree
        case notCompared = "not_compared"
    }

    package var result: Result
    /// The entitlement; for App Store rows, the configured entitlements of the subscription's products.
    package var entitlement: String
    /// The entitlement id, or the App Store `originalTransactionId` (nil when unknown).
    package var subject: String?
    package var vendorState: String
    package var evidence: String
    package var accepted: [AccessState]
    /// Our state at the document time; nil when not compared.
    package var ours: AccessState?
    /// Why a row was not compared.
    package var note: String?
    package var isSubscription: Bool
}

/// Compares a document's vendor verdicts with our engine's, at the document's own time.
/// Pure; it never changes data to make them agree.
package enum Reconciler {
    /// The id of the stand-in entitlement an App Store subscription is evaluated under.
    static let subscriptionEntitlement = "\u{1}subscription"

    ///
    /// One evaluation basis serves every entitlement statement, and the subscriptions' chains
    /// are grouped once: the work is O(n log n) in transactions plus statements
    /// (a Qonversion document of 8,000 entitlements rebuilt both per statement).
    package static func reconcile(_ document: ImportDocument, configuration: ProductConfiguration, at date: Date,
                                  counter: WorkCounter? = nil) -> [VerdictRow] {
        // The document alone, as it would be after import: the result is a property of the document.
        let scratch = ProfileMerger.merge(document, into: nil, userID: "scratch", newProfileID: "scratch", now: date).0
        var engine = StatusEngine(configuration: configuration, environment: .any)
        engine.counter = counter
        let entitlementStatements = document.statements.filter {
            if case .entitlement = $0.subject { return $0.notComparable == nil } else { return false }
        }
        let basis = EvaluationBasis(scratch, at: date, indexed: entitlementStatements.count > 1, counter: counter)
        var chains: [String: [Transaction]] = [:]
        if document.statements.contains(where: { if case .subscription = $0.subject { return true } else { return false } }) {
            for transaction in scratch.transactions { chains[transaction.originalTransactionID, default: []].append(transaction) }
            counter.add(scratch.transactions.count)
        }
        var entitlementRows: [VerdictRow] = []
        var subscriptionRows: [VerdictRow] = []
        for statement in document.statements {
            var row = VerdictRow(result: .notCompared, entitlement: "-", subject: nil, vendorState: statement.vendorState,
                                 evidence: statement.evidence, accepted: statement.accepted, ours: nil, note: statement.notComparable, isSubscription: false)
            switch statement.subject {
            case .entitlement(let id):
                row.entitlement = id
                row.subject = id
                if statement.notComparable == nil { row.ours = engine.evaluate(id, in: basis).accessLevel.state }
                entitlementRows.append(finish(row))
            case .subscription(let original):
                row.isSubscription = true
                row.subject = original
                let chain = original.flatMap { chains[$0] } ?? []
                let products = unique(chain.compactMap(\.productID))
                let names = unique(products.flatMap { configuration.entitlements(unlockedBy: $0) })
                if original != nil { row.entitlement = names.isEmpty ? (chain.isEmpty ? "-" : "(unmapped)") : names.joined(separator: ",") }
                if chain.isEmpty {
                    row.note = row.note ?? "no decodable transaction"
                } else if statement.notComparable == nil {
                    var restricted = scratch
                    restricted.transactions = chain
                    let standIn = ProductConfiguration(entitlements: [.init(id: subscriptionEntitlement, products: products)])
                    var chainEngine = StatusEngine(configuration: standIn, environment: .any)
                    chainEngine.counter = counter
                    row.ours = chainEngine.evaluate(subscriptionEntitlement, for: restricted, at: date).accessLevel.state
                }
                subscriptionRows.append(finish(row))
            }
        }
        entitlementRows.sort { $0.entitlement.unicodeScalars.lexicographicallyPrecedes($1.entitlement.unicodeScalars) }
        return entitlementRows + subscriptionRows
    }

    /// True when some statement will be compared, so the time it is compared at matters.
    static func hasComparableStatements(_ document: ImportDocument) -> Bool {
        var originals: Set<String>?
        return document.statements.contains { statement in
            guard statement.notComparable == nil else { return false }
            switch statement.subject {
            case .entitlement: return true
            case .subscription(let original):
                guard let original else { return false }
                if originals == nil { originals = Set(document.transactions.map(\.transaction.originalTransactionID)) }
                return originals?.contains(original) ?? false
            }
        }
    }

    private static func finish(_ row: VerdictRow) -> VerdictRow {
        var row = row
        if let ours = row.ours { row.result = row.accepted.contains(ours) ? .agree : .disagree }
        return row
    }

    private static func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }
}
