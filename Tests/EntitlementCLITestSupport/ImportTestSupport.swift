import Foundation
import Testing
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore
import EntitlementTestSupport

/// `entitlement import` tests. Every suite nests here, so `swift test --filter Import` runs them all.
@Suite(.tags(.cli))
package enum ImportTests {}

extension ImportTests {
    /// Fixtures for import: Fixtures/import (docs in its README).
    package static let fixtures = repositoryRoot + "/Fixtures/import"
    /// The vendor samples live beside the repository and are never copied into it.
    package static let vendorSamples = repositoryRoot + "/../shared/vendor-samples"
    package static var vendorSamplesPresent: Bool { FileManager.default.fileExists(atPath: vendorSamples + "/README.md") }

    /// The document time of every fixture (Fixtures/import/README.md).
    package static let documentTime = ISODate.parse("2026-03-15T12:00:00Z")!
    package static let documentTimeText = "2026-03-15T12:00:00Z"
    /// The injected clock: far from the document time, so a test notices if "now" leaks in.
    package static let clock = ISODate.parse("2026-06-30T00:00:00Z")!

    /// An App Store fixture user: `00000000-0000-4000-8000-0000000000NN`.
    package static func appleUser(_ number: Int) -> String {
        "00000000-0000-4000-8000-0000000000" + (number < 10 ? "0\(number)" : "\(number)")
    }

    /// A fresh store with the import fixtures' configuration (or `config`), in its own directory.
    package final class Store {
        package let directory = TemporaryDirectory()
        package let path: String

        package init(config: String? = nil) {
            path = directory.store(config: config ?? readFile(ImportTests.fixtures + "/config.json")!)
        }

        /// Runs `entitlement import ARGS --store STORE` from the fixtures directory's paths.
        ///
        /// With `--no-verify` unless `verify`: the fixtures' JWS are hand-made and unsigned; these
        /// tests are about mapping. Verification has its own tests (Trust/ and ImportTrustTests).
        /// With `--update-config` unless `updateConfig` is false (the fixtures' mappings are expected in config.json).
        package func importing(_ arguments: [String], stdin: String = "", now: Date = ImportTests.clock, json: Bool = false, verify: Bool = false,
                       updateConfig: Bool = true) -> CLIResult {
            runCLI(["import"] + arguments + ["--store", path] + (json ? ["--json"] : []) + (verify ? [] : ["--no-verify"])
                   + (updateConfig ? ["--update-config"] : []), stdin: stdin, now: now)
        }

        /// `import --json` and its parsed output.
        package func importJSON(_ arguments: [String], stdin: String = "", now: Date = ImportTests.clock, updateConfig: Bool = true) -> (CLIResult, JSONValue) {
            let result = importing(arguments, stdin: stdin, now: now, json: true, updateConfig: updateConfig)
            return (result, (try? JSONParser.parse(result.stdout)) ?? .null)
        }

        /// Our engine's state of `entitlement` for `user`, through `status --json`.
        package func state(_ user: String, _ entitlement: String, at date: String = ImportTests.documentTimeText) -> String? {
            let result = runCLI(["status", user, "--store", path, "--at", date, "--json"])
            guard result.exitCode == 0, let document = try? JSONParser.parse(result.stdout) else { return nil }
            return document["access_levels"]?[entitlement]?["state"]?.stringValue
        }

        /// The stored profile of `user`, parsed.
        package func profile(_ user: String) -> Profile? {
            let path = EntitlementStore(root: path).profilePath(for: user)
            guard let text = readFile(path), let value = try? JSONParser.parse(text) else { return nil }
            return try? Profile(json: value)
        }

        package func configuration() -> ProductConfiguration? {
            guard let text = readFile(path + "/config.json"), let value = try? JSONParser.parse(text) else { return nil }
            return try? ProductConfiguration(json: value)
        }

        /// Every file in the store with its bytes and modification time, to prove nothing was rewritten.
        package func snapshot() -> [String: (Data, Date)] {
            var files: [String: (Data, Date)] = [:]
            let manager = FileManager.default
            for relative in (manager.subpaths(atPath: path) ?? []) where relative != ".lock" {
                let full = path + "/" + relative
                var isDirectory: ObjCBool = false
                guard manager.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                      let data = manager.contents(atPath: full),
                      let modified = try? manager.attributesOfItem(atPath: full)[.modificationDate] as? Date else { continue }
                files[relative] = (data, modified)
            }
            return files
        }

        package func profileNames() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: path + "/profiles")) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        }
    }
}
