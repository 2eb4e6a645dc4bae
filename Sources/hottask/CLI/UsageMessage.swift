import FoundationEssentials
import Glibc

/// swift-argument-parser's messages for a bad command line, said as HotTask says every error:
/// one line after `hottask:`, naming the option, quoting the value, and giving the forms it
/// takes or the next step. Its own messages come in a few fixed shapes; one that is not among
/// them (HotTask's own `ValidationError`s) is said as it is.
enum UsageMessage {
    static func oneLine(_ message: String) -> String {
        let first = String(message.prefix { $0 != "\n" })
        if let match = first.wholeMatch(of: /The value '(.*)' is invalid for '(--[a-z-]+) <([a-z|]+)>'\. Please provide one of (.*)\./) {
            let forms = match.4.replacing("'", with: "").replacing(" and ", with: " or ")
            return "\(match.2) takes \(forms), not '\(match.1)'"
        }
        if let match = first.wholeMatch(of: /Missing value for '(--[a-z-]+) <(.*)>'/) {
            return "\(match.1) needs a value: \(match.1) <\(match.2)>"
        }
        if let match = first.wholeMatch(of: /Unknown option '(.*)'\. Did you mean '(.*)'\?/) {
            return "unknown option '\(match.1)'; did you mean \(match.2)? (hottask --help lists them all)"
        }
        if let match = first.wholeMatch(of: /Unknown option '(.*)'/) {
            return "unknown option '\(match.1)'; hottask --help lists them all"
        }
        if let match = first.wholeMatch(of: /Unexpected argument '(.*)'/) {
            return "unexpected argument '\(match.1)' (a caption goes after --add or --edit N, in quotes); hottask --help lists the options"
        }
        if let match = first.wholeMatch(of: /Unexpected arguments (.*)/) {
            return "unexpected arguments \(match.1) (a caption goes after --add or --edit N, in quotes); hottask --help lists the options"
        }
        return first
    }
}
