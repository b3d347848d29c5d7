import EntitlementJSON

/// The App Store app a store belongs to: `config.json`'s `app_store` object (docs/security.md).
///
/// When set, signed App Store data for another app is refused; unknown keys of the object
/// are kept in the configuration's raw JSON like every other unknown key.
package struct AppStoreIdentity: Equatable, Sendable {
    /// `app_store.bundle_id`.
    package var bundleID: String?
    /// `app_store.app_apple_id`: checked for production notifications, as Apple's libraries do.
    package var appAppleID: Int64?

    package init(bundleID: String? = nil, appAppleID: Int64? = nil) {
        self.bundleID = bundleID
        self.appAppleID = appAppleID
    }

    static let configKey = "app_store"

    /// Reads `app_store` from the configuration's top-level reader; absent means no identity.
    init(config reader: FieldReader) throws(FieldError) {
        guard let object = try reader.optionalObject(Self.configKey) else { return }
        // An empty bundle id is no expectation, like an absent one.
        bundleID = try object.optionalString("bundle_id").flatMap { $0.isEmpty ? nil : $0 }
        appAppleID = try object.optionalInt("app_apple_id").map(Int64.init)
    }
}
