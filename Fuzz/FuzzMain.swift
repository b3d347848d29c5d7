// The libFuzzer entry point: scripts/fuzz.sh compiles it with the library's sources,
// Tests/EntitlementCLITests/Fuzz/FuzzTargets*.swift and the store's harness,
// Tests/EntitlementStoreTests/ProfileDecoder/ProfileFuzzTarget.swift. $FUZZ_TARGET picks the harness.
import Glibc

/// Every harness: the CLI tests' and the store's (the ProfileDecoder suites share its check).
private let harnesses = FuzzTargets.all + [ProfileFuzzTarget.harness]

private let target: @Sendable ([UInt8]) -> String? = {
    let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let check = harnesses.first(where: { $0.name == name })?.check else {
        fatalError("set FUZZ_TARGET to one of: \(harnesses.map(\.name).joined(separator: ", "))")
    }
    return check
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let failure = target(bytes) { fatalError("\(FuzzTargets.self): \(failure)") }
    return 0
}
