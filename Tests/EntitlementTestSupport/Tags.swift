import Testing

/// The test layers (CONTRIBUTING.md, "Layers"): `swift test --filter` by suite, or run one layer by tag in Xcode.
extension Tag {
    /// Pure functions: parser, engine, planners, JSON. No files, no clock.
    @Tag package static var unit: Self
    /// The CLI in-process: captured streams, a temporary store, a fixed clock.
    @Tag package static var cli: Self
    /// The built binary as a separate process.
    @Tag package static var endToEnd: Self
}
