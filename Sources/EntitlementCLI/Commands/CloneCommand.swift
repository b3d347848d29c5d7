import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore
import EntitlementTeam

/// `entitlement clone URL`: a working copy of a team store, ready to use.
struct CloneCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "clone",
        abstract: "Team store: clone a team store from a git URL or path, with its merge set-up.",
        discussion: "DIR must not exist or be empty. The clone's git configuration names this program as the merge driver, so 'entitlement sync' and plain 'git pull' merge the same way.",
        arguments: [ArgumentSpec("URL", kind: .text, help: "Any git URL or path of a team store.")],
        options: [CommonOptions.store, CommonOptions.json],
        examples: ["entitlement clone git@example.com:support/entitlements.git --store ~/entitlements"])

    var url: String
    var store: String?
    var json: Bool

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        url = parsed.positionals[0]
        guard !url.isEmpty else { throw .usage("URL must not be empty.", command: Self.spec.name) }
        store = try parsed.value(CommonOptions.store)
        json = parsed.flag(CommonOptions.json)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        if GitFiles.exists(store.root), !(try GitFiles.list(store.root)).isEmpty {
            throw .storeExists(path: store.root)
        }
        let parent = PathName.directory(of: store.root)
        try GitFiles.makeDirectory(parent)
        // From the current directory, so a relative DIR means what the user meant. No checkout yet:
        // the tree is inspected first, so nothing a hostile remote holds reaches the disk.
        let git = GitRepository(root: ".", environment: context.environment)
        let result = try git.run(["clone", "--quiet", "--no-checkout", "--", url, store.root])
        guard result.succeeded else {
            throw .cloneFailed(url: url, detail: GitRepository.firstLines(result.errorText, limit: 2))
        }
        let repository = GitRepository(root: store.root, environment: context.environment)
        try GitSetup.configure(repository)
        try GitPermissions.makeStoreRootPrivate(store.root)
        guard let branch = try Self.branchToCheckOut(repository) else {
            throw .git(message: "\(url) is not a team store: it has no config.json", hint: "The clone is at \(store.root); remove it, or add a config.json there.")
        }
        try IncomingCheck(store: store, repository: repository).verify("refs/remotes/origin/\(branch)", head: nil, contents: false)
        if try repository.run(["rev-parse", "--verify", "--quiet", "refs/heads/\(branch)"]).succeeded {
            try repository.check(["reset", "--hard", "--quiet", "refs/remotes/origin/\(branch)"])
        } else {
            try repository.check(["checkout", "--quiet", "-b", branch, "--track", "origin/\(branch)"])
        }
        guard GitFiles.exists(store.configPath) else {
            throw .git(message: "\(url) is not a team store: it has no config.json", hint: "The clone is at \(store.root); remove it, or add a config.json there.")
        }
        _ = try store.loadConfiguration()
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([("store", .string(store.root)), ("url", .string(url))]))))
        } else {
            context.stdout.write("Cloned \(Terminal.escape(url)) into \(Terminal.escape(store.root)); share changes with 'entitlement sync'.\n")
        }
        return .success
    }

    /// The branch HEAD names when the remote has it, else `main` or the remote's only branch
    /// (a bare repository made with plain `git init --bare` may point HEAD at a branch nobody pushed).
    static func branchToCheckOut(_ repository: GitRepository) throws(EntitlementError) -> String? {
        let branches = try repository.check(["for-each-ref", "--format=%(refname:lstrip=3)", "refs/remotes/origin"])
            .split(separator: "\n").map(String.init).filter { $0 != "HEAD" }
        let head = try repository.run(["symbolic-ref", "--short", "HEAD"]).output.trimmingWhitespace
        if branches.contains(head) { return head }
        return branches.contains("main") ? "main" : (branches.count == 1 ? branches[0] : nil)
    }
}
