import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastFeeds
@testable import PodcastStore

/// An imported `pw:interval` that is no number of seconds is not dropped
/// silently: the import warns with the outline and its line, and uses the default interval.
@Suite struct OPMLIntervalWarningTests {
    let dir = TemporaryDirectory("opml-interval")

    @Test func invalidIntervalsAreReportedWithOutlineAndLine() throws {
        let opml = dir.file("subs.opml")
        try Data(
            """
            <opml version="2.0" xmlns:pw="https://podcast-watch.invalid/opml/1"><body>
            <outline text="Negative" xmlUrl="http://h/neg" pw:interval="-5"/>
            <outline text="Not a number" xmlUrl="http://h/nan" pw:interval="nan"/>

            <outline text="Huge" xmlUrl="http://h/huge" pw:interval="1e400"/>
            <outline xmlUrl="http://h/esc" pw:interval="&#x202E;9"/>
            <outline text="Fine" xmlUrl="http://h/fine" pw:interval="600"/>
            <outline text="None" xmlUrl="http://h/none"/>
            </body></opml>
            """.utf8
        ).write(to: URL(fileURLWithPath: opml))
        let captured = CapturedConsole()
        #expect(
            CommandRunner(console: captured.console(), environment: [:]).run([
                "--state", dir.file("state"), "import", opml,
            ]) == .success)
        #expect(
            captured.err == """
                podcast-watch: warning: outline "Negative" (xmlUrl http://h/neg), line 2: pw:interval "-5" is not a whole number of seconds above 0; using the default interval
                podcast-watch: warning: outline "Not a number" (xmlUrl http://h/nan), line 3: pw:interval "nan" is not a whole number of seconds above 0; using the default interval
                podcast-watch: warning: outline "Huge" (xmlUrl http://h/huge), line 5: pw:interval "1e400" is not a whole number of seconds above 0; using the default interval
                podcast-watch: warning: outline (xmlUrl http://h/esc), line 6: pw:interval "\u{FFFD}9" is not a whole number of seconds above 0; using the default interval

                """)
        let imported = try FeedStore(path: dir.file("state/" + StateLocation.databaseName))
        #expect(try imported.feeds().map(\.intervalSeconds) == [nil, nil, nil, nil, 600, nil])
    }

    @Test func theOutlineKeepsTheRejectedValueAndItsLine() throws {
        let outlines = try OPML.parse(
            bytes: Array(
                """
                <opml xmlns:pw="https://podcast-watch.invalid/opml/1"><body>
                <outline xmlUrl="http://h/a" pw:interval=" 60.5 "/><outline xmlUrl="http://h/b" pw:interval=" 90 "/>
                </body></opml>
                """.utf8))
        #expect(
            outlines == [
                OPMLOutline(url: "http://h/a", rejectedInterval: " 60.5 ", line: 2),
                OPMLOutline(url: "http://h/b", interval: 90, line: 2),
            ])
        #expect(outlines.map(\.line) == [2, 2])
    }
}
