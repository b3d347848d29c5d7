// swift-tools-version:6.0
import PackageDescription

// Linux only: the store uses Glibc directly (flock, O_NOFOLLOW, directory fsync); see README, "Platforms".

let package = Package(
    name: "entitlement",
    products: [
        .executable(name: "entitlement", targets: ["entitlement"]),
        .library(name: "EntitlementCore", targets: ["EntitlementCore"]),
    ],
    targets: [
        // OpenSSL's libcrypto from the system (Debian: libssl-dev; scripts/ensure-tools.sh installs it).
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        // Signature and certificate checks for vendor data; depends on nothing of ours.
        .target(name: "EntitlementTrust", dependencies: ["COpenSSL"]),
        .target(name: "EntitlementCore", dependencies: ["EntitlementTrust"]),
        .executableTarget(name: "entitlement", dependencies: ["EntitlementCore"]),
        .executableTarget(name: "entitlement-bench-store", dependencies: ["EntitlementCore"]),
        .testTarget(name: "EntitlementCoreTests", dependencies: ["EntitlementCore", "EntitlementTrust", "COpenSSL"], exclude: ["Golden"]),
    ]
)
