import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementModel
import EntitlementTestSupport

extension UnitTests {
    /// Help is generated from the same `CommandSpec` table that parsing uses.
    struct HelpTextTests {
        static let names = Command.specs.map(\.name)

        static func spec(_ name: String) -> CommandSpec {
            guard let spec = Command.specs.first(where: { $0.name == name }) else { fatalError("no spec \(name)") }
            return spec
        }

        @Test(arguments: names)
        func commandHelpHasTheStandardSections(name: String) {
            let spec = Self.spec(name)
            let text = HelpText.forCommand(spec)
            #expect(text.hasPrefix("OVERVIEW: \(spec.abstract)\n"))
            #expect(text.contains("\nUSAGE: entitlement \(name) "))
            #expect(text.contains("\nOPTIONS:\n"))
            #expect(text.contains("ARGUMENTS:") == !spec.arguments.isEmpty)
            #expect(text.contains("EXAMPLES:") == !spec.examples.isEmpty)
        }

        @Test(arguments: names)
        func commandHelpListsEveryOptionAndArgument(name: String) {
            let spec = Self.spec(name)
            let text = HelpText.forCommand(spec)
            for option in spec.options {
                #expect(text.contains("--\(option.name)"), "--\(option.name)")
                #expect(text.contains(option.helpLine), "help of --\(option.name)")
                if let value = option.valueName { #expect(text.contains("--\(option.name) \(value)")) }
            }
            for argument in spec.arguments {
                #expect(text.contains("<\(argument.name)>"))
            }
            #expect(text.contains("-h, --help"))
        }

        @Test(arguments: names)
        func everyDeclaredOptionIsAcceptedByTheParser(name: String) throws {
            let spec = Self.spec(name)
            for option in spec.options where option.name != "help" {
                do {
                    _ = try ParsedArguments.parse(["--\(option.name)"] + (option.takesValue ? ["v"] : []) + ["--help"], spec: spec)
                } catch {
                    Issue.record("--\(option.name) of \(name): \(error.description)")
                }
            }
        }

        @Test func mainHelpListsEveryCommandAndExitCode() {
            let text = HelpText.main(CommandSpec.visible)
            for section in ["OVERVIEW:", "USAGE: entitlement [global options] <command> [options]", "GLOBAL OPTIONS", "SUBCOMMANDS:", "EXIT CODES:", "ENVIRONMENT:"] {
                #expect(text.contains(section), "\(section)")
            }
            for spec in CommandSpec.visible {
                #expect(text.contains("  \(spec.name)"), "\(spec.name)")
                #expect(text.contains(spec.abstract))
            }
            for code in ExitCode.allCases {
                #expect(text.contains("  \(code.rawValue) "))
                #expect(text.contains(code.meaning))
            }
        }

        @Test func usageLineIsGeneratedUnlessDeclared() {
            #expect(Self.spec("status").usageLine == "entitlement status [USER] [options]")
            #expect(Self.spec("path").usageLine == "entitlement path USER [options]")
            #expect(Self.spec("init").usageLine == "entitlement init [options]")
            #expect(Self.spec("grant").usageLine == "entitlement grant USER ENTITLEMENT (--duration D | --until DATE | --lifetime) [options]\n"
                    + "       entitlement grant --stdin ENTITLEMENT (--duration D | --until DATE | --lifetime) [options]")
        }

        @Test func exitCodesAreTheDocumentedNumbers() {
            #expect(ExitCode.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5, 6, 141])
        }

        @Test(arguments: [
            ("grnat", ["check", "grant", "help"], "grant" as String?),
            ("stauts", ["status", "history"], "status"),
            ("his", ["status", "history"], "history"),  // a prefix
            ("zzzzzz", ["status", "history"], nil),
            ("JSON", ["json"], "json"),
        ])
        func suggestion(word: String, candidates: [String], expected: String?) {
            #expect(Suggestion.closest(to: word, in: candidates) == expected)
        }
    }
}
