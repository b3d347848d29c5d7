import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementTestSupport

extension UnitTests {
    /// The byte decoder notes where each top-level member of a profile is, so `last_event_at`
    /// and the aliases read one member, not the whole file; the answer is the parsed profile's.
    struct ProfileMemberTests {
        static let profiles = [
            #"{"aliases": ["old-a"], "customer_user_id": "a", "last_event": {"at": "2026-01-02T03:04:05Z", "id": "e1", "type": "RENEWAL", "vendor": "revenuecat"}, "schema_version": 1, "transactions": []}"#,
            #"{"custom_attributes": {"x": "y"}, "customer_user_id": "b", "renewal_info": {}, "transactions": [], "last_event": {"at": "2026-02-01T00:00:00Z"}}"#,
            #"{"customer_user_id": "c", "transactions": []}"#,
        ]

        @Test(arguments: profiles)
        func membersReadAsTheParsedProfile(text: String) throws {
            let profile = try #require(ProfileDecoder.decode(Array(text.utf8)))
            let parsed = try #require(try JSONParser.parse(text).objectValue)
            for key in ["last_event", "aliases", "customer_user_id", "transactions", "missing"] {
                #expect(profile.rawStorage.member(key) == parsed[key], "\(key)")
            }
            #expect(profile.lastEventAt == parsed["last_event"]?.objectValue?["at"]?.stringValue.flatMap(ISODate.parse))
            #expect(profile.customerAliases == (parsed["aliases"]?.arrayValue ?? []).compactMap(\.stringValue))
        }
    }
}
