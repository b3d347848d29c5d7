import FoundationEssentials

/// What happened to one document of an import run: the summary is made from these.
struct ImportOutcome: Sendable {
    /// The FILE as given (`<stdin>`, or `<stdin>#N` when standard input holds several documents).
    var name: String
    var document: ImportDocument?
    /// Set when the document failed; nothing from it was written.
    var error: EntitlementError?
    var user: String?
    var userSource: UserSource?
    var time: Date?
    var timeSource: TimeSource?
    /// `--at` was given but the document has its own time, which won.
    var atIgnored = false
    var merge: MergeReport?
    /// Configuration changes written (with `--update-config`).
    var configAdded: [ConfigAddition] = []
    /// Configuration changes the document states but that were left out: no `--update-config`.
    var configNotAdded: [ConfigAddition] = []
    var verdicts: [VerdictRow] = []
    /// Every warning about this document, without the `warning: FILE: ` prefix.
    var warnings: [String] = []

    init(name: String) { self.name = name }

    var failed: Bool { error != nil }
    var disagreements: Int { verdicts.filter { $0.result == .disagree }.count }
    var notCompared: Int { verdicts.filter { $0.result == .notCompared }.count }
}
