import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// Merges one store file given as bytes: the entry point of `entitlement merge-driver`.
///
/// Decides from the file's path in the store (else from its contents) whether it is a
/// profile or `config.json`, reads every side with the tool's own reader, merges, and
/// returns the file as the tool writes it. Nothing is returned for a side it cannot
/// read: such a file is never rewritten.
package enum StoreFileMerge {
    enum Kind: Equatable, Sendable { case profile, configuration, eventRecord }

    /// `base` is nil (or empty) when the sides have no common ancestor; `stamp` dates and
    /// attributes what the merge itself records.
    package static func merge(path: String, base: [UInt8]?, ours: [UInt8], theirs: [UInt8], stamp: MergeStamp) throws(MergeFailure) -> [UInt8] {
        try mergeReviewed(path: path, base: base, ours: ours, theirs: theirs, stamp: stamp, storeConfiguration: nil).bytes
    }

    /// The merged file, and what in it a person should review. `storeConfiguration` (when it
    /// can be read) lets the safety net compare store purchases too (`AccessComparison`).
    package static func mergeReviewed(path: String, base: [UInt8]?, ours: [UInt8], theirs: [UInt8], stamp: MergeStamp,
                              storeConfiguration: ProductConfiguration?) throws(MergeFailure) -> (bytes: [UInt8], reviews: [MergeReview]) {
        if isIndexEntry(path) { return (mergeAliasEntry(base: base, ours: ours, theirs: theirs), []) }
        let left = try parse(ours, side: .ours), right = try parse(theirs, side: .theirs)
        if isInFolder(path, of: .googlePlayPurchase) { return (PlayPurchaseMerge.merge(ours: ours, left, theirs: theirs, right), []) }
        // An unreadable ancestor is history, not a side: the merge goes on without it.
        let origin = base.flatMap { $0.isEmpty ? nil : try? parse($0, side: .base) }
        switch try kind(path: path, contents: left) {
        case .eventRecord:
            return (EventRecordMerge.merge(ours: ours, left, theirs: theirs, right), [])
        case .profile:
            let ourProfile = try profile(left, path: path, side: .ours), theirProfile = try profile(right, path: path, side: .theirs)
            let (merged, reviews) = try ProfileMerge.mergeReviewed(base: origin.flatMap { try? profile($0, path: path, side: .base) },
                                                                   ours: ourProfile, theirs: theirProfile, stamp: stamp)
            let engine = StatusEngine(configuration: storeConfiguration ?? ProductConfiguration(entitlements: []))
            let safety = AccessComparison.reviews(ours: ourProfile, theirs: theirProfile, merged: merged, engine: engine,
                                                   at: stamp.time(ours: ourProfile, theirs: theirProfile))
            return (JSONWriter().bytes(merged.json), reviews + safety)
        case .configuration:
            let merged = try ConfigMerge.merge(base: origin.flatMap { try? configuration($0, side: .base) },
                                               ours: configuration(left, side: .ours), theirs: configuration(right, side: .theirs))
            // Unsorted, as the store writes it: the order of entitlements is the order status shows.
            return (JSONWriter(sortKeys: false).bytes(merged.json), [])
        }
    }

    /// `index/alias/…` and `index/app-store-original-transaction/…`: a plain text entry (a
    /// customer user id), not JSON.
    static func isIndexEntry(_ path: String) -> Bool {
        isInFolder(path, of: .aliasIndexEntry) || isInFolder(path, of: .appStoreCustomerIndexEntry)
    }

    /// `path` (store-relative, or a longer path through the store) lies in the folder of `kind`.
    static func isInFolder(_ path: String, of kind: StoreFileKind) -> Bool {
        path.hasPrefix(kind.directory + "/") || path.contains("/\(kind.directory)/")
    }

    /// An alias (or an App Store original transaction) both sides pointed at different customers: the side that changed it wins, and
    /// when both did, the greater id in byte order, as for any value (docs/team-store.md), so
    /// every clone settles on the same entry. Both profiles keep listing the alias.
    static func mergeAliasEntry(base: [UInt8]?, ours: [UInt8], theirs: [UInt8]) -> [UInt8] {
        if ours == theirs || base == theirs { return ours }
        if base == ours { return theirs }
        return ours.lexicographicallyPrecedes(theirs) ? theirs : ours
    }

    /// A profile lives under a `profiles` folder; `config.json` elsewhere is the configuration.
    static func kind(path: String, contents: JSONValue) throws(MergeFailure) -> Kind {
        let components = path.split(separator: "/")
        if path.hasPrefix(EntitlementStore.eventRecordsDirectory + "/"), path.hasSuffix(".json") { return .eventRecord }
        if components.contains("profiles"), path.hasSuffix(".json") { return .profile }
        if components.last == Substring(EntitlementStore.configFileName) { return .configuration }
        if contents.objectValue?[Profile.CodingKeys.customerUserID.rawValue] != nil { return .profile }
        if contents.objectValue?[ProductConfiguration.CodingKeys.entitlements.rawValue] != nil { return .configuration }
        throw .notAStoreFile
    }

    private static func parse(_ bytes: [UInt8], side: MergeSide) throws(MergeFailure) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw .unreadable(side, detail: "invalid JSON at \(error.description)")
        }
    }

    private static func profile(_ document: JSONValue, path: String, side: MergeSide) throws(MergeFailure) -> Profile {
        let profile: Profile
        do {
            profile = try Profile(json: document)
        } catch {
            if let version = error.newerSchemaVersion { throw .newerSchema(side, version: version) }
            throw .unreadable(side, detail: error.description)
        }
        let base = PathName.base(of: path)
        if base.hasSuffix(".json"), ProfileFileName.name(for: profile.customerUserID) + ".json" != base {
            throw .unreadable(side, detail: "misplaced profile: it holds customer_user_id '\(Terminal.escape(profile.customerUserID))', which belongs in another file")
        }
        return profile
    }

    private static func configuration(_ document: JSONValue, side: MergeSide) throws(MergeFailure) -> ProductConfiguration {
        do {
            return try ProductConfiguration(json: document)
        } catch {
            if let version = error.newerSchemaVersion { throw .newerSchema(side, version: version) }
            throw .unreadable(side, detail: error.description)
        }
    }
}
