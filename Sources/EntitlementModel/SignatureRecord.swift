/// How an App Store transaction's signed data was checked when it was imported, as recorded
/// in the transaction's `vendor.appstore.signature` (docs/store-format.md). Import writes it;
/// `verify` reads it. It lives in the model so that both can name it without knowing each other.
package enum SignatureRecord: String, Sendable {
    /// Every check of docs/security.md passed.
    case verified
    /// Decoded without verification (`--no-verify`, or Xcode data with `--allow-xcode`).
    case unverified

    /// The vendor object's key (`vendor.appstore`) and the field's key within it.
    package static let vendorKey = "appstore"
    package static let key = "signature"
}
