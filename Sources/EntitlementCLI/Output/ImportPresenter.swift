import EntitlementIngest
import EntitlementModel

/// Presents an import run on standard error: the progress line on a terminal, each failed
/// document as the command line reports errors, and warnings (docs/import.md, section 12).
final class ImportPresenter: ImportObserver {
    private let context: Context
    private let json: Bool
    private var line: ImportProgress

    init(context: Context, json: Bool) {
        self.context = context
        self.json = json
        line = ImportProgress(stream: context.stderr, width: context.statusWidth)
    }

    func progress(_ phase: String, _ count: Int, of total: Int) {
        line.total = total
        line.show(phase, count)
    }

    func clearProgress() { line.clear() }

    func failed(_ error: EntitlementError) {
        line.clear()
        CLI(context: context).report(error, json: json, in: context)
    }

    func warning(_ message: String) {
        line.clear()
        context.warning(message)
    }
}
