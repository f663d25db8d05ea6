/// The console's login page: a plain form (it works without the script), styled by
/// `/console.css`, with the reason of the last refusal. The message is escaped: it may carry a
/// file path or an error from the box.
enum ConsoleLoginPage {
    static func reply(_ status: Int, _ reason: String, message: String?) -> HTTPReply {
        let alert = message.map { "<p class=\"alert\" role=\"alert\">\(escaped($0))</p>\n" } ?? ""
        let page = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>edge-gateway: log in</title>
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="/console.css">
            </head>
            <body>
            <header><h1>edge-gateway</h1></header>
            <main>
            <form class="login" method="post" action="/login">
            <h2>Log in to the console</h2>
            \(alert)<label for="password">Password</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
            <button type="submit">Log in</button>
            </form>
            </main>
            </body>
            </html>
            """
        return HTTPReply(
            status: status, reason: reason, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")],
            body: Array(page.utf8))
    }

    /// `text` with HTML's five special characters escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
