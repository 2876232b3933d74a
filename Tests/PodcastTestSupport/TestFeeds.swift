/// Feed documents the daemon, web and command-line tests serve.
package enum TestFeeds {
    /// A small RSS 2.0 feed titled "Show" with one item per guid (title "Episode GUID", an MP3
    /// enclosure at `http://m/GUID.mp3`).
    package static func rss(_ guids: [String]) -> String {
        let items = guids.map {
            "<item><guid>\($0)</guid><title>Episode \($0)</title><enclosure url=\"http://m/\($0).mp3\" type=\"audio/mpeg\"/></item>"
        }.joined()
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Show</title>\(items)</channel></rss>"
    }

    /// A feed whose one item has `attributes` attributes: a start tag libxml2 would spend
    /// quadratic time on (`StartTagLimit` refuses it above 256).
    package static func element(attributes: Int) -> [UInt8] {
        var text = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title><item "
        text.reserveCapacity(attributes * 14)
        for i in 0..<attributes { text += "a\(i)=\"x\" " }
        text += "/></channel></rss>"
        return Array(text.utf8)
    }
}
