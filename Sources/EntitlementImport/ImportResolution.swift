import FoundationEssentials
import EntitlementBasics
import EntitlementModel

/// Which user and which time a mapped document gets (docs/import.md, sections 4 and 5). Pure.
package enum ImportResolution {
    /// Sets the outcome's user: `--user`, else the document's, else an error (exit 2) when there is something to write.
    package static func user(of document: ImportDocument, file: String, option: String?, into outcome: inout ImportOutcome,
                             warnings: inout [String]) throws(EntitlementError) {
        guard document.hasProfileData else { return }
        let name = Terminal.escape(file)
        if let option {
            outcome.user = option
            outcome.userSource = .option
            if let named = document.user, named != option, let source = document.userSource {
                warnings.append("the document names user '\(Terminal.escape(named))' (\(source.rawValue)); importing into '\(Terminal.escape(option))' as --user says.")
            }
            return
        }
        if let named = document.user {
            // The same id rules as the command line: an id the CLI would refuse is never created by import.
            do throws(UserID.Problem) { _ = try UserID.validate(named) } catch {
                throw .invalidUserID(error, file: file)  // the id rules of grant: exit 2, about the document
            }
            outcome.user = named
            outcome.userSource = document.userSource
            if document.format == .revenuecat, named.hasPrefix(RevenueCatKey.anonymousPrefix) {
                warnings.append("'\(Terminal.escape(named))' is an anonymous RevenueCat id; pass --user to import into your own user id.")
            }
            return
        }
        switch document.appAccountTokens.count {
        case 0:
            throw .usage("\(name): the document does not say which user it belongs to.", hint: "Pass --user USER.")
        case 1:
            do throws(UserID.Problem) { _ = try UserID.validate(document.appAccountTokens[0]) } catch {
                throw .invalidUserID(error, file: file)
            }
            outcome.user = document.appAccountTokens[0]
            outcome.userSource = .appAccountToken
        default:
            throw .usage("\(name) names several users (appAccountToken \(document.appAccountTokens.map(Terminal.escape).joined(separator: ", "))).",
                         hint: "Pass --user USER.")
        }
    }

    /// Sets the document time: its own, else `--at`, else now (with a warning when a verdict depends on it).
    package static func time(of document: ImportDocument, option: Date?, now: Date, into outcome: inout ImportOutcome, warnings: inout [String]) {
        if let time = document.time {
            outcome.time = time
            outcome.timeSource = document.timeSource
            outcome.atIgnored = option != nil
        } else if let option {
            outcome.time = option
            outcome.timeSource = .option
        } else {
            outcome.time = now
            outcome.timeSource = .now
            if Reconciler.hasComparableStatements(document) {
                warnings.append("this \(document.format.displayName) document carries no date; vendor verdicts are compared at the current time (pass --at to choose).")
            }
        }
    }
}
