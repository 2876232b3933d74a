import Foundation
import PodcastEngine
import PodcastFeeds
import PodcastStore

/// The dashboard's forms (`POST`, past the CSRF check): each does what the matching API call
/// does and answers `303 See Other` to `/?done=CODE`, so a reload never posts twice; the page
/// then shows the notice for CODE from a fixed table (`notice(_:)`): nothing a client sends is
/// reflected into the page.
///
/// Threading: the loop's thread only.
struct WebFormActions {
    let control: WebControl

    func add(_ request: HTTPRequest) -> HTTPResponse {
        let fields = request.formFields
        guard let url = fields["url"], !url.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .seeOther("/?done=error-url")
        }
        let title = fields["title"].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        do {
            _ = try control.addFeed(url: url, title: title)
            return .seeOther("/?done=added")
        } catch StoreError.alreadySubscribed {
            return .seeOther("/?done=error-exists")
        } catch {
            return .seeOther("/?done=error-url")
        }
    }

    func poll(_ id: String) -> HTTPResponse {
        guard let id = Int64(id), control.pollFeed(id: id) else { return .seeOther("/?done=error-nofeed") }
        return .seeOther("/?done=polled")
    }

    func remove(_ id: String) -> HTTPResponse {
        guard let id = Int64(id), (try? control.removeFeed(id: id)) != nil else {
            return .seeOther("/?done=error-nofeed")
        }
        return .seeOther("/?done=removed")
    }

    func pollAll() -> HTTPResponse {
        control.pollAll()
        return .seeOther("/?done=polled-all")
    }

    /// The file is parsed on `offLoop` (`WebImport`); the subscriptions are made on the loop.
    func importOPML(_ request: HTTPRequest, _ offLoop: OffLoopExecutor) -> HTTPReply {
        guard let file = request.multipartFields["opml"], !file.isEmpty else {
            return .response(.seeOther("/?done=error-nofile"))
        }
        let control = self.control
        return .deferred { respond in
            WebImport.run(on: offLoop, { WebImport.outlines(Data(file)) }) { parsed in
                respond(WebFormActions.imported(parsed, control))
            }
        }
    }

    static func imported(_ parsed: Result<[OPMLOutline], WebImport.Failure>, _ control: WebControl) -> HTTPResponse {
        let summary: WebImportSummary
        switch parsed {
        case .failure(.tooManyOutlines): return .seeOther("/?done=error-opml-size")
        case .failure: return .seeOther("/?done=error-opml")
        case .success(let outlines):
            guard let done = try? control.importOutlines(outlines) else { return .seeOther("/?done=error-opml") }
            summary = done
        }
        return .seeOther(
            "/?done=imported&added=\(summary.added)&existing=\(summary.existing)&skipped=\(summary.skipped)")
    }

    /// The notice for the query of `/?done=CODE...`, `nil` without a known code.
    static func notice(_ query: [String: String]) -> DashboardPage.Notice? {
        func number(_ name: String) -> Int { query[name].flatMap { Int($0) }.map { max(0, $0) } ?? 0 }
        switch query["done"] {
        case "added": return .init("Feed added; its first poll has started.")
        case "removed": return .init("Feed removed.")
        case "polled": return .init("Polling the feed now.")
        case "polled-all": return .init("Polling every feed now.")
        case "imported":
            return .init(
                "OPML imported: \(number("added")) added, \(number("existing")) already subscribed, \(number("skipped")) skipped."
            )
        case "error-url": return .init("Cannot add that feed: give an http:// or https:// feed URL.", isError: true)
        case "error-exists": return .init("Already subscribed to that feed.", isError: true)
        case "error-nofeed": return .init("No such feed (it may have been removed).", isError: true)
        case "error-nofile": return .init("Choose an OPML file to import.", isError: true)
        case "error-opml": return .init("That file is not an OPML document.", isError: true)
        case "error-opml-size":
            return .init(
                "That OPML has more than \(WebImportSummary.maxOutlines) outlines; import it with `podcast-watch import FILE`.",
                isError: true)
        default: return nil
        }
    }
}
