import EntitlementStore

/// Every environment variable the tool reads, for `help` and the man page.
enum EnvironmentVariables {
    static let all: [(name: String, meaning: String)] = [
        (StoreLocation.environmentVariable, "The store directory when --store is not given."),
        ("XDG_DATA_HOME", "The default store is $XDG_DATA_HOME/entitlement/store (else ~/.local/share/entitlement/store)."),
        ("HOME", "For the default store when XDG_DATA_HOME is not set, and the completion cache when XDG_CACHE_HOME is not set."),
        ("XDG_CACHE_HOME", "Shell completion keeps a sorted copy of each store's customer ids in $XDG_CACHE_HOME/entitlement (else ~/.cache/entitlement)."),
        ("ENTITLEMENT_ACTOR", "Who a grant or revocation is recorded as when --actor is not given (else the login name)."),
        ("ENTITLEMENT_LOCK_TIMEOUT", "Seconds to wait for the writer lock when --lock-timeout is not given."),
        ("ENTITLEMENT_SECRETS", "The webhook secrets file when --secrets is not given (else $XDG_CONFIG_HOME/entitlement/secrets.json)."),
        ("ENTITLEMENT_INGEST_ACTOR", "Who ingested events are recorded as (a team store's commit author) when --actor is not given."),
        ("XDG_CONFIG_HOME", "The default secrets file is $XDG_CONFIG_HOME/entitlement/secrets.json (else ~/.config/entitlement/secrets.json)."),
        (TrustSettings.environmentVariable, "Colon-separated root certificate files import trusts for App Store data besides Apple's (test roots; see docs/security.md)."),
        ("NO_COLOR", "When set and not empty, no colour (unless --color always)."),
        ("CLICOLOR_FORCE", "When set, not empty and not 0, colour even when output is not a terminal (unless NO_COLOR or --color never)."),
        ("TERM", "TERM=dumb turns colour off."),
        ("COLUMNS", "The width tables fit on a terminal (else the terminal's own width, else 80)."),
    ]
}
