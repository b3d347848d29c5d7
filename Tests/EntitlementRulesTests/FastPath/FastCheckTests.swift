import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// The twins of `check`'s fast path (`CheckProfileScanner` and `OneEntitlementEngine`)
    /// against the full path (the profile as the store decodes it, `ProfileDecoder` else the
    /// tree; the customer check of `loadProfile`; then `StatusEngine.evaluate`), as a property
    /// over generated profile files: whenever the fast path answers, its answer is the full
    /// path's. The same over a store on disk: `FastCheckStoreTests` (`check USER`) and
    /// `FastCheckLineTests` (`check --stdin`).
    struct FastCheckTests {
        typealias C = CheckFixture
        static let configuration = CheckFixture.configuration

        /// The full path's answer, or nil when it reports an error: the profile as
        /// `EntitlementStore.decodeProfile` reads it (`ProfileDecoder`, else the tree), the
        /// customer check of `loadProfile`, then `StatusEngine.evaluate`.
        static func full(_ bytes: [UInt8], user: String, entitlement: String, environment: EnvironmentFilter, at date: Date) -> (AccessLevel, String?)? {
            guard let profile = ProfileDecoder.decode(bytes) ?? (try? Profile(json: JSONParser.parse(bytes))),
                  profile.customerUserID.utf8.elementsEqual(user.utf8)
            else { return nil }
            let engine = StatusEngine(configuration: configuration, environment: environment)
            return (engine.evaluate(entitlement, for: profile, at: date).accessLevel, profile.profileID)
        }

        /// The fast path's answer, as `FastCheck.answer` gives it: the scan, the customer
        /// check on the bytes (a misplaced profile is the full path's error to report), then
        /// the one entitlement's level; nil when the full path must answer.
        static func fast(_ bytes: [UInt8], user: String, entitlement: String, environment: EnvironmentFilter, at date: Date,
                         scanner: inout CheckProfileScanner) -> (AccessLevel, String?)? {
            guard let engine = OneEntitlementEngine(entitlement, configuration: configuration, environment: environment) else { return nil }
            return bytes.withUnsafeBufferPointer { buffer -> (AccessLevel, String?)? in
                guard (try? scanner.scan(buffer)) != nil, buffer[scanner.customerUserID].elementsEqual(user.utf8) else { return nil }
                let profileID = scanner.profileID.map { ScannedFields.makeString($0, buffer) }
                return (engine.accessLevel(&scanner, bytes: buffer, at: date), profileID)
            }
        }

        @Test func theFastAnswerIsTheFullAnswer() {
            var random = SplitMix64(seed: 14_0014)
            var scanner = CheckProfileScanner()
            var answered = 0, cases = 0, errors = 0
            for round in 0..<700 {
                let date = ProfileGenerator.instant(&random)
                let profile = C.profile(&random, after: date, plain: round % 2 == 0)
                let writer = [JSONWriter(), JSONWriter(style: .compact), JSONWriter(sortKeys: false)][round % 3]
                let bytes = writer.bytes(C.reshape(profile.json, &random))
                var variants = [bytes]
                for _ in 0..<3 { variants.append(ProfileGenerator.mutated(bytes, &random)) }
                for (variant, file) in variants.enumerated() {
                    for _ in 0..<3 {
                        let entitlement = C.entitlements[ProfileGenerator.draw(&random, C.entitlements.count)]
                        let environment = EnvironmentFilter.allCases[ProfileGenerator.draw(&random, 3)]
                        let at = ProfileGenerator.draw(&random, 4) == 0 ? ProfileGenerator.instant(&random) : date
                        let full = Self.full(file, user: C.user, entitlement: entitlement, environment: environment, at: at)
                        let fast = Self.fast(file, user: C.user, entitlement: entitlement, environment: environment, at: at, scanner: &scanner)
                        if variant == 0, round % 2 == 0 { cases += 1 }
                        if full == nil { errors += 1 }
                        guard let fast else { continue }
                        if variant == 0, round % 2 == 0 { answered += 1 }
                        #expect(full?.0 == fast.0 && full?.1 == fast.1, "round \(round) \(entitlement) \(environment) \(ISODate.format(at)): \(String(decoding: file, as: UTF8.self))")
                    }
                }
            }
            // The property holds on many answers, not on a path that always gives up: most plain files are answered.
            #expect(answered * 2 > cases, "\(answered) of \(cases)")
            #expect(errors > 100)
        }

        @Test func everyStatePassesTheFastPath() {
            var random = SplitMix64(seed: 14_0015)
            var scanner = CheckProfileScanner()
            var states: Set<AccessState> = []
            for _ in 0..<400 {
                let date = ProfileGenerator.instant(&random)
                let bytes = JSONWriter().bytes(ProfileGenerator.addingRecords(after: date, to: ProfileGenerator.profile(&random), &random).json)
                for entitlement in ["premium", "sports"] {
                    guard let fast = Self.fast(bytes, user: "alice@example.com", entitlement: entitlement, environment: .any, at: date, scanner: &scanner)
                    else { continue }
                    #expect(Self.full(bytes, user: "alice@example.com", entitlement: entitlement, environment: .any, at: date)?.0 == fast.0)
                    states.insert(fast.0.state)
                }
            }
            #expect(states == Set(AccessState.allCases))
        }

        @Test func typeNamesMapToTheirKinds() {
            let expected: [(TransactionType, CheckTransaction.Kind)] = [
                (.subscriptionStarted, .subscriptionStarted), (.subscriptionRenewed, .subscriptionRenewed), (.trialStarted, .trialStarted),
                (.introStarted, .introStarted), (.introRenewed, .introRenewed), (.nonConsumablePurchase, .nonConsumablePurchase),
                (.consumablePurchase, .consumablePurchase), (.manualGrant, .manualGrant),
                (TransactionType(rawValue: "Manual_Grant"), .other), (TransactionType(rawValue: "manual_grant "), .other), (TransactionType(rawValue: ""), .other),
            ]
            #expect(Set(expected.prefix(8).map(\.0.rawValue)) == Set(TransactionType.known.map(\.rawValue)))
            for (type, kind) in expected {
                #expect(Array(type.rawValue.utf8).withUnsafeBufferPointer { CheckTransaction.Kind($0) } == kind, "\(type.rawValue)")
            }
        }

        @Test func identifiersOutsideASCIITakeTheFullPath() {
            let configuration = ProductConfiguration(entitlements: [.init(id: "pr\u{E9}mium", products: [Fixture.monthly])])
            #expect(OneEntitlementEngine("pr\u{E9}mium", configuration: configuration, environment: .any) == nil)
            let products = ProductConfiguration(entitlements: [.init(id: "premium", products: ["com.example.\u{212A}"])])
            #expect(OneEntitlementEngine("premium", configuration: products, environment: .any) == nil)
            #expect(OneEntitlementEngine("premium", configuration: Self.configuration, environment: .any) != nil)
        }
    }
}
