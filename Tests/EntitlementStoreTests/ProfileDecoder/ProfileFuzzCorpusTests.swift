import Foundation
import Testing
import EntitlementTestSupport

/// Replays every committed input of the `profile` fuzz harness (seeds and regressions under
/// Fuzz/) through `ProfileFuzzTarget`, as `FuzzCorpusTests` does for the other harnesses, so
/// a crash found once stays fixed without running the fuzzer.
@Suite(.tags(.unit))
struct ProfileFuzzCorpusTests {
    static let inputs: [String] = ["corpus", "regressions"].flatMap { folder -> [String] in
        let directory = "\(repositoryRoot)/Fuzz/\(folder)/\(ProfileFuzzTarget.name)"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().map { "\(directory)/\($0)" }
    }

    @Test func theHarnessHasSeeds() {
        #expect(!Self.inputs.isEmpty, "no seeds for \(ProfileFuzzTarget.name)")
    }

    @Test func committedInputsPassTheirChecks() throws {
        for input in Self.inputs {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: input)))
            let failure = ProfileFuzzTarget.check(bytes)
            #expect(failure == nil, "\(input): \(failure ?? "")")
        }
    }
}
