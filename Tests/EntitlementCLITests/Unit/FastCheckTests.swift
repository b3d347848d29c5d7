import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementTestSupport

extension UnitTests {
    /// The fast path of `check --stdin` (`FastCheck`: `CheckProfileScanner` and
    /// `OneEntitlementEngine`) against the full path (`EntitlementStore.decodeProfile`, the
    /// customer check of `loadProfile`, then `StatusEngine.evaluate`), as a property over
    /// generated profile files: whenever the fast path answers, its answer is the full path's.
    struct FastCheckTests {
        /// premium also through a product spelled with `K`, which the Kelvin sign (U+212A) equals as a `String`.
        static let configuration = ProductConfiguration(entitlements: [
            .init(id: "premium", products: [Fixture.monthly, Fixture.annual, Fixture.lifetime, Fixture.coins, "com.example.K"]),
            .init(id: "sports", products: [Fixture.sportsMonthly, Fixture.annual]),
        ])
        static let entitlements = ["premium", "sports", "Premium", "science"]
        static let user = "alice@example.com"

        /// The full path's answer, or nil when it reports an error.
        static func full(_ bytes: [UInt8], user: String, entitlement: String, environment: EnvironmentFilter, at date: Date) -> (AccessLevel, String?)? {
            guard let profile = try? EntitlementStore.decodeProfile(bytes, path: "p.json"), profile.customerUserID.utf8.elementsEqual(user.utf8)
            else { return nil }
            let engine = StatusEngine(configuration: configuration, environment: environment)
            return (engine.evaluate(entitlement, for: profile, at: date).accessLevel, profile.profileID)
        }

        static func fast(_ bytes: [UInt8], user: String, entitlement: String, environment: EnvironmentFilter, at date: Date,
                         scanner: inout CheckProfileScanner) -> (AccessLevel, String?)? {
            guard let engine = OneEntitlementEngine(entitlement, configuration: configuration, environment: environment) else { return nil }
            return bytes.withUnsafeBufferPointer { FastCheck.answer($0, userID: user, engine: engine, at: date, scanner: &scanner) }
        }

        /// A generated profile (unknown fields, vendor data, escapes, restored revocations),
        /// with every type, family sharing, offer codes, sandbox, odd spellings and records after `date`.
        /// Every other profile is plain, so that most of them can take the fast path.
        static func profile(_ random: inout SplitMix64, after date: Date, plain: Bool) -> Profile {
            func draw(_ count: Int) -> Int { ProfileGenerator.draw(&random, count) }
            var profile = plain ? ProfileGenerator.profile(&random) : ProfileDecoderTests.profile(&random)
            let odd = plain ? 4 : 1  // odd spellings are rarer in plain profiles
            profile.customerUserID = user
            if draw(3) == 0 { profile = ProfileGenerator.addingRecords(after: date, to: profile, &random) }
            let types: [TransactionType] = TransactionType.known.filter { $0 != .manualGrant } + [TransactionType(rawValue: "Subscription_Started")]
            for index in profile.transactions.indices {
                var transaction = profile.transactions[index]
                if transaction.isManualGrant {
                    if draw(5 * odd) == 0 { transaction.entitlement = ["Premium", "sports", "premium\u{301}", "science"][draw(4)] }
                } else {
                    if draw(4) == 0 { transaction.type = types[draw(types.count)] }
                    if draw(6 * odd) == 0 { transaction.productID = ["com.example.\u{212A}", "com.example.K", Fixture.coins, "com.example.other"][draw(4)] }
                    if draw(8) == 0 { transaction.ownershipType = .familySharing }
                    if draw(8) == 0 { transaction.offerCode = ["", "SPRING"][draw(2)] }
                    if draw(10) == 0 { transaction.isUpgraded = [true, false][draw(2)] }
                    if draw(10 * odd) == 0 { transaction.store = [.playStore, .stripe, Store(rawValue: "my store"), Store(rawValue: "stor\u{E9}")][draw(4)] }
                }
                if draw(8 * odd) == 0 { transaction.environment = [.sandbox, Environment(rawValue: "Sandbox"), Environment(rawValue: "sandbox\u{301}")][draw(3)] }
                if draw(10) == 0 { transaction.revocationReason = ["refunded", "fraud \u{2014} \"chargeback\""][draw(2)] }
                if draw(40 * odd) == 0, index > 0 { transaction.transactionID = profile.transactions[index - 1].transactionID }
                profile.transactions[index] = transaction
            }
            if draw(6 * odd) == 0, let key = profile.renewalInfo.keys.first {
                profile.renewalInfo["\(key)\u{301}"] = profile.renewalInfo[key]
            }
            return profile
        }

        /// Edits a writer cannot make: a manual grant without a store, a null original id, a misplaced profile.
        static func reshape(_ document: JSONValue, _ random: inout SplitMix64) -> JSONValue {
            guard case .object(var object) = document, case .array(var items)? = object["transactions"] else { return document }
            for index in items.indices {
                guard case .object(var item) = items[index] else { continue }
                if item["type"] == .string("manual_grant"), ProfileGenerator.draw(&random, 2) == 0 { item["store"] = nil }
                if ProfileGenerator.draw(&random, 10) == 0 { item["original_transaction_id"] = .null }
                if ProfileGenerator.draw(&random, 100) == 0 { item["purchased_at"] = .string("2025-02-30T00:00:00Z") }
                items[index] = .object(item)
            }
            object["transactions"] = .array(items)
            if ProfileGenerator.draw(&random, 30) == 0 { object["customer_user_id"] = .string("bob") }
            return .object(object)
        }

        @Test func theFastAnswerIsTheFullAnswer() {
            var random = SplitMix64(seed: 14_0014)
            var scanner = CheckProfileScanner()
            var answered = 0, cases = 0, errors = 0
            for round in 0..<700 {
                let date = ProfileGenerator.instant(&random)
                let profile = Self.profile(&random, after: date, plain: round % 2 == 0)
                let writer = [JSONWriter(), JSONWriter(style: .compact), JSONWriter(sortKeys: false)][round % 3]
                let bytes = writer.bytes(Self.reshape(profile.json, &random))
                var variants = [bytes]
                for _ in 0..<3 { variants.append(ProfileDecoderTests.mutate(bytes, &random)) }
                for (variant, file) in variants.enumerated() {
                    for _ in 0..<3 {
                        let entitlement = Self.entitlements[ProfileGenerator.draw(&random, Self.entitlements.count)]
                        let environment = EnvironmentFilter.allCases[ProfileGenerator.draw(&random, 3)]
                        let at = ProfileGenerator.draw(&random, 4) == 0 ? ProfileGenerator.instant(&random) : date
                        let full = Self.full(file, user: Self.user, entitlement: entitlement, environment: environment, at: at)
                        let fast = Self.fast(file, user: Self.user, entitlement: entitlement, environment: environment, at: at, scanner: &scanner)
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

/// `check --stdin`'s lines with the fast path and without it, on a store on disk: the
/// same bytes and exit codes for readable, damaged, misplaced and missing profiles.
@Suite(.tags(.unit))
struct FastCheckStoreTests {
    /// A store of 80 generated profiles (half of them plain enough for the fast path), a
    /// damaged file and a misplaced profile; the users to ask about, with two that have no
    /// profile (one of them an id the store refuses).
    static func store(in directory: TemporaryDirectory) throws -> (EntitlementStore, [String]) {
        let root = directory.store(config: String(decoding: JSONWriter().bytes(UnitTests.FastCheckTests.configuration.json), as: UTF8.self))
        let store = EntitlementStore(root: root)
        var random = SplitMix64(seed: 14_0016)
        var users: [String] = []
        for index in 0..<80 {
            let user = ["u\(index)", "auth0|\(index)", "U\(index)@example.com"][index % 3]
            let date = ProfileGenerator.instant(&random)
            var profile = UnitTests.FastCheckTests.profile(&random, after: date, plain: index % 2 == 0)
            profile.customerUserID = user
            let bytes = JSONWriter().bytes(UnitTests.FastCheckTests.reshape(profile.json, &random))
            try Data(bytes).write(to: URL(fileURLWithPath: store.profilePath(for: user)))
            users.append(user)
        }
        try Data("{".utf8).write(to: URL(fileURLWithPath: store.profilePath(for: "broken")))
        try Data(JSONWriter().bytes(UnitTests.Fixture.profile([]).json)).write(to: URL(fileURLWithPath: store.profilePath(for: "misplaced")))
        users += ["broken", "misplaced", "nobody", "bad\u{7}id"]
        return (store, users)
    }

    static let arguments = [["premium"], ["sports", "--environment", "sandbox"], ["premium", "--strict"], ["science", "--environment", "production"]]

    @Test func linesAreTheSameWithAndWithoutTheFastPath() throws {
        let directory = TemporaryDirectory()
        let (store, users) = try Self.store(in: directory)
        let date = UnitTests.Fixture.date("2025-07-01T00:00:00Z")
        for arguments in Self.arguments {
            guard case .check(let command) = try Command.parse(["check", "--stdin"] + arguments) else { Issue.record("not a check"); return }
            let configuration = try store.loadConfiguration()
            let engine = StatusEngine(configuration: configuration, environment: command.environment)
            let fast = try #require(FastCheck(store: store, configuration: configuration, entitlement: command.entitlement,
                                              environment: command.environment, date: date))
            defer { fast.close() }
            func checker(_ fast: FastCheck?) -> LineChecker {
                LineChecker(command: command, store: store, engine: engine, evaluatedAt: .string(ISODate.format(date)), date: date, terminal: false, fast: fast)
            }
            let scratch = fast.makeScratch()
            // Many of these profiles take the fast path (the fancy half mostly falls back): not two full paths compared.
            #expect(users.filter { fast.answer($0, scratch: scratch) != nil }.count >= 15, "\(arguments)")
            for (number, user) in users.enumerated() {
                var fastBytes: [UInt8] = [], fullBytes: [UInt8] = [], rows: [[String]] = []
                let fastCode = checker(fast).check(ArraySlice(user.utf8), number: number + 1, into: &fastBytes, rows: &rows, scratch: scratch)
                let fullCode = checker(nil).check(ArraySlice(user.utf8), number: number + 1, into: &fullBytes, rows: &rows)
                #expect(fastCode == fullCode, "\(arguments) \(user)")
                #expect(fastBytes == fullBytes, "\(arguments) \(user): \(String(decoding: fastBytes, as: UTF8.self))")
            }
        }
    }

    /// `check USER` answers from the bytes too: wherever the fast path answers, its answer
    /// is the full path's (the decoded profile and `StatusEngine`).
    @Test func singleCheckAnswersAreTheSameWithAndWithoutTheFastPath() throws {
        let directory = TemporaryDirectory()
        let (store, users) = try Self.store(in: directory)
        let configuration = try store.loadConfiguration()
        for date in ["2025-07-01T00:00:00Z", "2026-01-15T12:00:00Z"].map(UnitTests.Fixture.date) {
            for arguments in Self.arguments {
                var answered = 0
                for user in users where (try? UserID.validate(user)) != nil {
                    guard case .check(let command) = try Command.parse(["check", user] + arguments) else { Issue.record("not a check"); return }
                    let answerer = Self.singleAnswerer(command, store: store, configuration: configuration, date: date)
                    defer { answerer.fast?.close() }
                    guard let fast = answerer.fastDetail(.user(user), lastEventAt: true) else { continue }
                    answered += 1
                    let full = try answerer.fullDetail(.user(user))
                    #expect(fast.level == full.level, "\(arguments) \(user)")
                    #expect(fast.userID == full.userID && fast.profileID == full.profileID && fast.hasProfile == full.hasProfile, "\(arguments) \(user)")
                    #expect(fast.lastEventAt == full.lastEventAt, "\(arguments) \(user)")
                }
                #expect(answered >= 15, "\(arguments)")
            }
        }
        // --explain needs the engine's reasons, and a lookup by profile id the index: both take the
        // full path (the one that keeps the evaluation), for a user the fast path answers otherwise.
        let date = UnitTests.Fixture.date("2025-07-01T00:00:00Z")
        func single(_ lookup: CheckAnswerer.Lookup, explain: Bool) throws -> CheckAnswerer.Detail {
            try CheckAnswerer.single(lookup, store: store, configuration: configuration, entitlement: "premium", environment: .any, date: date,
                                     explain: explain, lastEventAt: false)
        }
        let plain = try #require(users.first { user in (try? UserID.validate(user)) != nil && (try? single(.user(user), explain: false))?.evaluation == nil })
        #expect(try single(.user(plain), explain: true).evaluation != nil)
        let profileID = try #require(try store.loadProfile(userID: plain)?.profileID)
        #expect(try single(.profileID(profileID), explain: false).evaluation != nil)
    }

    /// What `check USER` asks with `command`'s entitlement and environment: the fast path unless --explain.
    static func singleAnswerer(_ command: CheckCommand, store: EntitlementStore, configuration: ProductConfiguration, date: Date) -> CheckAnswerer {
        let fast = command.explain ? nil : FastCheck(store: store, configuration: configuration, entitlement: command.entitlement,
                                                     environment: command.environment, date: date)
        return CheckAnswerer(store: store, engine: StatusEngine(configuration: configuration, environment: command.environment),
                             entitlement: command.entitlement, date: date, strict: false, fast: fast)
    }
}
