import FoundationEssentials
import EntitlementBasics
import EntitlementRules
import EntitlementStore

/// Options that several commands share, declared once with their types and defaults.
enum CommonOptions {
    static let help = Flag("help", short: "h", help: "Show help for this command.")
    static let store = Option<String>.string("store", value: "DIR", kind: .directory, help: "The store directory.")
        .describingDefault("$XDG_DATA_HOME/entitlement/store", environmentVariable: StoreLocation.environmentVariable)
    static let json = Flag("json", help: "Print JSON (see docs/json-output.md); errors too, on standard error.")
    static let quiet = Flag("quiet", short: "q", help: "Print nothing on standard output and no notes; the exit code answers.")
    static let color = Option<ColorChoice>.choice("color", value: "WHEN", help: "Colour the output: auto (on a terminal, unless NO_COLOR), always or never.")
        .withDefault(.auto, shown: ColorChoice.auto.rawValue)
    static let output = Option<OutputFormat>.choice("output", value: "FORMAT", help: "Print records as table, json, jsonl, csv or tsv (--json is --output json).")
        .withDefault(.table, shown: OutputFormat.table.rawValue)
    static let noHeaders = Flag("no-headers", help: "Leave out the header row of table, csv and tsv output.")
    static let at = Option<Date>.date("at", help: "Evaluate at this date instead of now.")
    static let environment = Option<EnvironmentFilter>.choice("environment", value: "ENV", help: "Count transactions from production, sandbox or any.")
        .withDefault(.any, shown: EnvironmentFilter.any.rawValue)
    static let profileID = Option<String>.string("profile-id", value: "ID", kind: .profileID, help: "Find the profile by its profile_id instead of USER.")
    static let lockTimeout = Option<Double>.seconds("lock-timeout", help: "Wait at most this long for the store's writer lock.")
        .withDefault(EntitlementStore.defaultLockTimeout, shown: formatSeconds(EntitlementStore.defaultLockTimeout),
                     environmentVariable: "ENTITLEMENT_LOCK_TIMEOUT")
    static let dryRun = Flag("dry-run", help: "Show what would change; write nothing.")
    static let reason = Option<String>.text("reason", value: "TEXT", help: "Why: recorded in the audit trail.")
    static let actor = Option<String>.text("actor", value: "NAME", help: "Who: recorded in the audit trail.")
        .describingDefault("the login name", environmentVariable: "ENTITLEMENT_ACTOR")
}
