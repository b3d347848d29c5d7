import FoundationEssentials
import EntitlementBasics
import EntitlementImport
import EntitlementModel
import EntitlementStore

/// `refresh USER --vendor V`: asks the vendor's API (`RefreshSource`) what it knows of the
/// customer now and imports the answers as `import` imports those documents: under the store
/// lock, as one audited change, merged into the profile (a second refresh of the same answer
/// changes nothing, as a second import does; docs/ingest.md, "refresh").
///
/// The configuration is never changed (`refresh` has no `--update-config`): products an
/// answer maps that config.json lacks are named in warnings, with what to add.
package struct CustomerRefresh: Sendable {
    package let store: EntitlementStore
    package let source: any RefreshSource
    package var actor: String

    package init(store: EntitlementStore, source: any RefreshSource, actor: String) {
        self.store = store
        self.source = source
        self.actor = actor
    }

    /// What one refresh did.
    package struct Result: Sendable {
        package var user: String
        package var vendor: Vendor
        var documents = 0
        package var merge: MergeReport?
        package var warnings: [String] = []
        package var changed: Bool { merge?.changed ?? false }
    }

    /// Asks the API and merges every answer into `user`'s profile; nothing is written when a
    /// request or an answer fails, or when the profile already says it all.
    package func refresh(_ user: String, now: Date) throws(EntitlementError) -> Result {
        let before = try store.loadProfile(userID: user)
        let fetched = try source.documents(for: user, stored: before)
        var result = Result(user: user, vendor: source.vendor)
        let ownNames = source.ownNames(for: user)
        var documents: [(ImportDocument, Date)] = []
        for answer in fetched {
            let document = try DocumentMapper.map(answer.bytes, file: answer.name, format: answer.format, jws: answer.jws)
            result.warnings += document.warnings.map { "\(answer.name): \($0)" }
            var outcome = ImportOutcome(name: answer.name)
            ImportResolution.time(of: document, option: nil, now: now, into: &outcome, warnings: &result.warnings)
            if let named = document.user, named != user, !ownNames.contains(named), let from = document.userSource {
                result.warnings.append("\(answer.name): the answer names user '\(Terminal.escape(named))' (\(from.rawValue)); imported into '\(Terminal.escape(user))' as asked.")
            }
            if document.hasProfileData { documents.append((document, outcome.time ?? now)) }
        }
        result.documents = fetched.count
        guard !documents.isEmpty else { return result }
        let change = ChangeDescription(summary: "refresh \(user) from \(source.vendor.displayName)", actor: actor)
        return try store.withWriteLock(change) { () throws(EntitlementError) -> Result in
            let configuration = try store.loadConfiguration()
            var profile = try store.loadProfile(userID: user)
            if profile == nil {
                do throws(UserID.Problem) { _ = try UserID.validateNew(user) } catch { throw .invalidUserID(error, command: "refresh") }
            }
            var total = MergeReport.none
            var mentioned = Set<String>()
            for (document, time) in documents {
                let settled = document.settled(at: time, configuration: configuration)
                let (merged, report) = ProfileMerger.merge(settled, into: profile, userID: user, newProfileID: ProfileIdentity.derived(for: user), now: now)
                profile = merged
                total.absorb(report)
                let (_, added) = ConfigurationExtender.extend(configuration, with: settled.productMappings)
                for addition in added where mentioned.insert(addition.productID).inserted {
                    result.warnings.append(ImportNotices.configurationNotChangedByRefresh(addition))
                }
            }
            result.merge = total
            result.warnings += total.warnings
            if total.changed, let profile {
                for warning in try store.save(configuration: nil, profiles: [profile]) { result.warnings.append(warning) }
            }
            return result
        }
    }
}
