import Dispatch
import FoundationEssentials
import Synchronization

/// `check --stdin`: streams user ids in, JSON Lines out, memory flat in the number of users.
///
/// Each chunk of input that arrives is split into lines, the lines are checked on
/// every core (each profile is an independent file read), and the answers are written
/// in input order before the next chunk is read. So output keeps pace with input, and
/// memory holds one chunk at a time.
struct BatchCheck {
    let command: CheckCommand
    let store: EntitlementStore
    let date: Date

    /// Below this many lines in a chunk, one thread answers faster than two.
    static let parallelThreshold = 64

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let configuration = try store.loadConfiguration()
        if command.strict, configuration.entitlement(command.entitlement) == nil {
            throw .unknownEntitlement(command.entitlement, suggestion: Suggestion.closest(to: command.entitlement, in: configuration.entitlementIDs))
        }
        let checker = LineChecker(command: command, store: store, engine: StatusEngine(configuration: configuration, environment: command.environment),
                                  evaluatedAt: .string(ISODate.format(date)), date: date)
        let workers = max(1, min(ProcessorCount.online(), 8))
        var result = ExitCode.success
        var pending: [UInt8] = []

        func answer(_ lines: [ArraySlice<UInt8>]) {
            guard !lines.isEmpty else { return }
            let parts = lines.count < Self.parallelThreshold || workers == 1 ? 1 : workers
            let answers = ChunkAnswers(count: parts)
            let size = (lines.count + parts - 1) / parts
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                var bytes: [UInt8] = []
                var code = ExitCode.success
                for line in lines[min(part * size, lines.count)..<min((part + 1) * size, lines.count)] {
                    code = worse(code, checker.check(line, into: &bytes))
                }
                answers.set(part, bytes, code)
            }
            for part in 0..<parts {
                let (bytes, code) = answers.get(part)
                result = worse(result, code)
                if !command.quiet { context.stdout.write(bytes: bytes) }
            }
        }

        while let chunk = context.stdin.readChunk() {
            pending.append(contentsOf: chunk)
            var lines: [ArraySlice<UInt8>] = []
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                lines.append(pending[start..<newline])
                start = newline + 1
            }
            answer(lines)
            pending.removeSubrange(..<start)
            context.stdout.flush()  // streaming: answer what has arrived before reading on
        }
        answer([pending[...]])
        return result
    }
}

/// Answers one line of `check --stdin`; safe to call from several threads at once.
struct LineChecker: Sendable {
    let command: CheckCommand
    let store: EntitlementStore
    let engine: StatusEngine
    let evaluatedAt: JSONValue
    let date: Date

    /// Appends the JSON line for `line` to `out` and returns what it means for the exit code.
    func check(_ line: ArraySlice<UInt8>, into out: inout [UInt8]) -> ExitCode {
        var line = line
        if line.last == 0x0D { line = line.dropLast() }
        guard !line.isEmpty else { return .success }
        var object: JSONObject
        var code = ExitCode.success
        // The same rules as `check USER`: valid UTF-8, at most 4096 bytes.
        if let userID = String(validating: line, as: UTF8.self), line.count <= 4096 {
            do {
                if let profile = try store.loadProfile(userID: userID) {
                    object = engine.evaluate(command.entitlement, for: profile, at: date).accessLevel.json
                    object["profile_id"] = .string(profile.profileID)
                } else if command.strict {
                    object = errorObject(EntitlementError.unknownUser(userID).description)
                    code = .notFound
                } else {
                    object = AccessLevel(id: command.entitlement, state: .never).json
                    object["profile_id"] = .null
                }
            } catch {
                object = errorObject(error.description)
                code = error.exitCode
            }
            if code == .success, object["is_active"] != .bool(true) { code = .notEntitled }
            object["customer_user_id"] = .string(userID)
        } else {
            object = errorObject(line.count > 4096 ? "the user id is longer than 4096 bytes" : "the user id is not valid UTF-8")
            object["customer_user_id"] = .string(String(decoding: line.prefix(64), as: UTF8.self))
            code = .usage
        }
        object["evaluated_at"] = evaluatedAt
        if !command.quiet {
            JSONWriter(style: .compact).write(.object(object), indent: 0, into: &out)
            out.append(0x0A)
        }
        return code
    }

    private func errorObject(_ message: String) -> JSONObject {
        JSONObject([("id", .string(command.entitlement)), ("error", .string(message))])
    }
}

/// Per-thread results of one chunk, collected in order.
private final class ChunkAnswers: Sendable {
    private let parts: Mutex<[([UInt8], ExitCode)]>

    init(count: Int) { parts = Mutex(Array(repeating: ([], .success), count: count)) }

    func set(_ index: Int, _ bytes: [UInt8], _ code: ExitCode) {
        parts.withLock { $0[index] = (bytes, code) }
    }

    func get(_ index: Int) -> ([UInt8], ExitCode) {
        parts.withLock { $0[index] }
    }
}

/// The more serious of two exit codes: higher numbers are worse.
private func worse(_ a: ExitCode, _ b: ExitCode) -> ExitCode { a.rawValue >= b.rawValue ? a : b }
