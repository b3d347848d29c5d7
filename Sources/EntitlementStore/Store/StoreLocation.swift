/// Where the store is: `--store`, then `$ENTITLEMENT_STORE`, then the XDG data directory.
package enum StoreLocation {
    package static let environmentVariable = "ENTITLEMENT_STORE"

    package static func resolve(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let path = environment[environmentVariable], !path.isEmpty { return path }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return "\(data)/entitlement/store" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "."
        return "\(home)/.local/share/entitlement/store"
    }
}
