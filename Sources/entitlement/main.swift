import EntitlementCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The real streams, environment, clock and ids; everything else is in EntitlementCore.
let environment = ProcessEnvironment.current()
let context = Context(
    environment: environment,
    stdout: OutputSink(fileDescriptor: 1),
    stderr: OutputSink(fileDescriptor: 2),
    stdin: InputSource(fileDescriptor: 0),
    now: { Date() },
    newID: Context.randomID,
    loginName: LoginName.current(environment: environment))
// Raw bytes, not CommandLine.arguments, which repairs invalid UTF-8 and could merge two ids.
exit(CLI(context: context).run(rawArguments: CommandLine.rawArguments))
