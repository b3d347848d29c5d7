#if !FUZZING
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementStore
#endif

/// The `profile` fuzz harness's property. Compiled into the store's tests (the ProfileDecoder
/// suites and `ProfileFuzzCorpusTests`, which replays its committed inputs under Fuzz/) and,
/// by scripts/fuzz.sh, into the libFuzzer binary beside `FuzzTargets` (Fuzz/FuzzMain.swift
/// lists it). Returns nil, or what went wrong.
enum ProfileFuzzTarget {
    static let name = "profile"
    /// The harness as Fuzz/FuzzMain.swift lists it beside `FuzzTargets.all`.
    static let harness: (name: String, check: @Sendable ([UInt8]) -> String?) = (name, { check($0) })

    /// A store file read straight from its bytes (`ProfileDecoder`) and through the tree
    /// agree: the same profile and the same rewrite, or the decoder gives up and the tree's
    /// answer (its error, with line and column) is what the store returns.
    static func check(_ bytes: [UInt8]) -> String? {
        let reference = Result { () throws(EntitlementError) in try EntitlementStore.decodeProfileTree(bytes, path: "p.json") }
        guard let fast = ProfileDecoder.decode(bytes) else {
            let answer = Result { () throws(EntitlementError) in try EntitlementStore.decodeProfile(bytes, path: "p.json") }
            return answer == reference ? nil : "the fallback does not give the tree's answer"
        }
        guard case .success(let expected) = reference else { return "accepted what the tree refuses: \(reference)" }
        guard fast == expected else { return "a different profile" }
        guard JSONWriter().bytes(fast.json) == JSONWriter().bytes(expected.json) else { return "a different rewrite" }
        guard fast.customAttributes == expected.customAttributes, fast.raw == expected.raw else { return "different raw objects" }
        for (a, b) in zip(fast.transactions, expected.transactions) where a.raw != b.raw || a.holdsRestoredRevocations != b.holdsRestoredRevocations {
            return "a different raw transaction"
        }
        for (key, info) in fast.renewalInfo where expected.renewalInfo[key]?.raw != info.raw { return "a different raw renewal info" }
        return nil
    }
}
