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
    /// `app_store.environment`: `Production` or `Sandbox`; signed data of another environment is refused.
    package var environment: String?

    package init(bundleID: String? = nil, appAppleID: Int64? = nil, environment: String? = nil) {
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.environment = environment
    }

    static let configKey = "app_store"

    /// Reads `app_store` from the configuration's top-level reader; absent means no identity.
    init(config reader: FieldReader) throws(FieldError) {
        guard let object = try reader.optionalObject(Self.configKey) else { return }
        // An empty bundle id is no expectation, like an absent one.
        bundleID = try object.optionalString("bundle_id").flatMap { $0.isEmpty ? nil : $0 }
        appAppleID = try object.optionalInt("app_apple_id").map(Int64.init)
        environment = try object.optionalString("environment").flatMap { $0.isEmpty ? nil : $0 }
    }
}
