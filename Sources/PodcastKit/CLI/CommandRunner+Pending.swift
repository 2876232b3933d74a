// Commands whose building blocks (OPML, the event loop, the fetcher) are not merged yet.
extension CommandRunner {
    func importOPML(_ store: FeedStore?, _ path: String) throws -> ExitCode { pending("import") }
    func export(_ store: FeedStore?) throws -> ExitCode { pending("export") }

    private func pending(_ name: String) -> ExitCode {
        console.err("podcast-watch: '\(name)' is not available in this build yet\n")
        return .internalError
    }
}
