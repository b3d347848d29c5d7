import Foundation
import Testing
import EntitlementTestSupport

/// The attacker of the hostile-remote tests: a teammate who may push to the shared remote and
/// uses plain git in a clone of their own ("mallory"), never the tool.
extension TeamFixture {
    static let attacker = "mallory"

    /// A team of `count` tool clones plus mallory's plain `git clone` of the remote.
    static func teamWithAttacker(of count: Int) throws -> TeamFixture {
        let team = try TeamFixture.team(of: count)
        try #require(try Binary.runProgram("/usr/bin/env", ["git", "clone", "--quiet", team.remote, team.store(attacker)], environment: team.environment).exitCode == 0)
        try team.identify(attacker)
        return team
    }

    /// Writes `text` at `relative` in store `name`, making its folders.
    func write(_ relative: String, _ text: String, in name: String) throws {
        let path = store(name) + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Replaces `relative` in store `name` with a symbolic link to `target`.
    func symlink(_ relative: String, to target: String, in name: String) throws {
        let path = store(name) + "/" + relative
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    /// Mallory pulls, stages everything (ignored files too), commits and pushes to main.
    func attackerPushes(_ message: String, stageAll: Bool = true, change: () throws -> Void) throws {
        try #require(try git(["pull", "--quiet", "--no-rebase", "origin", "main"], in: Self.attacker).exitCode == 0)
        try change()
        if stageAll { try #require(try git(["add", "--all", "--force", "."], in: Self.attacker).exitCode == 0) }
        try #require(try git(["commit", "--quiet", "-m", message], in: Self.attacker).exitCode == 0)
        let push = try git(["push", "--quiet", "origin", "HEAD:main"], in: Self.attacker)
        try #require(push.exitCode == 0, "\(push.stderr)")
    }

    /// The store path of `user`'s profile, relative to the store.
    func profilePath(_ user: String, in name: String) throws -> String {
        let path = try run(["path", user], in: name).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return String(path.dropFirst(store(name).count + 1))
    }

    /// `entitlement ARGS --store STORE` with extra environment variables.
    func run(_ arguments: [String], in name: String, extra: [String: String]) throws -> CLIResult {
        try Binary.run(arguments + ["--store", store(name)], environment: environment.merging(extra) { $1 })
    }

    /// True for a directory that is not a symbolic link.
    func isRealDirectory(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeDirectory
    }

    /// The permission bits of a path (not following a link).
    func mode(_ path: String) throws -> Int {
        ((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue) ?? -1
    }

    /// `sh -c 'umask MASK; exec entitlement ARGS'`: the tool started by a real shell under a umask.
    func runUnderUmask(_ mask: String, _ arguments: [String]) throws -> CLIResult {
        try Binary.runProgram("/bin/sh", ["-c", "umask \(mask); exec \"$0\" \"$@\"", Binary.path] + arguments, environment: environment)
    }
}
