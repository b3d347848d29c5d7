import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore

/// `entitlement verify`: a linter for stores; reports every problem, and writes only with `--fix`.
struct VerifyCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check a store for every problem (for CI and hand-written fixtures); writes only with --fix.",
        discussion: """
            Reports every problem, not just the first: unparseable files (line and column), a wrong or
            newer schema_version, a file name that does not match its customer id, duplicate transaction
            ids, expires_at before the start, products no entitlement maps, manual grants of
            unconfigured entitlements, index entries pointing nowhere, temporary files left behind.
            Exit 0 when clean, 4 when there are problems. The rules are in docs/verify.md.
            --fix first gives back every profile id an index entry still records to its customer, as an
            alias (a store merged by an older version; one commit in a team store), then verifies.
            """,
        options: [CommonOptions.store, CommonOptions.json, quietFlag, fixFlag, CommonOptions.actor, CommonOptions.lockTimeout],
        examples: ["entitlement verify --store Fixtures/demo-store", "entitlement verify --json | jq '.problems[].path'",
                   "entitlement verify --fix --store ./team-store"])

    static let quietFlag = Flag("quiet", short: "q", help: "Print nothing; only the exit code answers.")
    static let fixFlag = Flag("fix", help: "First restore every profile id the index records as an alias of its customer (docs/verify.md).")

    var store: String?
    var json: Bool
    var quiet: Bool
    var fix: Bool
    var actor: String?
    var lockTimeout: Double?

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        store = try parsed.value(CommonOptions.store)
        json = parsed.flag(CommonOptions.json)
        quiet = parsed.flag(Self.quietFlag)
        fix = parsed.flag(Self.fixFlag)
        actor = try parsed.value(CommonOptions.actor)
        lockTimeout = try parsed.given(CommonOptions.lockTimeout)
        if quiet && json { throw .usage("--quiet cannot be combined with --json.", command: Self.spec.name) }
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        let restored = fix ? try restoreProfileIDs(context) : []
        let showProgress = !quiet && context.stderr.isTerminal
        var progress = ScanProgress(stream: context.stderr, label: "verify", total: showProgress ? try ProfileScan(store: store).count() : 0,
                                    enabled: showProgress, width: context.statusWidth)
        let report = try StoreVerifier(store: store, now: context.now()).run(progress: { progress.show($0) })
        progress.clear()
        if json {
            var fields: [(String, JSONValue)] = [
                ("store", .string(store.root)),
                ("clean", .bool(report.isClean)),
                ("profiles_checked", .int(report.profilesChecked)),
                ("problems", .array(report.problems.map { .object($0.json) })),
            ]
            if fix { fields.append(("fixed", .array(restored.map { .object(Self.fixedObject($0)) }))) }
            context.stdout.write(JSONWriter().string(.object(JSONObject(fields))))
        } else if !quiet {
            var out = restored.map { Self.text($0) + "\n" }.joined()
            out += report.problems.map { $0.text + "\n" }.joined()
            let files = Set(report.problems.map(\.path)).count
            out += report.isClean
                ? "\(Terminal.escape(store.root)): clean (\(report.profilesChecked) profile\(report.profilesChecked == 1 ? "" : "s") checked).\n"
                : "\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s") (\(report.profilesChecked) profile\(report.profilesChecked == 1 ? "" : "s") checked).\n"
            context.stdout.write(out)
        }
        return report.isClean ? .success : .dataError
    }
}
