import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore

/// The units one `ingest` run reads: the spool (failed records taken back for another try),
/// the files of a folder, or the lines of standard input.
package enum IngestInput {
    package struct Units: Sendable {
        package var units: [IngestUnit] = []
        /// Input that could not become a unit (an unreadable file, a line of unknown vendor).
        package var problems: [String] = []
    }

    package static func units(from directory: String?, stdin: [UInt8]?, vendor: Vendor?, spool: Spool, now: Date) throws(EntitlementError) -> Units {
        if let directory { return try folder(directory, vendor: vendor, now: now) }
        if let stdin { return lines(stdin, vendor: vendor, now: now) }
        var result = Units()
        for name in try spool.failed() { try spool.retry(name) }
        result.problems += spool.adoptPrepared()
        for name in try spool.waiting() {
            do throws(EntitlementError) {
                guard let record = try spool.read(name) else { continue }
                if let vendor, record.request.vendor != vendor { continue }
                result.units.append(IngestUnit(source: .spool(name), request: record.request))
            } catch {
                result.problems.append(error.description)
            }
        }
        return result
    }

    /// Every regular file of `directory` not starting with a dot, in name order.
    static func folder(_ directory: String, vendor: Vendor?, now: Date) throws(EntitlementError) -> Units {
        let fileSystem = FileSystem.system
        guard fileSystem.isDirectory(directory) else {
            throw .usage("\(Terminal.escape(directory)) is not a directory.", hint: "--from names a folder of saved request bodies.", command: "ingest")
        }
        var result = Units()
        for name in try fileSystem.list(directory).filter({ !$0.hasPrefix(".") }).sorted() {
            let path = "\(directory)/\(name)"
            guard !fileSystem.isDirectory(path) else { continue }
            do throws(EntitlementError) {
                let body = try fileSystem.readFile(path, policy: .userFile) ?? []
                guard let unit = unit(body, source: .file(path), vendor: vendor, now: now) else {
                    result.problems.append("\(Terminal.escape(path)): \(notAnEvent(body))")
                    continue
                }
                result.units.append(unit)
            } catch {
                result.problems.append(error.description)
            }
        }
        return result
    }

    /// JSON Lines: one request body per non-blank line.
    static func lines(_ bytes: [UInt8], vendor: Vendor?, now: Date) -> Units {
        var result = Units()
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let body = Array(line.last == 0x0D ? line.dropLast() : line)
            guard body.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            guard let unit = unit(body, source: .line(index + 1), vendor: vendor, now: now) else {
                result.problems.append("<stdin>:\(index + 1): \(notAnEvent(body))")
                continue
            }
            result.units.append(unit)
        }
        return result
    }

    /// Why a body of no known vendor is not an event: a document `import` reads is named as one.
    private static func notAnEvent(_ body: [UInt8]) -> String {
        DocumentBody.refusal(body) ?? "not an event of a known vendor (pass --vendor)"
    }

    /// The unit of a local body: `vendor`, else the one adapter whose shape the body has.
    /// A body that does not parse goes to `vendor`'s adapter (or is refused) to be reported as malformed.
    private static func unit(_ body: [UInt8], source: IngestUnit.Source, vendor: Vendor?, now: Date) -> IngestUnit? {
        let chosen = vendor ?? ((try? JSONParser.parse(body)).flatMap(VendorTable.detect)?.vendor)
        guard let chosen else { return nil }
        return IngestUnit(source: source, request: WebhookRequest(vendor: chosen, body: body, receivedAt: now, overHTTP: false))
    }
}
