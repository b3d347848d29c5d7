// swift-tools-version:6.0
import PackageDescription

// Linux only: the store uses Glibc directly (flock, O_NOFOLLOW, directory fsync); see README, "Platforms".
//
// The targets are layered, each depending only on those below it (ARCHITECTURE.md draws the
// graph); SwiftPM refuses a cycle, so the layering is checked on every build.

let package = Package(
    name: "entitlement",
    products: [
        .executable(name: "entitlement", targets: ["entitlement"]),
    ],
    targets: [
        // OpenSSL's libcrypto from the system (Debian: libssl-dev; scripts/ensure-tools.sh installs it).
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        // Signature and certificate checks for vendor data; depends on nothing else of ours.
        .target(name: "EntitlementTrust", dependencies: ["COpenSSL"], exclude: ["README.md"]),
        // glibc calls Swift's Glibc module leaves out (pipe2): a header-only shim, for Subprocess.
        .systemLibrary(name: "CSystemShims"),
        .target(name: "EntitlementBasics", dependencies: ["CSystemShims"], exclude: ["README.md"]),
        .target(name: "EntitlementJSON", dependencies: ["EntitlementBasics"], exclude: ["README.md"]),
        .target(name: "EntitlementModel", dependencies: ["EntitlementBasics", "EntitlementJSON"], exclude: ["README.md"]),
        .target(name: "EntitlementRules", dependencies: ["EntitlementBasics", "EntitlementJSON", "EntitlementModel"], exclude: ["README.md"]),
        .target(name: "EntitlementStore", dependencies: ["EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementRules"], exclude: ["README.md"]),
        .target(name: "EntitlementImport", dependencies: [
            "EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementRules", "EntitlementTrust",
        ], exclude: ["README.md"]),
        // SHA-1 (git's object and index checksums) from libcrypto: the index's cache tree is megabytes.
        .target(name: "EntitlementTeam", dependencies: [
            "COpenSSL", "EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementRules", "EntitlementStore",
        ], exclude: ["README.md"]),
        // Vendor webhooks: spool, ledger, ordering, adapters (docs/ingest.md).
        .target(name: "EntitlementIngest", dependencies: [
            "EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementRules", "EntitlementStore", "EntitlementImport", "EntitlementTrust",
        ], exclude: ["README.md"]),
        .target(name: "EntitlementCLI", dependencies: [
            "EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementRules", "EntitlementStore",
            "EntitlementTrust", "EntitlementImport", "EntitlementTeam", "EntitlementIngest",
        ], exclude: ["README.md"]),
        .executableTarget(name: "entitlement", dependencies: ["EntitlementBasics", "EntitlementCLI"]),
        .executableTarget(name: "entitlement-bench-store", dependencies: ["EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementStore"]),
        // Mints App Store JWS sharing one chain for the signed-data benchmark (scripts/bench-trust.sh).
        .executableTarget(name: "entitlement-bench-jws", dependencies: ["COpenSSL"]),
        // Tests follow the modules: XTests tests module X (and the modules below it). Suites that
        // drive a module through the command line say so by importing EntitlementCLITestSupport.
        // EntitlementTestSupport holds what every test target may share without building the CLI:
        // tags, clocks and id sequences, temporary folders, generators, the fault-injecting file
        // system, test PKI and the built-binary runner. EntitlementCLITestSupport adds what needs
        // EntitlementCLI: the in-process runner, golden files and the import helpers built on them.
        .target(name: "EntitlementTestSupport", dependencies: [
            "COpenSSL", "EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementRules", "EntitlementStore",
        ], path: "Tests/EntitlementTestSupport"),
        .target(name: "EntitlementCLITestSupport", dependencies: [
            "EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementStore", "EntitlementCLI", "EntitlementTestSupport",
        ], path: "Tests/EntitlementCLITestSupport"),
        .testTarget(name: "EntitlementBasicsTests", dependencies: ["EntitlementBasics", "EntitlementTestSupport"]),
        .testTarget(name: "EntitlementJSONTests", dependencies: ["EntitlementBasics", "EntitlementJSON", "EntitlementTestSupport"]),
        .testTarget(name: "EntitlementModelTests", dependencies: ["EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementTestSupport"]),
        .testTarget(name: "EntitlementRulesTests", dependencies: [
            "EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementRules", "EntitlementTestSupport",
        ]),
        .testTarget(name: "EntitlementStoreTests", dependencies: [
            "EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementRules", "EntitlementStore",
            "EntitlementCLI", "EntitlementCLITestSupport", "EntitlementTestSupport",
        ]),
        .testTarget(name: "EntitlementTrustTests", dependencies: ["COpenSSL", "EntitlementTrust", "EntitlementTestSupport"]),
        .testTarget(name: "EntitlementImportTests", dependencies: [
            "EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementRules", "EntitlementStore",
            "EntitlementImport", "EntitlementCLI", "EntitlementCLITestSupport", "EntitlementTestSupport",
        ]),
        .testTarget(name: "EntitlementTeamTests", dependencies: [
            "EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementRules", "EntitlementStore",
            "EntitlementTeam", "EntitlementCLITestSupport", "EntitlementTestSupport",
        ]),
        .testTarget(name: "EntitlementIngestTests", dependencies: [
            "COpenSSL", "EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementRules", "EntitlementStore",
            "EntitlementTrust", "EntitlementImport", "EntitlementIngest", "EntitlementCLITestSupport", "EntitlementTestSupport",
        ]),
        .testTarget(name: "EntitlementCLITests", dependencies: [
            "EntitlementBasics", "EntitlementJSON", "EntitlementModel", "EntitlementRules", "EntitlementStore",
            "EntitlementTrust", "EntitlementImport", "EntitlementTeam", "EntitlementIngest", "EntitlementCLI",
            "EntitlementCLITestSupport", "EntitlementTestSupport",
        ], exclude: ["Golden"]),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
