import EntitlementCore
import FoundationEssentials
import Glibc

// The real streams, environment and clock; everything else is in EntitlementCore.
// A closed pipe must be a write error (exit 4), not death by SIGPIPE (exit 141).
signal(SIGPIPE, SIG_IGN)
let environment = ProcessEnvironment.current()
let context = Context(
    environment: environment,
    stdout: OutputStream(fileDescriptor: 1),
    stderr: OutputStream(fileDescriptor: 2),
    stdin: InputStream(fileDescriptor: 0),
    now: { Date() },
    loginName: LoginName.current(environment: environment))
exit(CLI(context: context).run(Array(CommandLine.arguments.dropFirst())))
