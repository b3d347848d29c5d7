import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// `verify`: every problem of a store, found without writing anything.
package struct StoreVerifier {
    let store: EntitlementStore
    /// The time abandoned webhook requests are judged at (nil: not checked).
    var now: Date?

    package init(store: EntitlementStore, now: Date? = nil) {
        self.store = store
        self.now = now
    }

    /// What a run found.
    package struct Report: Equatable, Sendable {
        package var problems: [VerifyProblem] = []
        package var profilesChecked = 0
        package var isClean: Bool { problems.isEmpty }
    }

    package func run(progress: (Int) -> Void = { _ in }) throws(EntitlementError) -> Report {
        try store.requireExists()
        var report = Report()
        let configuration = checkConfiguration(into: &report)
        let lint = ProfileLint(store: store, configuration: configuration)
        var leftovers: [String] = []
        var holders = PurchaseHolders()
        try ProfileScan(store: store).forEachBatch(leftover: { leftovers.append($0) }) { paths in
            let parts = Parallel.mapParts(paths, threshold: 32) { slice in
                slice.map { path -> (problems: [VerifyProblem], holding: PurchaseHolders.Holding?) in
                    do throws(EntitlementError) {
                        guard let bytes = try store.fileSystem.readFile(path) else { return ([], nil) }
                        var holding: PurchaseHolders.Holding?
                        let problems = lint.problems(in: bytes, path: path, holding: &holding)
                        return (problems + [readOnlyProblem(path)].compactMap { $0 }, holding)
                    } catch {
                        return ([Self.problem(path, error)], nil)
                    }
                }
            }
            for part in parts {
                for result in part {
                    report.problems += result.problems
                    if let holding = result.holding { holders.add(holding) }
                }
            }
            report.profilesChecked += paths.count
            progress(report.profilesChecked)
        }
        report.problems += holders.problems(in: store)
        try checkIndex(into: &report)
        try checkAliasIndex(into: &report)
        try checkRecords(into: &report)
        if let now {
            for path in try store.abandonedRequests(now: now) {
                report.problems.append(VerifyProblem(path: path, field: nil,
                                                     message: "webhook request left by a killed webhook (never acknowledged, so the vendor retries it); the next 'entitlement ingest' removes it"))
            }
            for path in store.unpublishedRequests(now: now) {
                report.problems.append(VerifyProblem(path: path, field: nil,
                                                     message: "acknowledged webhook request not yet in ingest/spool/ (kept); 'entitlement ingest' moves it there or says why it cannot"))
            }
        }
        for directory in [store.root, "\(store.root)/\(EntitlementStore.profileIDIndexDirectory)", "\(store.root)/\(EntitlementStore.aliasIndexDirectory)"] where store.fileSystem.isDirectory(directory) {
            for name in try store.fileSystem.list(directory) where ProfileScan.isLeftover(name) { leftovers.append("\(directory)/\(name)") }
        }
        for path in leftovers {
            report.problems.append(VerifyProblem(path: path, field: nil, message: "temporary file left behind by an interrupted write; delete it"))
        }
        report.problems += linkedDirectories()
        report.problems += try interruptedWrite()
        report.problems.sort()
        return report
    }

    /// config.json's own problems; the configuration when it can be used.
    private func checkConfiguration(into report: inout Report) -> ProductConfiguration? {
        let path = store.configPath
        do throws(EntitlementError) {
            let configuration = try store.loadConfiguration()
            if let bytes = try store.fileSystem.readFile(path), case .object(let object)? = try? JSONParser.parse(bytes) {
                for unknown in UnknownKeys.configurationProblems(object) {
                    report.problems.append(VerifyProblem(path: path, field: unknown.field, message: unknown.message))
                }
            }
            return configuration
        } catch {
            var message = error.description
            if message.hasPrefix(path + ": ") { message.removeFirst(path.count + 2) }
            report.problems.append(VerifyProblem(path: path, field: nil, message: message))
            return nil
        }
    }

    /// Each `index/profile-id` entry must name a profile that has that profile_id.
    private func checkIndex(into report: inout Report) throws(EntitlementError) {
        let directory = "\(store.root)/\(EntitlementStore.profileIDIndexDirectory)"
        guard store.fileSystem.isDirectory(directory) else { return }
        for path in try indexEntries(directory, depth: 0) {
            let name = PathName.base(of: path)
            let expected = "\(directory)/\(store.layout.relativePath(forName: name))"
            if path != expected {
                // The layout puts every entry in one place (flat, or `ab/cd/` from its name's digest).
                report.problems.append(VerifyProblem(path: path, field: nil, message: "misplaced index entry: it belongs at \(expected)"))
                continue
            }
            guard let bytes = try? store.fileSystem.readFile(path), let userID = String(validating: bytes, as: UTF8.self), !userID.isEmpty else {
                report.problems.append(VerifyProblem(path: path, field: nil, message: "unreadable index entry: it must hold a customer user id in UTF-8"))
                continue
            }
            let profilePath = store.profilePath(for: userID)
            guard let profileBytes = try? store.fileSystem.readFile(profilePath) else {
                report.problems.append(VerifyProblem(path: path, field: nil, message: "points nowhere: no profile file \(profilePath) for '\(userID)'"))
                continue
            }
            guard let profile = try? EntitlementStore.decodeProfile(profileBytes, path: profilePath) else { continue }  // reported with the profile
            // A merge of two creations keeps the other ids as aliases; each entry of them resolves.
            let ids = [profile.profileID].compactMap { $0 } + profile.profileIDAliases
            if !ids.contains(where: { ProfileFileName.name(for: $0) == name }) {
                report.problems.append(VerifyProblem(path: path, field: nil,
                                                     message: "points nowhere: the profile of '\(userID)' has profile_id \(profile.profileID.map { "'\($0)'" } ?? "null"), not this one"))
            }
        }
    }

    /// The index entries under `directory`: flat, or two folders down (the fanout layout).
    func indexEntries(_ directory: String, depth: Int) throws(EntitlementError) -> [String] {
        var entries: [String] = []
        for name in try store.fileSystem.list(directory).sorted() where !name.hasPrefix(".") {
            let path = "\(directory)/\(name)"
            if depth < 2, store.fileSystem.isDirectory(path) {
                entries += try indexEntries(path, depth: depth + 1)
            } else {
                entries.append(path)
            }
        }
        return entries
    }
}
