import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementStore

/// Google Play purchases a notification changed and whose document is not imported since:
/// one file per purchase token, `ingest/googleplay/purchases/SHA256(token).json`.
///
/// A notification names only a token, and Google requires reading the purchase after it.
/// `ingest` records the latest notification; `import` of the token's `SubscriptionPurchaseV2`
/// records the import; the purchase awaits its document while the notification is the
/// newer. Inside the store, written in the journal of the change, never holding a secret.
package struct AwaitingPurchase: Sendable, Equatable {
    package var token: String
    /// The latest notification's type and time.
    package var notificationType: String?
    package var notifiedAt: Date?
    /// The latest import of the token's document (its document time).
    var importedAt: Date?

    package static let directory = StoreFileKind.googlePlayPurchase.directory

    static func relativePath(token: String) -> String {
        "\(directory)/\(SHA256.hexDigest(Array(token.utf8))).json"
    }

    /// True while the latest notification is newer than the latest import.
    var isAwaiting: Bool {
        guard let notifiedAt else { return false }
        return importedAt.map { notifiedAt > $0 } ?? true
    }

    init(token: String) { self.token = token }

    /// The stored record of `token`, or a fresh one.
    package static func read(_ token: String, in store: EntitlementStore) -> AwaitingPurchase {
        let path = "\(store.root)/\(relativePath(token: token))"
        guard let bytes = try? store.fileSystem.readFile(path), let record = AwaitingPurchase(bytes: bytes), record.token == token else {
            return AwaitingPurchase(token: token)
        }
        return record
    }

    /// Every record in the store, awaiting or not, by token.
    package static func all(in store: EntitlementStore) -> [AwaitingPurchase] {
        let names = (try? store.fileSystem.list("\(store.root)/\(directory)")) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            (try? store.fileSystem.readFile("\(store.root)/\(directory)/\(name)")).flatMap { $0 }.flatMap(AwaitingPurchase.init(bytes:))
        }
    }

    /// Keeps the later notification.
    mutating func notify(_ type: String, at time: Date) {
        if notifiedAt.map({ time >= $0 }) ?? true {
            notifiedAt = time
            notificationType = type
        }
    }

    /// Keeps the later import, while the purchase awaits one (or none is recorded): importing
    /// the same documents again, with nothing newer notified, changes no byte of the store (and
    /// so makes no commit in a team store).
    package mutating func imported(at time: Date) {
        if importedAt != nil, !isAwaiting { return }
        if importedAt.map({ time > $0 }) ?? true { importedAt = time }
    }

    package var change: EntitlementStore.FileChange {
        func date(_ value: Date?) -> JSONValue { value.map { .string(ISODate.format($0)) } ?? .null }
        let object = JSONObject([
            ("schema_version", .int(1)), ("purchase_token", .string(token)), ("notification_type", .string(notificationType)),
            ("notified_at", date(notifiedAt)), ("imported_at", date(importedAt)),
        ])
        return .init(path: Self.relativePath(token: token), bytes: JSONWriter().bytes(.object(object)))
    }

    init?(bytes: [UInt8]) {
        guard case .object(let o)? = try? JSONParser.parse(bytes), let token = o["purchase_token"]?.stringValue else { return nil }
        self.token = token
        notificationType = o["notification_type"]?.stringValue
        notifiedAt = o["notified_at"]?.stringValue.flatMap(ISODate.parse)
        importedAt = o["imported_at"]?.stringValue.flatMap(ISODate.parse)
    }
}
