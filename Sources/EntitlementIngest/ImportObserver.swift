import EntitlementModel

/// What an `ImportSession` reports as it goes, for the command line to present: progress
/// through its two phases, each document's failure (the run goes on) and each warning.
package protocol ImportObserver: AnyObject {
    /// `count` of `total` documents done in `phase` ("read", then "merge").
    func progress(_ phase: String, _ count: Int, of total: Int)
    /// The progress line is no longer wanted (the run ended).
    func clearProgress()
    /// A document failed; the session records it in its outcome and goes on.
    func failed(_ error: EntitlementError)
    /// A warning, its text already escaped for a terminal.
    func warning(_ message: String)
}
