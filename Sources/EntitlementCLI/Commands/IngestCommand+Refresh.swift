import FoundationEssentials
import EntitlementBasics
import EntitlementIngest
import EntitlementModel
import EntitlementStore

/// How `ingest --refresh` went: customers re-read, changed by it, and failed (the worst code).
struct IngestRefreshCount: Sendable {
    var customers = 0
    var changed = 0
    var failed = 0
    var exitCode: ExitCode = .success
}

extension IngestCommand {
    /// Re-reads every RevenueCat customer an applied event touched (RevenueCat's advice: an
    /// event says what happened, the subscriber what is true now). Each is its own locked change;
    /// one that fails is named on standard error and the others go on. No API key: exit 2.
    func refreshTouched(_ report: IngestReport, store: EntitlementStore, actor: String, context: Context) throws(EntitlementError) -> IngestRefreshCount {
        var count = IngestRefreshCount()
        let customers = report.touchedCustomers[.revenuecat] ?? []
        guard !customers.isEmpty else { return count }
        let client = VendorAPIClient(timeout: RefreshCommand.defaultTimeout, environment: context.environment, pacing: context.pacing)
        let source = try RefreshRun.source(.revenuecat, secretsFlag: secrets, context: context, client: client, apiBase: apiBase,
                                           options: RefreshSources.Options(wallClock: RefreshCommand.wallClock(context)))
        let refresher = CustomerRefresh(store: store, source: source, actor: actor)
        for customer in customers {
            count.customers += 1
            do throws(EntitlementError) {
                let result = try refresher.refresh(customer, now: context.now())
                for warning in result.warnings { context.warning(warning) }
                if result.changed { count.changed += 1 }
            } catch {
                count.failed += 1
                count.exitCode = ExitCode.worst(count.exitCode, error.exitCode)
                context.stderr.write("refresh \(Terminal.escape(customer)): \(error.description)\n")
            }
        }
        return count
    }
}
