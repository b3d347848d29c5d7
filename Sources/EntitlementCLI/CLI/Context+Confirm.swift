import EntitlementBasics
extension Context {
    /// A person can answer a question: standard input and standard error are terminals.
    var isInteractive: Bool { stdin.isTerminal && stderr.isTerminal }

    /// Asks `question` on stderr and reads the answer from stdin: true only for y or yes.
    func confirm(_ question: String) -> Bool {
        stderr.write(question + " [y/N] ")
        stderr.flush()
        let answer = stdin.readLine()?.trimmingWhitespace.lowercased() ?? ""
        return answer == "y" || answer == "yes"
    }
}
