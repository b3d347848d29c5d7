import EntitlementBasics
import EntitlementCLI
import FoundationEssentials
import Glibc

// The real streams, environment, clock and ids; everything else is in the library modules (ARCHITECTURE.md).
// A closed pipe is noticed as EPIPE by the output, which ends the run quietly with exit 141
// (as SIGPIPE would), instead of the signal cutting a store write short.
signal(SIGPIPE, SIG_IGN)
let environment = ProcessEnvironment.current()
var context = Context(
    environment: environment,
    stdout: OutputSink(fileDescriptor: 1),
    stderr: OutputSink(fileDescriptor: 2),
    stdin: InputSource(fileDescriptor: 0),
    now: { Date() },
    newID: Context.randomID,
    loginName: LoginName.current(environment: environment))
context.terminalColumns = TerminalSize.columns(of: 1) ?? TerminalSize.columns(of: 2)
// Raw bytes, not CommandLine.arguments, which repairs invalid UTF-8 and could merge two ids.
exit(CLI(context: context).run(rawArguments: CommandLine.rawArguments))
