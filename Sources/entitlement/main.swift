import EntitlementCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The real streams, environment and clock; everything else is in EntitlementCore.
let environment = ProcessEnvironment.current()
let context = Context(
    environment: environment,
    stdout: OutputStream(fileDescriptor: 1),
    stderr: OutputStream(fileDescriptor: 2),
    stdin: InputStream(fileDescriptor: 0),
    now: { Date() },
    loginName: LoginName.current(environment: environment))
exit(CLI(context: context).run(Array(CommandLine.arguments.dropFirst())))
