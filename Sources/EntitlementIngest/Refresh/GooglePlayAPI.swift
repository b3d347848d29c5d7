import EntitlementModel

/// The Google Play Developer API's credentials from the secrets file's `googleplay` entry:
/// `package_name`, and the access token of `service_account_file` (`GoogleAccessToken`). One
/// set-up for `refresh --vendor googleplay` and `ingest --recover googleplay`; exit 2, nothing
/// asked, for a missing field or a refused key file.
package struct GooglePlayAPI: Sendable {
    let packageName: String
    package let token: GoogleAccessToken

    package init(secrets: SecretsFile?, secretsPath: String, client: VendorAPIClient, wallClock: @escaping @Sendable () -> Int) throws(EntitlementError) {
        packageName = try RefreshSources.string(.googleplay, "package_name", secrets, secretsPath)
        let account = try GoogleServiceAccount.load(try RefreshSources.string(.googleplay, "service_account_file", secrets, secretsPath))
        token = GoogleAccessToken(account: account, client: client, wallClock: wallClock)
    }
}
