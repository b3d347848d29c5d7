import FoundationEssentials

/// One run of `import` (docs/import.md, section 1): read and map every document with no
/// lock held, then merge them in order under the writer lock and write each changed file once.
/// Each document is its own unit: one that fails is reported and left out, the others go on.
struct ImportSession {
    /// A document to read: a FILE, or one of several documents on standard input.
    struct Unit {
        enum Source {
            case file(String)
            case piece(InputSplitter.Piece)
        }

        var name: String
        var source: Source
    }

    let command: ImportCommand
    let context: Context
    let store: EntitlementStore
    /// JWS strings decoded in the whole run.
    private(set) var jwsDecoded = 0
    /// The profiles as they are (or, with --dry-run, would be) after the run, in first-touched order.
    private(set) var resultingProfiles: [(profile: Profile, at: Date)] = []
    /// The product configuration after the run (as it would be, with --dry-run).
    private(set) var resultingConfiguration: ProductConfiguration?
    private var progress: ImportProgress
    private var warnedAboutSignatures = false
    private var configurationForMapping: ProductConfiguration??

    init(command: ImportCommand, context: Context, store: EntitlementStore) {
        self.command = command
        self.context = context
        self.store = store
        progress = ImportProgress(stream: context.stderr, width: context.statusWidth)
    }

    mutating func run() throws(EntitlementError) -> [ImportOutcome] {
        let units = readUnits()
        progress.total = units.count
        let now = context.now()
        var outcomes: [ImportOutcome] = []
        for (index, unit) in units.enumerated() {
            progress.show("read", index + 1)
            outcomes.append(map(unit, now: now))
        }
        if command.dryRun {
            try apply(&outcomes, now: now)
        } else {
            let change = ChangeDescription(summary: ChangeSummary.import(units.map(\.name)), actor: try command.options.resolvedActor(context, store: store))
            try store.withWriteLock(change) { () throws(EntitlementError) in try apply(&outcomes, now: now) }
        }
        progress.clear()
        return outcomes
    }

    /// FILEs in argument order; standard input split into its documents.
    private func readUnits() -> [Unit] {
        var units: [Unit] = []
        for file in command.files {
            guard file == "-" else {
                units.append(Unit(name: file, source: .file(file)))
                continue
            }
            var pieces = InputSplitter.split(context.stdin.readAll())
            if pieces.isEmpty { pieces = [InputSplitter.Piece(bytes: [], line: 1, column: 1)] }
            for (index, piece) in pieces.enumerated() {
                units.append(Unit(name: pieces.count == 1 ? "<stdin>" : "<stdin>#\(index + 1)", source: .piece(piece)))
            }
        }
        return units
    }

    /// Reads, detects and maps one document, and settles its user and time. Never throws: a failure is recorded.
    private mutating func map(_ unit: Unit, now: Date) -> ImportOutcome {
        var outcome = ImportOutcome(name: unit.name)
        do {
            var document: ImportDocument
            switch unit.source {
            case .file(let path):
                document = try DocumentMapper.map(try Self.readFile(path), file: unit.name, format: command.format)
            case .piece(let piece):
                document = try DocumentMapper.map(piece.bytes, file: unit.name, format: command.format, line: piece.line, column: piece.column)
            }
            if let key = StripeCustomer.metadataKey(in: stripeConfiguration(for: document)) {
                StripeCustomer.useMetadata(key, in: &document)
            }
            outcome.document = document
            jwsDecoded += document.jwsDecoded
            if document.jwsDecoded > 0, !warnedAboutSignatures {
                warnedAboutSignatures = true
                warn("JWS signatures are not verified; signed App Store data is trusted as given.")
            }
            var warnings = document.warnings
            ImportResolution.time(of: document, option: command.at, now: now, into: &outcome, warnings: &warnings)
            for warning in warnings { warn(warning, file: unit.name) }
            outcome.warnings = warnings
            var userWarnings: [String] = []
            try ImportResolution.user(of: document, file: unit.name, option: command.user, into: &outcome, warnings: &userWarnings)
            for warning in userWarnings { warn(warning, file: unit.name) }
            outcome.warnings += userWarnings
        } catch {
            fail(&outcome, error)
        }
        return outcome
    }

    /// config.json, read once, for a Stripe document's customer key (nil for other documents
    /// or an unreadable file, which `apply` reports).
    private mutating func stripeConfiguration(for document: ImportDocument) -> ProductConfiguration? {
        guard document.format == .stripe else { return nil }
        if configurationForMapping == nil { configurationForMapping = .some(try? store.loadConfiguration()) }
        return configurationForMapping ?? nil
    }

    /// Merges the mapped documents in order; writes unless --dry-run (the caller holds the lock).
    private mutating func apply(_ outcomes: inout [ImportOutcome], now: Date) throws(EntitlementError) {
        let storedConfiguration = try store.loadConfiguration()
        var configuration = storedConfiguration
        var profiles: [String: Profile?] = [:]
        var loadErrors: [String: EntitlementError] = [:]
        var touched: [String] = [], changed: Set<String> = []
        var lastTime: [String: Date] = [:]
        // Google Play purchases whose document this run imports: no longer awaited (`AwaitingPurchase`).
        var importedPurchases: [String: AwaitingPurchase] = [:]
        for index in outcomes.indices {
            progress.show("merge", index + 1)
            guard !outcomes[index].failed, let mapped = outcomes[index].document, let time = outcomes[index].time else { continue }
            let document = mapped.settled(at: time, configuration: configuration)
            if document.format == .googleplay, document.hasProfileData {
                for token in Set(document.transactions.compactMap { $0.vendor.objectValue?["purchase_token"]?.stringValue }) {
                    var awaiting = importedPurchases[token] ?? AwaitingPurchase.read(token, in: store)
                    awaiting.imported(at: time)
                    importedPurchases[token] = awaiting
                }
            }
            if document.hasProfileData, let user = outcomes[index].user {
                if profiles[user] == nil, loadErrors[user] == nil {
                    do {
                        profiles[user] = .some(try store.loadProfile(userID: user))
                        touched.append(user)
                    } catch {
                        loadErrors[user] = error
                    }
                }
                if let error = loadErrors[user] {
                    fail(&outcomes[index], error)
                    continue
                }
                let stored = profiles[user] ?? nil
                if stored == nil, let refusal = Self.refusalOfNewUser(user, outcome: outcomes[index]) {
                    fail(&outcomes[index], refusal)
                    continue
                }
                let (profile, report) = ProfileMerger.merge(document, into: stored, userID: user, newProfileID: context.newID(), now: now)
                outcomes[index].merge = report
                for warning in report.warnings { warn(warning, file: outcomes[index].name) }
                outcomes[index].warnings += report.warnings
                profiles[user] = .some(profile)
                if report.changed { changed.insert(user) }
                lastTime[user] = time
            }
            let (extended, added) = ConfigurationExtender.extend(configuration, with: document.productMappings)
            configuration = extended
            outcomes[index].configAdded = added
            outcomes[index].verdicts = Reconciler.reconcile(document, configuration: configuration, at: time)
        }
        resultingConfiguration = configuration
        resultingProfiles = touched.compactMap { user in (profiles[user] ?? nil).map { ($0, lastTime[user] ?? now) } }
        guard !command.dryRun else { return }
        // One commit: the configuration and every changed profile are written together or not at all.
        let changedProfiles = touched.filter(changed.contains).compactMap { profiles[$0] ?? nil }
        // Only records that change: a second import of the same document writes nothing.
        let purchases = importedPurchases.keys.sorted().compactMap { token -> EntitlementStore.FileChange? in
            guard let updated = importedPurchases[token], updated != AwaitingPurchase.read(token, in: store) else { return nil }
            return updated.change
        }
        let warnings = try store.save(configuration: configuration != storedConfiguration ? configuration : nil, profiles: changedProfiles,
                                      alongside: purchases)
        for warning in warnings { warn(warning) }
    }

    /// Why a new profile may not be created for `user` (control characters, bidi controls), if it may not:
    /// a refused user id (exit 2, as `grant`), whether `--user` or the document names it.
    private static func refusalOfNewUser(_ user: String, outcome: ImportOutcome) -> EntitlementError? {
        do throws(UserID.Problem) {
            _ = try UserID.validateNew(user)
            return nil
        } catch {
            return .invalidUserID(error, command: ImportCommand.spec.name)  // the id rules of grant: exit 2
        }
    }

    /// A FILE's bytes; a file that cannot be opened is a usage error (exit 2): the command was aimed wrong.
    private static func readFile(_ path: String) throws(EntitlementError) -> [UInt8] {
        let hint = "Check the path; '-' reads standard input."
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.system.readFile(path, policy: .userFile)
        } catch {
            guard case .io(_, let message) = error else { throw error }
            throw .usage("\(Terminal.escape(path)): \(message).", hint: hint)
        }
        guard let bytes else { throw .usage("\(Terminal.escape(path)): cannot open: no such file.", hint: hint) }
        return bytes
    }

    private mutating func fail(_ outcome: inout ImportOutcome, _ error: EntitlementError) {
        outcome.error = error
        progress.clear()
        CLI(context: context).report(error, json: command.json, in: context)
    }

    private mutating func warn(_ message: String, file: String? = nil) {
        progress.clear()
        context.stderr.write("warning: \(file.map { "\(Terminal.escape($0)): " } ?? "")\(Terminal.escape(message))\n")
    }
}
