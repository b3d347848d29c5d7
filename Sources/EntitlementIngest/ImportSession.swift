import FoundationEssentials
import EntitlementBasics
import EntitlementImport
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// One run of `import` (docs/import.md, section 1): read and map every document with no
/// lock held, then merge them in order under the writer lock and write each changed file once.
/// Each document is its own unit: one that fails is reported and left out, the others go on.
/// The command line parses the request and presents what the session reports (`ImportObserver`).
package struct ImportSession {
    /// What to import and how: the command line's choices, parsed.
    package struct Request {
        /// FILEs in order; `-` is standard input, split into its documents.
        package var files: [String]
        package var format: Vendor?
        package var user: String?
        package var at: Date?
        /// Signatures are checked (`--no-verify` turns this off).
        package var verify: Bool
        package var updateConfig: Bool
        package var dryRun: Bool

        package init(files: [String], format: Vendor?, user: String?, at: Date?, verify: Bool, updateConfig: Bool, dryRun: Bool) {
            self.files = files
            self.format = format
            self.user = user
            self.at = at
            self.verify = verify
            self.updateConfig = updateConfig
            self.dryRun = dryRun
        }
    }

    /// A document to read: a FILE, or one of several documents on standard input.
    struct Unit {
        enum Source {
            case file(String)
            case piece(InputSplitter.Piece)
        }

        var name: String
        var source: Source
    }

    package let request: Request
    let store: EntitlementStore
    let observer: any ImportObserver
    /// Standard input's bytes, read when a FILE is `-`.
    let standardInput: () -> [UInt8]
    /// JWS strings decoded in the whole run.
    package private(set) var jwsDecoded = 0
    /// Of them, those whose signature was verified.
    package private(set) var jwsVerified = 0
    /// The profiles as they are (or, with --dry-run, would be) after the run, in first-touched order.
    package private(set) var resultingProfiles: [(profile: Profile, at: Date)] = []
    /// The product configuration after the run (as it would be, with --dry-run).
    package private(set) var resultingConfiguration: ProductConfiguration?
    /// The run's commit (team store), renamed once the changed customers are known.
    private var changeDescription: ChangeDescription?
    private var warnedAboutSignatures = false
    /// The documents read, for the progress of both phases.
    private var unitCount = 0
    private var configurationForMapping: ProductConfiguration??

    package init(_ request: Request, store: EntitlementStore, observer: any ImportObserver, standardInput: @escaping () -> [UInt8]) {
        self.request = request
        self.store = store
        self.observer = observer
        self.standardInput = standardInput
    }

    /// Reads and maps every document, then merges and writes under the writer lock (none with
    /// a dry run). `jws` is the run's one reader (its chain verdicts are cached across the
    /// documents); `actor` names the team commit's author, asked only when something is written.
    package mutating func run(now: Date, jws: JWSReader, actor: () throws(EntitlementError) -> String) throws(EntitlementError) -> [ImportOutcome] {
        let units = readUnits()
        unitCount = units.count
        var outcomes: [ImportOutcome] = []
        for (index, unit) in units.enumerated() {
            observer.progress("read", index + 1, of: units.count)
            outcomes += map(unit, now: now, jws: jws)
        }
        if request.dryRun {
            try apply(&outcomes, now: now)
        } else {
            let change = ChangeDescription(summary: ChangeSummary.import(units.map(\.name), customers: []), actor: try actor())
            changeDescription = change
            try store.withWriteLock(change) { () throws(EntitlementError) in try apply(&outcomes, now: now) }
        }
        observer.clearProgress()
        return outcomes
    }

    /// FILEs in argument order; standard input split into its documents.
    private func readUnits() -> [Unit] {
        var units: [Unit] = []
        for file in request.files {
            guard file == "-" else {
                units.append(Unit(name: file, source: .file(file)))
                continue
            }
            var pieces = InputSplitter.split(standardInput())
            if pieces.isEmpty { pieces = [InputSplitter.Piece(bytes: [], line: 1, column: 1)] }
            for (index, piece) in pieces.enumerated() {
                units.append(Unit(name: pieces.count == 1 ? "<stdin>" : "<stdin>#\(index + 1)", source: .piece(piece)))
            }
        }
        return units
    }

    /// Reads, detects and maps one document, and settles its user and time: one outcome, or
    /// one per customer of a document that holds several (a Stripe list). Never throws: a failure is recorded.
    private mutating func map(_ unit: Unit, now: Date, jws: JWSReader) -> [ImportOutcome] {
        var outcome = ImportOutcome(name: unit.name)
        let whole: ImportDocument
        do throws(EntitlementError) {
            switch unit.source {
            case .file(let path):
                whole = try DocumentMapper.map(try Self.readFile(path), file: unit.name, format: request.format, jws: jws)
            case .piece(let piece):
                whole = try DocumentMapper.map(piece.bytes, file: unit.name, format: request.format, line: piece.line, column: piece.column, jws: jws)
            }
            if whole.parts.count > 1, request.user != nil {
                throw .usage("\(Terminal.escape(unit.name)): the list holds the subscriptions of \(whole.parts.count) customers; --user would import them all into one user.",
                                             hint: "Leave out --user: each customer's subscriptions are imported into that customer (docs/import.md, section 4).")
            }
        } catch {
            fail(&outcome, error)
            return [outcome]
        }
        return (whole.parts.isEmpty ? [whole] : whole.parts).map { settle($0, unit: unit, now: now) }
    }

    /// Settles one mapped document's customer, time and user. Never throws: a failure is recorded.
    private mutating func settle(_ mapped: ImportDocument, unit: Unit, now: Date) -> ImportOutcome {
        var outcome = ImportOutcome(name: unit.name)
        var document = mapped
        do {
            if let key = StripeCustomer.metadataKey(in: stripeConfiguration(for: document)) {
                StripeCustomer.useMetadata(key, in: &document)
            }
            outcome.document = document
            jwsDecoded += document.jwsDecoded
            jwsVerified += document.jwsVerified
            if document.jwsDecoded > document.jwsVerified, !warnedAboutSignatures {
                warnedAboutSignatures = true
                warn(request.verify ? "Xcode/LocalTesting JWS are not signed by Apple; accepted unverified (--allow-xcode)."
                                          : "JWS signatures are not verified (--no-verify); signed App Store data is trusted as given.")
            }
            var warnings = document.warnings
            ImportResolution.time(of: document, option: request.at, now: now, into: &outcome, warnings: &warnings)
            for warning in warnings { warn(warning, file: unit.name) }
            outcome.warnings = warnings
            var userWarnings: [String] = []
            try ImportResolution.user(of: document, file: unit.name, option: request.user, into: &outcome, warnings: &userWarnings)
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
        var mappedProducts = ImportNotices.MappedProducts()
        var positions: [String: ProfileMerger.Positions?] = [:]
        // Google Play purchases whose document this run imports: no longer awaited (`AwaitingPurchase`).
        var importedPurchases: [String: AwaitingPurchase] = [:]
        for index in outcomes.indices {
            observer.progress("merge", index + 1, of: unitCount)
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
                if (profiles[user] ?? nil) == nil, let refusal = Self.refusalOfNewUser(user, outcome: outcomes[index]) {
                    fail(&outcomes[index], refusal)
                    continue
                }
                // Taken out of the table and merged in place, with the positions kept from the
                // last document: many documents for one customer cost each its own size.
                var userPositions = positions.removeValue(forKey: user) ?? nil
                let profile: Profile, report: MergeReport
                if case .some(.some(var stored)) = profiles.removeValue(forKey: user) {
                    report = ProfileMerger.merge(document, into: &stored, positions: &userPositions)
                    profile = stored
                } else {
                    (profile, report) = ProfileMerger.merge(document, into: nil, userID: user, newProfileID: ProfileIdentity.derived(for: user), now: now)
                }
                positions[user] = userPositions
                outcomes[index].merge = report
                for warning in report.warnings { warn(warning, file: outcomes[index].name) }
                outcomes[index].warnings += report.warnings
                profiles[user] = .some(profile)
                if report.changed { changed.insert(user) }
                lastTime[user] = time
            }
            // Verdicts use the document's own mappings either way: they are a property of the document.
            let (extended, added) = ConfigurationExtender.extend(configuration, with: document.productMappings)
            var notices: [String] = []
            if request.updateConfig {
                configuration = extended
                outcomes[index].configAdded = added
            } else {
                outcomes[index].configNotAdded = added
                notices = added.map(ImportNotices.configurationNotChanged)
            }
            notices += ImportNotices.unmappedProducts(document, configuration: extended, cache: &mappedProducts).map(ImportNotices.unmappedProduct)
            for notice in notices { warn(notice, file: outcomes[index].name) }
            outcomes[index].warnings += notices
            outcomes[index].verdicts = Reconciler.reconcile(document, configuration: extended, at: time)
        }
        resultingConfiguration = configuration
        resultingProfiles = touched.compactMap { user in (profiles[user] ?? nil).map { ($0, lastTime[user] ?? now) } }
        guard !request.dryRun else { return }
        // One commit: the configuration and every changed profile are written together or not at all.
        let changedProfiles = touched.filter(changed.contains).compactMap { profiles[$0] ?? nil }
        if let change = changeDescription {
            var names: [String] = []
            for outcome in outcomes where names.last != outcome.name { names.append(outcome.name) }
            store.recorder?.describe(ChangeDescription(summary: ChangeSummary.import(names, customers: touched.filter(changed.contains)),
                                                       actor: change.actor))
        }
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
            // The id rules of grant: exit 2. `--user` is the command line's mistake (its usage
            // line follows); an id the document names is the document's (`FILE: ` first).
            if outcome.userSource == .option { return .invalidUserID(error, command: "import") }
            return .invalidUserID(error, file: outcome.name)
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
        observer.failed(error)
    }

    private mutating func warn(_ message: String, file: String? = nil) {
        observer.warning("\(file.map { "\(Terminal.escape($0)): " } ?? "")\(Terminal.escape(message))")
    }
}
