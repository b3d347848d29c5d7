// entitlement-bench-jws: writes N App Store transaction JWS that share one certificate
// chain, for the signed-data benchmark of scripts/bench.sh (docs/security.md, "Speed").
//
//   entitlement-bench-jws --count N --out DIR
//
// DIR/root.der is a P-384 root minted for the run (give it to `import --trust-root`);
// DIR/signed.jsonl holds N documents, one JWS string per line (JSON Lines), each a
// transaction of its own customer (appAccountToken) signed by a P-256 leaf under a P-384
// intermediate with Apple's OIDs: the shape of Apple's real chain. Dates are fixed; the
// keys are random, so the bytes differ between runs but the work does not.
//
// With --notifications, DIR/notifications.jsonl holds N App Store Server Notifications V2 request
// bodies instead (`{"signedPayload": JWS}`, SUBSCRIBED/INITIAL_BUY, its signedTransactionInfo a
// second JWS): two JWS per event, for `ingest` (scripts/bench-ingest.sh).
import Glibc

var count = 10_000
var out = "bench/jws"
var notifications = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--count": count = arguments.next().flatMap { Int($0) } ?? -1
    case "--out": out = arguments.next() ?? ""
    case "--notifications": notifications = true
    default: count = -1
    }
}
guard count > 0, !out.isEmpty else {
    complain("usage: entitlement-bench-jws --count N --out DIR [--notifications]")
    exit(2)
}

let root = MintedCertificate(name: "Bench Root", curve: "P-384", issuer: nil, oid: nil, serial: 1)
let intermediate = MintedCertificate(name: "Bench Intermediate", curve: "P-384", issuer: root, oid: "1.2.840.113635.100.6.2.1", serial: 2)
let leaf = MintedCertificate(name: "Bench Leaf", curve: "P-256", issuer: intermediate, oid: "1.2.840.113635.100.6.11.1", serial: 3)
let header = Base64.url(Array(#"{"alg":"ES256","x5c":["\#(leaf.base64)","\#(intermediate.base64)","\#(root.base64)"]}"#.utf8))

mkdir(out, 0o755)
write(path: out + "/root.der", root.der)
var lines: [UInt8] = []
for index in 0..<count {
    let token = twelveDigits(index)
    let payload = #"{"transactionId":"9\#(token)","originalTransactionId":"9\#(token)","bundleId":"com.example.app","#
        + #""productId":"com.example.premium.monthly","purchaseDate":1767225600000,"expiresDate":1769904000000,"#
        + #""type":"Auto-Renewable Subscription","appAccountToken":"00000000-0000-4000-8000-\#(token)","#
        + #""inAppOwnershipType":"PURCHASED","signedDate":1767225600000,"environment":"Production","transactionReason":"PURCHASE"}"#
    let jws = sign(payload)
    guard notifications else {
        lines += Array("\"\(jws)\"\n".utf8)
        continue
    }
    let notification = #"{"notificationType":"SUBSCRIBED","subtype":"INITIAL_BUY","notificationUUID":"6c3f0000-0000-4000-8000-\#(token)","#
        + #""signedDate":1767225600000,"version":"2.0","data":{"bundleId":"com.example.app","environment":"Production","#
        + #""signedTransactionInfo":"\#(jws)"}}"#
    lines += Array("{\"signedPayload\":\"\(sign(notification))\"}\n".utf8)
}
write(path: out + (notifications ? "/notifications.jsonl" : "/signed.jsonl"), lines)

/// A compact JWS of `payload` under the minted chain.
@MainActor func sign(_ payload: String) -> String {
    let input = header + "." + Base64.url(Array(payload.utf8))
    return input + "." + Base64.url(leaf.signES256(Array(input.utf8)))
}

func write(path: String, _ bytes: [UInt8]) {
    guard let file = fopen(path, "wb"), fwrite(bytes, 1, bytes.count, file) == bytes.count, fclose(file) == 0 else {
        complain("entitlement-bench-jws: cannot write \(path)")
        exit(1)
    }
}

/// One line on standard error.
func complain(_ message: String) {
    let bytes = Array((message + "\n").utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
}

/// `index` as 12 decimal digits, the last group of a UUID.
func twelveDigits(_ index: Int) -> String {
    let digits = String(index)
    return String(repeating: "0", count: max(0, 12 - digits.count)) + digits
}
