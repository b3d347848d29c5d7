import FoundationEssentials
import EntitlementBasics
import EntitlementIngest
import EntitlementJSON
import EntitlementModel

/// What one customer's refresh in `refresh --stdin` came to: whether it changed the store, and its JSON line.
struct StdinRefresh {
    var changed: Bool
    var json: JSONObject
    /// Why it failed although nothing threw (an App Store answer the ledger could not apply).
    var problem: String? = nil
}

extension RefreshCommand {
    /// Failures the summary lists; the rest are counted (each is on standard error).
    static let summaryFailures = 20

    /// `refresh --stdin`: every customer id on standard input (`StdinLine`'s rule), one after
    /// another at the client's `--rate`, each its own locked change; one that fails is named on
    /// standard error and the others go on. A progress line on a terminal; then a summary
    /// (refreshed, unchanged, failed with reasons). Exit 4 when any failed (else the worst code).
    func runStdin(_ vendor: Vendor, context: Context, refresh: (String) throws(EntitlementError) -> StdinRefresh) throws(EntitlementError) -> ExitCode {
        var ids: [(line: Int, id: String)] = []
        var failures: [String] = []
        var failed = 0
        var buffer = LineBuffer()
        var number = 0
        func read(_ line: ArraySlice<UInt8>) {
            number += 1
            switch StdinLine.read(line) {
            case .skipped: break
            case .id(let id): ids.append((number, id))
            case .refused(let problem):
                failed += 1
                let text = "line \(number): \(problem.message)"
                context.stderr.write("refresh: \(text)\n")
                if failures.count < Self.summaryFailures { failures.append(text) }
            }
        }
        while let chunk = context.stdin.readChunk() { for line in buffer.feed(chunk) { read(line) } }
        if let last = buffer.finish() { read(last) }
        var changed = 0, unchanged = 0
        let showProgress = !context.quiet && context.stderr.isTerminal && ids.count > 1
        var progress = ScanProgress(stream: context.stderr, label: "refresh", total: ids.count, enabled: showProgress, unit: "customers",
                                    width: context.statusWidth)
        func fail(_ entry: (line: Int, id: String), _ why: String) {
            failed += 1
            progress.clear()
            let text = "\(Terminal.escape(entry.id)) (line \(entry.line)): \(why)"
            context.stderr.write("refresh \(text)\n")
            if failures.count < Self.summaryFailures { failures.append(text) }
        }
        for (index, entry) in ids.enumerated() {
            do throws(EntitlementError) {
                let result = try refresh(entry.id)
                if let problem = result.problem {
                    fail(entry, problem)
                } else {
                    if result.changed { changed += 1 } else { unchanged += 1 }
                    if json { context.stdout.write(JSONWriter(style: .compact).string(.object(result.json)) + "\n") }
                }
            } catch {
                fail(entry, error.description)
            }
            progress.show(index + 1)
        }
        progress.clear()
        if !json, !context.quiet {
            var out = "Refreshed \(ids.count) \(vendor.displayName) customer\(ids.count == 1 ? "" : "s"): \(changed) changed, \(unchanged) unchanged, \(failed) failed.\n"
            for failure in failures { out += "  failed: \(failure)\n" }
            if failed > failures.count { out += "  … and \(failed - failures.count) more failures (each is on standard error)\n" }
            context.stdout.write(out)
        }
        return failed > 0 ? .dataError : .success
    }
}
