import Glibc

/// Where petctl writes: stdout for results, one line on stderr per error.
enum Output {
    /// Writes `lines` to stdout, each ending in a newline.
    static func lines(_ lines: [String]) {
        for line in lines { print(line) }
    }

    /// Writes `text` to stdout as it is.
    static func text(_ text: String) { print(text, terminator: "") }

    /// `petctl: <sentence>` on stderr, unbuffered.
    static func error(_ sentence: String) {
        let text = "petctl: \(sentence)\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}
