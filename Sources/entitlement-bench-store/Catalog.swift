import Foundation
import EntitlementModel

/// The product configuration of the synthetic store: the demo store's, plus the
/// consumables that unlock nothing.
enum Catalog {
    static let premiumMonthly = "com.example.premium.monthly"
    static let premiumAnnual = "com.example.premium.annual"
    static let premiumWeekly = "com.example.premium.weekly"
    static let lifetime = "com.example.lifetime"
    static let sportsMonthly = "com.example.sports.monthly"
    static let scienceYearly = "com.example.science.yearly"
    static let consumables = ["com.example.coins.100", "com.example.coins.500", "com.example.coins.1000", "com.example.gems.pack"]
    static let consumablePrices: [Double] = [0.99, 4.99, 8.99, 19.99]

    static var configuration: ProductConfiguration {
        let premium = ProductConfiguration.Entitlement(
            id: "premium", description: "Everything in the app",
            products: [premiumMonthly, premiumAnnual, premiumWeekly, lifetime])
        let sports = ProductConfiguration.Entitlement(
            id: "sports", description: "Live sports section (also included in the premium annual plan)",
            products: [sportsMonthly, premiumAnnual])
        let science = ProductConfiguration.Entitlement(id: "science", description: "Science documentaries", products: [scienceYearly])
        return ProductConfiguration(entitlements: [premium, sports, science])
    }

    static let countries = ["US", "US", "US", "GB", "DE", "FR", "BR", "CA", "NL", "JP", "IN", "ES", "IT", "AU", "MX", "KR"]
    static let currencies = ["USD", "USD", "USD", "USD", "USD", "EUR", "EUR", "GBP", "BRL", "JPY"]
    static let appVersions = ["4.3.0", "4.2.1", "4.2.0", "4.1.3", "4.0.0", "3.9.1"]
    static let channels = ["organic", "podcast", "search_ads", "tiktok", "referral", "newsletter"]
    static let paywalls = ["onboarding_v3", "onboarding_v2", "settings", "feature_gate", "winback"]
    static let locales = ["en_US", "en_GB", "de_DE", "fr_FR", "pt_BR", "ja_JP", "es_ES"]
    static let firstNames = ["anna", "ben", "chloe", "david", "emma", "felix", "grace", "hugo", "ines", "jonas", "kai", "lena",
                             "maria", "noah", "olivia", "paul", "quinn", "rosa", "sofia", "tom", "ugo", "vera", "will", "yara", "zoe"]
    static let lastNames = ["smith", "muller", "garcia", "rossi", "dubois", "silva", "tanaka", "kim", "novak", "jensen", "oconnor", "ivanova"]
    static let domains = ["example.com", "mail.example.org", "example.net", "corp.example.com", "example.co.uk", "example.de"]
    static let supportAgents = ["dana", "sam", "lee", "priya", "marco", "support-bot"]
    static let grantReasons = ["Compensation for outage INC-42", "Beta tester reward", "Creator campaign", "Customer support goodwill",
                               "Refund dispute resolution", "Press access", "Employee account", "Migration from legacy plan"]
    static let offerCodes = ["SPRING25", "WINBACK50", "BLACKFRIDAY", "STUDENT", "PODCAST30"]

    /// The local price for a USD list price (whole yen, BRL in .90s).
    static func price(_ usd: Double, in currency: String) -> Double {
        switch currency {
        case "GBP": return max(0.99, usd - 1)
        case "BRL": return (usd * 5).rounded() - 0.1
        case "JPY": return (usd * 150 / 10).rounded() * 10
        default: return usd
        }
    }
}
