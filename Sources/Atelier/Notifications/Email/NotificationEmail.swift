import Foundation

/// A notification as an email, in the recipient's language: a subject, the text, and HTML with a
/// button to the page and the unsubscribe link.
enum NotificationEmail {
    static func compose(
        to address: String, text: String, kind: InboxEntry.Kind, pageURL: String, unsubscribeURL: String, language: NotificationLanguage
    ) -> Mail {
        let words = Words(language)
        let subject = text.count <= 90 ? text : String(text.prefix(89)) + "…"
        let plain = """
            \(text)

            \(words.open): \(pageURL)

            --
            \(words.why(NotificationKinds.label(kind)))
            \(words.unsubscribe): \(unsubscribeURL)
            """
        let html = """
            <!doctype html>
            <html lang="\(language.rawValue)"><head><meta charset="utf-8"><title>\(escape(subject))</title></head>
            <body style="font-family: -apple-system, 'Segoe UI', sans-serif; color: #111; max-width: 34rem; margin: 0 auto; padding: 1.5rem;">
              <p style="font-size: 1.1rem; line-height: 1.5;">\(escape(text))</p>
              <p><a href="\(escape(pageURL))" style="display: inline-block; background: #9e1b32; color: #fff; padding: 0.6rem 1.1rem; border-radius: 6px; text-decoration: none;">\(escape(words.open))</a></p>
              <hr style="border: none; border-top: 1px solid #d9d9d9; margin: 2rem 0 1rem;">
              <p style="font-size: 0.85rem; color: #595959;">\(escape(words.why(NotificationKinds.label(kind)))) <a href="\(escape(unsubscribeURL))" style="color: #595959;">\(escape(words.unsubscribe))</a></p>
            </body></html>
            """
        return Mail(to: address, subject: subject, text: plain, html: html, unsubscribeURL: unsubscribeURL)
    }

    static func escape(_ text: String) -> String { Markup.escape(text) }

    private struct Words {
        let open: String
        let unsubscribe: String
        let language: NotificationLanguage

        init(_ language: NotificationLanguage) {
            self.language = language
            switch language {
            case .en: (open, unsubscribe) = ("Open in Atelier", "Stop these emails")
            case .ro: (open, unsubscribe) = ("Deschide în Atelier", "Nu mai trimite aceste emailuri")
            }
        }

        func why(_ kind: String) -> String {
            switch language {
            case .en: "You get this because email is on for “\(kind)” in your notification settings."
            case .ro: "Primești acest email pentru că ai ales emailuri pentru „\(kind)” în setările de notificări."
            }
        }
    }
}
