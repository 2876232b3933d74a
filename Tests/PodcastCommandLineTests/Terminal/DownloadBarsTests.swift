import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine

/// The download bars of the live table: bytes, rate and time left per transfer.
@Suite struct DownloadBarsTests {
    @Test func barsShowBytesRateAndTimeLeft() {
        let lines = DownloadBars.lines(
            active: [
                DownloadProgress(
                    id: 1, podcastTitle: "Show", episodeTitle: "Ep \u{1B}[2J", path: "/m", bytes: 5_000_000,
                    total: 10_000_000, bytesPerSecond: 1_000_000),
                DownloadProgress(
                    id: 2, podcastTitle: nil, episodeTitle: "Unknown size", path: "/n", bytes: 300_000, total: nil),
            ], waiting: 2, finished: 1, failed: 0, width: 100)
        #expect(
            lines == [
                "Downloads: 2 active, 2 waiting, 1 done, total 1.0 MB/s",
                "  [########--------]  50%  5.0/10.0 MB  1.0 MB/s  0:05  Show: Ep ␛[2J",
                "  [????????????????]   ?%  0.3 MB  0 kB/s  --:--  Unknown size",
            ])
        #expect(DownloadBars.lines(active: [], waiting: 0, finished: 0, failed: 0, width: 80) == [])
    }
}
