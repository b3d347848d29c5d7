// The libFuzzer entry point: scripts/fuzz.sh compiles it with the library's sources and
// Tests/EntitlementCLITests/Fuzz/FuzzTargets.swift. $FUZZ_TARGET picks the harness.
import Glibc

private let target: @Sendable ([UInt8]) -> String? = {
    let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let check = FuzzTargets.named(name) else {
        fatalError("set FUZZ_TARGET to one of: \(FuzzTargets.all.map(\.name).joined(separator: ", "))")
    }
    return check
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let failure = target(bytes) { fatalError("\(FuzzTargets.self): \(failure)") }
    return 0
}
