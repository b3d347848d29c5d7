import EntitlementBasics
import EntitlementModel

/// A store that is also a git working tree: runs git in it, with the caller's environment.
package struct GitRepository: Sendable {
    /// The store root (the working tree).
    let root: String
    let environment: [String: String]

    package init(root: String, environment: [String: String]) {
        self.root = root
        self.environment = environment
    }

    /// The environment git runs with: never prompts (cron has no terminal), plain messages.
    var gitEnvironment: [String: String] {
        var env = environment
        env["GIT_TERMINAL_PROMPT"] = "0"
        env["LC_ALL"] = "C"
        // The tool's own git runs hold the store lock: the index hooks (GitIndex) skip them.
        env["ENTITLEMENT_GIT"] = "1"
        for key in env.keys where key.hasPrefix("GIT_") && !Self.keepsGitVariable(key) { env[key] = nil }
        env["GIT_TERMINAL_PROMPT"] = "0"
        return env
    }

    /// The caller's `GIT_*` variables that only say how to reach a remote or who the user is;
    /// every other one (`GIT_DIR`, `GIT_OBJECT_DIRECTORY`, `GIT_COMMON_DIR`, `GIT_NAMESPACE`,
    /// `GIT_CONFIG_COUNT`, `GIT_EXEC_PATH`, …) could point the tool's git elsewhere, and is cleared.
    /// `GIT_CONFIG_GLOBAL`/`SYSTEM`/`NOSYSTEM` stay: like `HOME`, they choose the user's own files.
    static func keepsGitVariable(_ key: String) -> Bool {
        keptGitVariables.contains(key) || key.hasPrefix("GIT_SSL_") || key.hasPrefix("GIT_HTTP_")
    }

    private static let keptGitVariables: Set<String> = [
        "GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSH_VARIANT", "GIT_ASKPASS", "GIT_PROXY_COMMAND", "GIT_PROXY_SSL_CAINFO",
        "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
        "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM",
    ]

    var gitDirectory: String { "\(root)/.git" }

    /// True when `root` holds a git repository of its own (`STORE/.git`).
    package static func isRepository(_ root: String) -> Bool { GitFiles.isDirectory("\(root)/.git") }

    /// Runs `git ARGS` in the store; nil status means git could not be started.
    package func run(_ arguments: [String], input: [UInt8] = [], extraEnvironment: [String: String] = [:],
             timeout: Double? = nil, cancellation: Subprocess.Cancellation? = nil) throws(EntitlementError) -> Subprocess.Result {
        var env = gitEnvironment
        for (key, value) in extraEnvironment { env[key] = value }
        guard let result = Subprocess.run(["git", "-C", root] + arguments, environment: env, input: input, timeout: timeout,
                                          cancellation: cancellation) else {
            throw .git(message: "cannot run git", hint: "Install git (for example 'apt-get install git'); a git store needs it.")
        }
        return result
    }

    /// Starts `git ARGS` in the store for several requests and answers (`cat-file --batch`).
    func session(_ arguments: [String]) throws(EntitlementError) -> Subprocess.Session {
        guard let session = Subprocess.Session(["git", "-C", root] + arguments, environment: gitEnvironment) else {
            throw .git(message: "cannot run git", hint: "Install git (for example 'apt-get install git'); a git store needs it.")
        }
        return session
    }

    /// Runs git and throws its message unless it succeeds; returns standard output.
    @discardableResult
    package func check(_ arguments: [String], input: [UInt8] = [], extraEnvironment: [String: String] = [:]) throws(EntitlementError) -> String {
        let result = try run(arguments, input: input, extraEnvironment: extraEnvironment)
        guard result.succeeded else {
            throw .git(message: "git \(arguments.first ?? "") failed in \(root): \(Self.firstLines(result.errorText))", hint: nil)
        }
        return result.output
    }

    /// A config value, or nil when unset.
    func config(_ key: String) throws(EntitlementError) -> String? {
        let result = try run(["config", "--get", key])
        guard result.succeeded else { return nil }
        let value = result.output.trimmingWhitespace
        return value.isEmpty ? nil : value
    }

    /// The first few lines of git's own message, for an error.
    package static func firstLines(_ text: String, limit: Int = 4) -> String {
        let lines = text.split(separator: "\n").map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
        return lines.prefix(limit).joined(separator: "; ")
    }
}
