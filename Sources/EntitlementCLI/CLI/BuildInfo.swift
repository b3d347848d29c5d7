import EntitlementJSON

/// What `entitlement --version --json` says about the build.
enum BuildInfo {
    /// The Swift compiler that built this binary, as far as the language can tell at compile time.
    static var compiler: String {
        #if compiler(>=6.3)
        return "Swift 6.3 or later"
        #elseif compiler(>=6.2)
        return "Swift 6.2"
        #elseif compiler(>=6.1)
        return "Swift 6.1"
        #else
        return "Swift 6.0"
        #endif
    }

    /// The source commit is not recorded in the binary: SwiftPM offers no way to embed it
    /// without generating source files, so the output says so instead of guessing.
    static let commit: String? = nil

    static func json(version: String) -> JSONObject {
        JSONObject([
            ("version", .string(version)),
            ("build", .object(JSONObject([
                ("compiler", .string(compiler)),
                ("commit", .string(commit)),
                ("commit_known", .bool(commit != nil)),
            ]))),
        ])
    }
}
