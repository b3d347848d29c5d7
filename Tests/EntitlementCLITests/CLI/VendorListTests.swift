import Foundation
import Testing
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

/// One list of vendors (`Vendor`, in EntitlementModel): `import --format`, `webhook VENDOR` and
/// `ingest --vendor` offer every vendor, in its order, in help text, parsing and completion;
/// `refresh --vendor` a part of it; no command types its own list.
@Suite(.tags(.cli))
struct VendorListTests {
    static let everyVendor = "appstore, revenuecat, adapty, qonversion, googleplay or stripe"

    @Test func theListIsTheSixVendors() {
        #expect(Vendor.phrase() == Self.everyVendor)
        #expect(Vendor.allCases.map(\.displayName) == ["App Store", "RevenueCat", "Adapty", "Qonversion", "Google Play", "Stripe"])
        #expect(Vendor.phrase([.revenuecat]) == "revenuecat")
    }

    @Test func importHelpListsEveryFormat() {
        let help = runCLI(["import", "--help"]).stdout
        let line = help.split(separator: "\n").first { $0.hasPrefix("  --format F") }.map(String.init) ?? ""
        #expect(line.contains(Self.everyVendor), "import --help: \(line)")
        #expect(runCLI(["webhook", "--help"]).stdout.contains(Self.everyVendor))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func everyVendorCompletes(_ shell: String) {
        let script = runCLI(["completions", shell]).stdout
        let names = Vendor.allCases.map(\.rawValue)
        let quoted = names.map { "'\($0)'" }.joined(separator: " ")
        let count = script.components(separatedBy: quoted).count - 1 + script.components(separatedBy: names.joined(separator: " ")).count - 1
        #expect(count >= 3, "import --format, ingest --vendor and webhook VENDOR complete every vendor in \(shell)")
    }

    @Test func everyFormatParses() {
        for vendor in Vendor.allCases {
            let result = runCLI(["import", "--format", vendor.rawValue, "--store", "/nonexistent-store", "missing.json"])
            #expect(!result.stderr.contains("invalid value"), "\(vendor): \(result.stderr)")
        }
    }

    @Test func refreshTakesOnlyVendorsWithAnAPI() {
        let result = runCLI(["refresh", "alice", "--vendor", "qonversion"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("expected revenuecat"), "\(result.stderr)")
    }

    /// A hand-typed list of vendor names in a command's source would drift from the enum.
    @Test func noCommandTypesAVendorList() throws {
        let folder = repositoryRoot + "/Sources/EntitlementCLI"
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift"), let text = try? String(contentsOfFile: folder + "/" + path, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                // Enum cases (`.stripe,`) are checked by the compiler; names typed as text are not.
                let named = Vendor.allCases.filter {
                    (line.contains($0.rawValue + ",") && !line.contains("." + $0.rawValue + ",")) || line.contains($0.rawValue + " or")
                }
                if named.count >= 2 { found.append("\(path): \(line.trimmingCharacters(in: .whitespaces))") }
            }
        }
        #expect(found.isEmpty, "vendor names typed in a list: \(found)")
    }
}
