@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTrust
@testable import EntitlementImport
@testable import EntitlementTeam
@testable import EntitlementIngest
@testable import EntitlementCLI
import EntitlementTestSupport
import Foundation
import Testing

/// Replays every committed fuzz input (seeds and regressions under Fuzz/) through its
/// harness's checks, so a crash found once stays fixed without running the fuzzer.
@Suite(.tags(.unit))
struct FuzzCorpusTests {
    static let inputs: [(target: String, file: String)] = FuzzTargets.all.flatMap { target in
        ["corpus", "regressions"].flatMap { folder -> [(target: String, file: String)] in
            let directory = "\(repositoryRoot)/Fuzz/\(folder)/\(target.name)"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.sorted().map { (target.name, "\(directory)/\($0)") }
        }
    }

    @Test func everyHarnessHasSeeds() {
        for target in FuzzTargets.all { #expect(Self.inputs.contains { $0.target == target.name }, "no seeds for \(target.name)") }
    }

    @Test func committedInputsPassTheirChecks() throws {
        for input in Self.inputs {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: input.file)))
            let failure = FuzzTargets.named(input.target)?(bytes)
            #expect(failure == nil, "\(input.file): \(failure ?? "")")
        }
    }
}
