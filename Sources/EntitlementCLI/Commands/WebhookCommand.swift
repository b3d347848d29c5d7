import FoundationEssentials
import EntitlementBasics
import EntitlementIngest
import EntitlementModel
import EntitlementTeam

/// `entitlement webhook VENDOR`: a CGI program (RFC 3875) a web server runs once per request.
struct WebhookCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "webhook",
        abstract: "Take one vendor webhook request as a CGI program: authenticate, spool, apply.",
        discussion: """
            Run by a web server (lighttpd, nginx with fcgiwrap, Apache): the body on standard input
            (CONTENT_LENGTH), headers in HTTP_* variables; answers a Status: line and a short JSON
            body. The request is authenticated (401/403) and written durably to the store's spool;
            200 once spooled. The answer then ends (standard output is closed) and the request is
            applied if the store's lock comes within a second, else by the next request or
            'ingest'. 400 for a body that is not an event of VENDOR, 413 over 1 MiB, 5xx only when
            it cannot be spooled. VENDOR may come from PATH_INFO (/hooks/entitlement/appstore).
            Secrets: docs/ingest.md.
            """,
        usage: "[VENDOR] [--store DIR] [--secrets FILE]",
        arguments: [ArgumentSpec("VENDOR", kind: .choice(Vendor.allCases.map(\.rawValue)), optional: true,
                                 help: "\(Vendor.phrase()); else PATH_INFO's first part.")],
        options: [secretsOption, CommonOptions.store, CommonOptions.actor],
        examples: ["exec entitlement webhook appstore --store /srv/entitlements   # a two-line CGI wrapper"])

    static let secretsOption = Option<String>.string("secrets", value: "FILE", kind: .file, help: "The webhook secrets (mode 0600).")
        .describingDefault("$XDG_CONFIG_HOME/entitlement/secrets.json", environmentVariable: SecretsFile.environmentVariable)

    var vendor: String?
    var secrets: String?
    var store: String?
    var actor: String?

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        vendor = parsed.positionals.first
        secrets = try parsed.value(Self.secretsOption)
        store = try parsed.value(CommonOptions.store)
        actor = try parsed.value(CommonOptions.actor)
    }

    /// Always 0 once an answer is written: the web server reads the Status line, not the exit code.
    /// The answer goes out as soon as the request is spooled; applying it comes after, with
    /// SIGTERM held off (the server may send it once the response is complete).
    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let (response, accepted) = answer(context)
        // The log line first: the server may end the response, and read its log, once it has the answer.
        if let log = response.log {
            context.stderr.write("entitlement webhook: \(response.status): \(Terminal.escape(log))\n")
            context.stderr.flush()
        }
        let hold = accepted == nil ? nil : TerminationHold()
        context.stdout.write(bytes: response.cgiBytes)
        guard let (handler, accepted) = accepted else { return .success }
        // The end of the response: the server sends it now, while this process applies.
        context.stdout.finish()
        BackgroundPriority.lower()
        if let log = handler.apply(accepted) {
            context.stderr.write("entitlement webhook: \(response.status): \(Terminal.escape(log))\n")
            context.stderr.flush()
        }
        hold?.release()
        return .success
    }

    private func answer(_ context: Context) -> (WebhookResponse, (WebhookHandler, WebhookHandler.Accepted)?) {
        let environment = context.environment
        let named = vendor ?? environment["PATH_INFO"].flatMap { $0.split(separator: "/").first.map(String.init) }
        guard let named, let vendor = Vendor(rawValue: named) else {
            return (.error(404, "unknown_vendor", "name a vendor: \(Vendor.phrase())"), nil)
        }
        if let refusal = WebhookHandler.screen(method: environment["REQUEST_METHOD"], contentLength: environment["CONTENT_LENGTH"]) {
            return (refusal, nil)
        }
        let length = Int(environment["CONTENT_LENGTH"] ?? "") ?? 0
        let body = context.stdin.read(upTo: length)
        if let refusal = WebhookHandler.screen(body: body, contentLength: length) { return (refusal, nil) }
        let request = WebhookRequest(vendor: vendor, body: body, headers: WebhookRequest.headers(fromCGI: environment),
                                     receivedAt: context.now(), overHTTP: true)
        // In a team store the request's batch is one commit, as for `ingest`.
        let store = context.store(flag: self.store).withTeamRecorder(environment: context.environment)
        let authenticator: WebhookAuthenticator
        do throws(EntitlementError) {
            authenticator = try IngestSettings.authenticator(secretsFlag: secrets, environment: environment, store: store, now: context.now())
        } catch {
            // A refused secrets file or an ambiguous App Store identity refuses every vendor,
            // App Store included: a verifier without the configured identity would accept
            // another app's data. The log says why; the vendor retries.
            if case .storeMissing = error {
                return (.error(500, "not_spooled", "the event could not be stored; retry", log: "\(vendor.rawValue): \(error.description)"), nil)
            }
            return (.error(403, "forbidden", "not authenticated", log: "\(vendor.rawValue): refused: \(error.description)"), nil)
        }
        let handler = WebhookHandler(store: store, authenticator: authenticator,
                                     actor: IngestSettings.actor(flag: actor, environment: environment))
        let (response, accepted) = handler.accept(request)
        return (response, accepted.map { (handler, $0) })
    }
}
