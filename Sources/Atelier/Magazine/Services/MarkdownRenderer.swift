import Foundation
import Ink

/// Markdown to HTML that is safe to put in a page: editors write Markdown, readers get HTML in
/// which no script can run. Ink does the parsing; these modifiers take over every place where it
/// would copy author text into markup unescaped:
/// - raw HTML (blocks and inline) is shown as text, never as markup;
/// - links and images are rebuilt with escaped attributes, and only `http`, `https`, `mailto`,
///   site-relative (`/…`) and in-page (`#…`) targets survive (a `javascript:` link becomes its
///   text, such an image its alt text); reference-style links are shown as written;
/// - fenced code loses its language class (the fence's info string is author text).
enum MarkdownRenderer {
    static func html(_ markdown: String) -> String {
        var parser = MarkdownParser()
        parser.addModifier(Modifier(target: .html) { input in escape(String(input.markdown)) })
        parser.addModifier(Modifier(target: .links) { input in link(input) })
        parser.addModifier(Modifier(target: .images) { input in image(input) })
        parser.addModifier(Modifier(target: .codeBlocks) { input in codeBlock(input) })
        return parser.html(from: markdown)
    }

    /// `[text](url)`: Ink's own rendering of the text, with a checked, escaped target.
    private static func link(_ input: Modifier.Input) -> String {
        let markdown = String(input.markdown)
        guard markdown.hasSuffix(")"), let split = markdown.range(of: "](", options: .backwards) else {
            return escape(markdown)  // a reference link: shown as written
        }
        let target = String(markdown[split.upperBound..<markdown.index(before: markdown.endIndex)])
        let prefix = "<a href=\"\(target)\">"
        guard input.html.hasPrefix(prefix), input.html.hasSuffix("</a>") else { return escape(markdown) }
        let text = String(input.html.dropFirst(prefix.count).dropLast(4))
        guard let safe = safeURL(target) else { return text }
        return "<a href=\"\(escapeAttribute(safe))\" rel=\"nofollow noopener\">\(text)</a>"
    }

    /// `![alt](url)`: rebuilt from the Markdown, alt text escaped.
    private static func image(_ input: Modifier.Input) -> String {
        let markdown = String(input.markdown)
        guard markdown.hasPrefix("!["), markdown.hasSuffix(")"), let split = markdown.range(of: "](", options: .backwards) else {
            return escape(markdown)
        }
        let alt = String(markdown[markdown.index(markdown.startIndex, offsetBy: 2)..<split.lowerBound])
        let target = String(markdown[split.upperBound..<markdown.index(before: markdown.endIndex)])
        guard let safe = safeURL(target), !safe.lowercased().hasPrefix("mailto:") else { return escape(alt) }
        return "<img src=\"\(escapeAttribute(safe))\" alt=\"\(escapeAttribute(alt))\" loading=\"lazy\">"
    }

    /// A fenced or indented code block, its lines escaped, without the fence's info string.
    private static func codeBlock(_ input: Modifier.Input) -> String {
        var lines = input.markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let first = lines.first, first.hasPrefix("```") || first.hasPrefix("~~~") {
            lines.removeFirst()
            if let last = lines.last, last.hasPrefix("```") || last.hasPrefix("~~~") { lines.removeLast() }
        } else {
            lines = lines.map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }
        }
        return "<pre><code>\(escape(lines.joined(separator: "\n")))\n</code></pre>"
    }

    /// The URL if it may be followed from a page: http(s), mailto, site-relative or in-page.
    static func safeURL(_ raw: String) -> String? {
        let url = raw.trimmingCharacters(in: .whitespaces)
        // Browsers drop tabs and newlines inside URLs ("java\tscript:"): refuse any control or space.
        guard !url.isEmpty, !url.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else { return nil }
        if url.hasPrefix("#") || (url.hasPrefix("/") && !url.hasPrefix("//") && !url.hasPrefix("/\\")) { return url }
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon].lowercased()
        return ["http", "https", "mailto"].contains(scheme) ? url : nil
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            default: out.append(character)
            }
        }
        return out
    }

    static func escapeAttribute(_ text: String) -> String { Markup.escape(text) }
}
