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
        .target(name: "EntitlementCore"),
        .executableTarget(name: "entitlement", dependencies: ["EntitlementCore"]),
        .executableTarget(name: "entitlement-bench-store", dependencies: ["EntitlementCore"]),
        .testTarget(name: "EntitlementCoreTests", dependencies: ["EntitlementCore"], exclude: ["Golden"]),
    ]
)
