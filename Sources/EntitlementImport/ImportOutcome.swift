import FoundationEssentials
import EntitlementModel

/// What happened to one document of an import run: the summary is made from these.
package struct ImportOutcome: Sendable {
    /// The FILE as given (`<stdin>`, or `<stdin>#N` when standard input holds several documents).
    package var name: String
    package var document: ImportDocument?
    /// Set when the document failed; nothing from it was written.
    package var error: EntitlementError?
    package var user: String?
    package var userSource: UserSource?
    package var time: Date?
    package var timeSource: TimeSource?
    /// `--at` was given but the document has its own time, which won.
    package var atIgnored = false
    package var merge: MergeReport?
    package var configAdded: [ConfigAddition] = []
    package var verdicts: [VerdictRow] = []
    /// Every warning about this document, without the `warning: FILE: ` prefix.
    package var warnings: [String] = []

    package init(name: String) { self.name = name }

    package var failed: Bool { error != nil }
    package var disagreements: Int { verdicts.filter { $0.result == .disagree }.count }
    package var notCompared: Int { verdicts.filter { $0.result == .notCompared }.count }
}
