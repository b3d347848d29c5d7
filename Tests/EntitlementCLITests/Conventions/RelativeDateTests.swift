import Foundation
import Testing
@testable import EntitlementBasics
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Dates as people type them, resolved once against the start of the run.
@Suite(.tags(.cli))
struct RelativeDateTests {
    @Test func wordsAreTheCurrentInstantAndADayEitherSide() {
        #expect(RelativeDate.resolve("now", now: demoDate) == demoDate)
        #expect(RelativeDate.resolve("today", now: demoDate) == demoDate)
        #expect(RelativeDate.resolve("TODAY", now: demoDate) == demoDate)
        #expect(RelativeDate.resolve("yesterday", now: demoDate) == demoDate.addingTimeInterval(-86_400))
        #expect(RelativeDate.resolve("tomorrow", now: demoDate) == demoDate.addingTimeInterval(86_400))
    }

    @Test func calendarMonthsAndYearsInUTC() {
        let march31 = ISODate.parse("2026-03-31T10:00:00Z")!
        #expect(RelativeDate.resolve("-1m", now: march31) == ISODate.parse("2026-02-28T10:00:00Z"))
        #expect(RelativeDate.resolve("+1y", now: ISODate.parse("2024-02-29T00:00:00Z")!) == ISODate.parse("2025-02-28T00:00:00Z"))
    }

    @Test(arguments: ["", "3d", "-d", "+", "-3", "-3x", "- 3d", "-3D", "-٣d", "--3d", "-99999999d", "+10000y"])
    func notRelative(_ text: String) {
        #expect(RelativeDate.resolve(text, now: demoDate) == nil)
    }

    /// As a property over generated offsets: hours, days and weeks are exact multiples of
    /// seconds, and months and years follow the UTC calendar.
    @Test func offsetsAsAProperty() {
        var random = SplitMix64(seed: 2026)
        for _ in 0..<1000 {
            let now = Date(timeIntervalSince1970: Double(random.next() % 4_000_000_000))
            let amount = Int(random.next() % 500)
            let negative = random.next() % 2 == 0
            let signed = negative ? -amount : amount
            let sign = negative ? "-" : "+"
            #expect(RelativeDate.resolve("\(sign)\(amount)h", now: now) == now.addingTimeInterval(Double(signed) * 3600))
            #expect(RelativeDate.resolve("\(sign)\(amount)d", now: now) == now.addingTimeInterval(Double(signed) * 86_400))
            #expect(RelativeDate.resolve("\(sign)\(amount)w", now: now) == now.addingTimeInterval(Double(signed) * 604_800))
            #expect(RelativeDate.resolve("\(sign)\(amount)m", now: now) == CivilDate.adding(months: signed, to: now))
            #expect(RelativeDate.resolve("\(sign)\(amount)y", now: now) == CivilDate.adding(months: signed * 12, to: now))
        }
    }

    @Test func resolvedOnceAgainstTheInjectedClockAndShownResolved() throws {
        let result = runCLI(["check", "lifetime", "--at", "-3d", "--json", "--store", demoStorePath])
        #expect(result.stdout.contains(#""evaluated_at": "2026-01-12T12:00:00Z""#))
        let since = runCLI(["history", "refunded", "--since", "-10d", "--output", "csv", "--no-headers", "--store", demoStorePath])
        #expect(since.stdout == "2026-01-06T17:20:13Z,revocation,2000000673415649,com.example.premium.monthly,,app_store,,2026-02-02T08:12:44Z,production,,refunded\r\n")
    }

    @Test func startsTodayMeansNowAndIsNotAnError() {
        let directory = TemporaryDirectory()
        let store = directory.store()
        let result = runCLI(["grant", "alice", "premium", "--duration", "1w", "--starts", "today", "--store", store, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""expires_at": "2026-01-22T12:00:00Z""#))
        #expect(runCLI(["grant", "bob", "premium", "--until", "tomorrow", "--store", store]).exitCode == 0)
        #expect(runCLI(["grant", "carol", "premium", "--lifetime", "--starts", "yesterday", "--store", store]).exitCode == 2)
    }
}
