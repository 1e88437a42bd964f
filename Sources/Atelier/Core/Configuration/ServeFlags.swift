import Foundation

/// `atelier serve --port 8150` (or `--hostname`, `--bind host:port`, `-p`, `-H`, `-b`) must mean
/// what `PORT=8150` means everywhere, above all in the default `PUBLIC_BASE_URL` that every image
/// and link URL is built on: Vapor reads the flags only to bind the socket, after the
/// configuration was made. So the flags are read first, into the environment the configuration
/// is made from (a flag wins over the variable, as it does for the socket).
public enum ServeFlags {
    public static func environment(_ environment: [String: String], arguments: [String]) -> [String: String] {
        let words = Array(arguments.dropFirst())
        guard words.first == "serve" else { return environment }
        var env = environment
        var index = 1
        func next() -> String? {
            index += 1
            return index < words.count ? words[index] : nil
        }
        while index < words.count {
            let word = words[index]
            let (flag, inline) = split(word)
            switch flag {
            case "--port", "-p": if let value = inline ?? next() { env["PORT"] = value }
            case "--hostname", "-H": if let value = inline ?? next() { env["HOST"] = value }
            case "--bind", "-b":
                if let value = inline ?? next(), let colon = value.lastIndex(of: ":") {
                    env["HOST"] = String(value[..<colon])
                    env["PORT"] = String(value[value.index(after: colon)...])
                }
            default: break
            }
            index += 1
        }
        return env
    }

    /// `--port=8150` → ("--port", "8150"); `--port` → ("--port", nil).
    private static func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// The address people reach a server on by default: a loopback or wildcard bind is `localhost`.
    static func defaultPublicHost(_ hostname: String) -> String {
        ["127.0.0.1", "0.0.0.0", "::", "::1", "localhost", ""].contains(hostname) ? "localhost" : hostname
    }
}
