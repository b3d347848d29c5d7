import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore

/// `entitlement verify`: a linter for stores; reports every problem and never writes.
package struct VerifyCommand: RunnableCommand, Equatable {
    package static let spec = CommandSpec(
        name: "verify",
        abstract: "Check a store for every problem (for CI and hand-written fixtures); never writes.",
        discussion: """
            Reports every problem, not just the first: unparseable files (line and column), a wrong or
            newer schema_version, a file name that does not match its customer id, duplicate transaction
            ids, expires_at before the start, products no entitlement maps, manual grants of
            unconfigured entitlements, index entries pointing nowhere, temporary files left behind.
            Exit 0 when clean, 4 when there are problems. The rules are in docs/verify.md.
            """,
        options: [CommonOptions.store, CommonOptions.json, quietFlag],
        examples: ["entitlement verify --store Fixtures/demo-store", "entitlement verify --json | jq '.problems[].path'"])

    static let quietFlag = Flag("quiet", short: "q", help: "Print nothing; only the exit code answers.")

    package var store: String?
    package var json: Bool
    package var quiet: Bool

    package init(_ parsed: ParsedArguments) throws(EntitlementError) {
        store = try parsed.value(CommonOptions.store)
        json = parsed.flag(CommonOptions.json)
        quiet = parsed.flag(Self.quietFlag)
        if quiet && json { throw .usage("--quiet cannot be combined with --json.", command: Self.spec.name) }
    }

    package func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        let showProgress = !quiet && context.stderr.isTerminal
        var progress = ScanProgress(stream: context.stderr, label: "verify", total: showProgress ? try ProfileScan(store: store).count() : 0,
                                    enabled: showProgress, width: context.statusWidth)
        let report = try StoreVerifier(store: store).run(progress: { progress.show($0) })
        progress.clear()
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([
                ("store", .string(store.root)),
                ("clean", .bool(report.isClean)),
                ("profiles_checked", .int(report.profilesChecked)),
                ("problems", .array(report.problems.map { .object($0.json) })),
            ]))))
        } else if !quiet {
            var out = report.problems.map { $0.text + "\n" }.joined()
            let files = Set(report.problems.map(\.path)).count
            out += report.isClean
                ? "\(Terminal.escape(store.root)): clean (\(report.profilesChecked) profile\(report.profilesChecked == 1 ? "" : "s") checked).\n"
                : "\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s") (\(report.profilesChecked) profile\(report.profilesChecked == 1 ? "" : "s") checked).\n"
            context.stdout.write(out)
        }
        return report.isClean ? .success : .dataError
    }
}
