import EntitlementBasics
import EntitlementModel

extension StoreVerifier {
    /// The ingest records and the App Store index: each file where the layout puts it
    /// (`StoreFileKind`), readable by the tool's rule; an App Store index entry names a customer
    /// who has a profile. An unreadable event record would otherwise pass for an applied event.
    func checkRecords(into report: inout Report) throws(EntitlementError) {
        for kind in [StoreFileKind.eventRecord, .googlePlayPurchase, .appStoreCustomerIndexEntry] {
            let directory = "\(store.root)/\(kind.directory)"
            guard store.fileSystem.isDirectory(directory) else { continue }
            for path in try files(under: directory, depth: kind == .eventRecord ? 2 : kind == .appStoreCustomerIndexEntry ? 1 : 0) {
                let relative = String(path.dropFirst(store.root.count + 1))
                if ProfileScan.isLeftover(PathName.base(of: path)) { continue }
                guard StoreFileKind.kind(of: relative) == kind else {
                    report.problems.append(VerifyProblem(path: path, field: nil, message: "not a file of the store's layout (\(kind.directory)); remove it"))
                    continue
                }
                let bytes: [UInt8]?
                do { bytes = try store.fileSystem.readFile(path) } catch {
                    report.problems.append(Self.problem(path, error))
                    continue
                }
                guard let bytes else { continue }
                if let problem = kind.problem(with: bytes, at: relative) {
                    let effect = kind == .eventRecord ? "; its event is not taken for applied: ingest fails it until this file is fixed or removed" : ""
                    report.problems.append(VerifyProblem(path: path, field: nil, message: problem + effect))
                } else if kind == .appStoreCustomerIndexEntry {
                    let userID = String(decoding: bytes, as: UTF8.self)
                    if (try? store.fileSystem.readFile(store.profilePath(for: userID))) == nil {
                        report.problems.append(VerifyProblem(path: path, field: nil,
                                                             message: "points nowhere: no profile file \(store.profilePath(for: userID)) for '\(Terminal.escape(userID))'"))
                    }
                }
            }
        }
    }

    /// The files `depth` folders below `directory`, in name order (anything else found there is listed too).
    private func files(under directory: String, depth: Int) throws(EntitlementError) -> [String] {
        var found: [String] = []
        for name in try store.fileSystem.list(directory).sorted() {
            let path = "\(directory)/\(name)"
            if depth > 0, store.fileSystem.isDirectory(path) {
                found += try files(under: path, depth: depth - 1)
            } else {
                found.append(path)
            }
        }
        return found
    }
}
