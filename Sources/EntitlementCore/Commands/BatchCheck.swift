import Foundation

/// `check --stdin`: streams user ids in, JSON Lines out, memory flat in the number of users.
struct BatchCheck {
    let command: CheckCommand
    let store: EntitlementStore
    let date: Date

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let configuration = try store.loadConfiguration()
        if command.strict, configuration.entitlement(command.entitlement) == nil {
            throw .unknownEntitlement(command.entitlement, suggestion: Suggestion.closest(to: command.entitlement, in: configuration.entitlementIDs))
        }
        let engine = StatusEngine(configuration: configuration, environment: command.environment)
        let writer = JSONWriter(style: .compact)
        let evaluatedAt = JSONValue.string(ISODate.format(date))
        var result = ExitCode.success
        var pending: [UInt8] = []

        func handle(_ line: ArraySlice<UInt8>) {
            var line = line
            if line.last == 0x0D { line = line.dropLast() }
            guard !line.isEmpty else { return }
            // The same rules as `check USER`: valid UTF-8, at most 4096 bytes.
            guard let userID = String(validating: line, as: UTF8.self), line.count <= 4096 else {
                let problem = line.count > 4096 ? "the user id is longer than 4096 bytes" : "the user id is not valid UTF-8"
                var object = JSONObject([("id", .string(command.entitlement)), ("error", .string(problem))])
                object["customer_user_id"] = .string(String(decoding: line.prefix(64), as: UTF8.self))
                object["evaluated_at"] = evaluatedAt
                result = worse(result, .usage)
                if !command.quiet {
                    context.stdout.write(bytes: writer.bytes(.object(object)))
                    context.stdout.write("\n")
                }
                return
            }
            var object: JSONObject
            do {
                if let profile = try store.loadProfile(userID: userID) {
                    object = engine.evaluate(command.entitlement, for: profile, at: date).accessLevel.json
                    object["profile_id"] = .string(profile.profileID)
                } else if command.strict {
                    object = JSONObject([("id", .string(command.entitlement)), ("error", .string(EntitlementError.unknownUser(userID).description))])
                    result = worse(result, .notFound)
                } else {
                    object = AccessLevel(id: command.entitlement, state: .never).json
                    object["profile_id"] = .null
                }
            } catch {
                object = JSONObject([("id", .string(command.entitlement)), ("error", .string(error.description))])
                result = worse(result, error.exitCode)
            }
            if object["error"] == nil, object["is_active"] != .bool(true) { result = worse(result, .notEntitled) }
            object["customer_user_id"] = .string(userID)
            object["evaluated_at"] = evaluatedAt
            if !command.quiet {
                context.stdout.write(bytes: writer.bytes(.object(object)))
                context.stdout.write("\n")
            }
        }

        while let chunk = context.stdin.readChunk() {
            pending.append(contentsOf: chunk)
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                handle(pending[start..<newline])
                start = newline + 1
            }
            pending.removeSubrange(..<start)
            context.stdout.flush()  // streaming: answer what has arrived before reading on
        }
        handle(pending[...])
        return result
    }

    private func worse(_ a: ExitCode, _ b: ExitCode) -> ExitCode { a.rawValue >= b.rawValue ? a : b }
}
