/// How profile files are arranged under `profiles/` (and `index/profile-id/`).
///
/// `flat` is one folder, as a person writes a small fixture store. `fanout` puts each
/// file two folders down, named from the SHA-256 of its file name (`profiles/3f/a2/NAME.json`),
/// so no folder grows past a few hundred entries and a git commit rewrites only small trees.
/// `config.json` records the layout (`profile_layout`); absent means `flat`. The model knows
/// only the name; the store turns it into paths (EntitlementStore, `ProfileLayout+Paths.swift`).
package enum ProfileLayout: String, CaseIterable, Sendable {
    case flat
    case fanout

    /// The key of `config.json` that names the layout.
    package static let configKey = "profile_layout"
}
