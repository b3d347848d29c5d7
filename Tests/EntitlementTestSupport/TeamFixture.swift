import Foundation
import Testing

/// A team of stores sharing a bare repository on local disk, driven through the built binary.
/// In the support target because team tests and ingest's team tests (EntitlementIngestTests) share it.
package final class TeamFixture: @unchecked Sendable {
    package let directory = TemporaryDirectory()

    package init() {}
    package var remote: String { directory.path + "/remote.git" }

    /// Git without the machine's own configuration; the binary under test is the merge driver.
    package var environment: [String: String] {
        ["GIT_CONFIG_GLOBAL": directory.path + "/gitconfig", "GIT_CONFIG_NOSYSTEM": "1", "HOME": directory.path,
         "ENTITLEMENT_EXECUTABLE": Binary.path, "ENTITLEMENT_ACTOR": ""]
    }

    package func store(_ name: String) -> String { directory.path + "/" + name }

    /// `entitlement ARGS --store STORE`.
    @discardableResult
    package func run(_ arguments: [String], in name: String, stdin: String? = nil) throws -> CLIResult {
        try Binary.run(arguments + ["--store", store(name)], stdin: stdin, environment: environment)
    }

    /// `git -C DIR ARGS`.
    @discardableResult
    package func git(_ arguments: [String], in name: String) throws -> CLIResult {
        try Binary.runProgram("/usr/bin/env", ["git", "-C", store(name)] + arguments, environment: environment)
    }

    /// `git status --porcelain` once git's index has caught up with the tool's commits through
    /// the hook the tool installed (as before any `git commit`): empty when every write is committed.
    package func settledStatus(in name: String) throws -> String {
        let hook = try git(["hook", "run", "pre-commit"], in: name)
        guard hook.exitCode == 0 else { return "pre-commit hook failed: \(hook.stderr)" }
        return try git(["status", "--porcelain"], in: name).stdout
    }

    /// A bare remote, a first store with a commit pushed to it, and `count - 1` clones.
    /// Stores are named s0, s1, …; each has its own git identity.
    package static func team(of count: Int) throws -> TeamFixture {
        let team = TeamFixture()
        _ = try Binary.runProgram("/usr/bin/env", ["git", "init", "--quiet", "--bare", team.remote], environment: team.environment)
        try #require(try team.run(["init", "--git", "--entitlement", "premium", "--entitlement", "sports", "--actor", "Setup <setup@example.com>"], in: "s0").exitCode == 0)
        try team.identify("s0")
        try team.git(["remote", "add", "origin", team.remote], in: "s0")
        try #require(try team.run(["sync"], in: "s0").exitCode == 0)
        for index in 1..<count {
            let result = try Binary.run(["clone", team.remote, "--store", team.store("s\(index)")], environment: team.environment)
            try #require(result.exitCode == 0, "\(result.stderr)")
            try team.identify("s\(index)")
        }
        return team
    }

    package func identify(_ name: String) throws {
        try git(["config", "user.name", "Agent \(name)"], in: name)
        try git(["config", "user.email", "\(name)@example.com"], in: name)
    }

    /// Every file of a store except git's own and the lock, with contents.
    package func snapshot(_ name: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let root = store(name)
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            if path == ".git" { enumerator?.skipDescendants(); continue }
            // The writer's lock and the local list of profile names are this clone's own, never committed.
            if path == ".lock" || path == ".profile-names" || path == ".profile-names-added" { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = FileManager.default.contents(atPath: root + "/" + path)
            }
        }
        return files
    }

    package func head(_ name: String) throws -> String { try git(["rev-parse", "HEAD"], in: name).stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
}

extension Binary {
    /// Runs any program to completion, capturing its output.
    package static func runProgram(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self), exitCode: process.terminationStatus)
    }
}

/// A RevenueCat subscriber document with one purchase, for import.
package func revenueCatDocument(user: String, transactionID: String, product: String = "com.example.premium.monthly") -> String {
    """
    {"request_date": "2026-03-15T12:00:00Z", "subscriber": {"entitlements": {"premium": {"product_identifier": "\(product)", "expires_date": "2026-04-01T09:00:00Z", "purchase_date": "2026-03-01T09:00:00Z"}}, "original_app_user_id": "\(user)",
     "first_seen": "2025-12-01T08:00:00Z", "non_subscriptions": {}, "other_purchases": {}, "subscriptions": {
      "\(product)": {"expires_date": "2026-04-01T09:00:00Z", "is_sandbox": false, "original_purchase_date": "2026-03-01T09:00:00Z",
       "ownership_type": "PURCHASED", "period_type": "normal", "purchase_date": "2026-03-01T09:00:00Z", "store": "app_store",
       "store_transaction_id": "\(transactionID)", "unsubscribe_detected_at": null, "billing_issues_detected_at": null, "refunded_at": null}}}}
    """
}
