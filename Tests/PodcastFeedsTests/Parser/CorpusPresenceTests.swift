import Foundation
import PodcastTestSupport
import Testing

/// The corpus suites (feedparser, podcastparser, FeedKit, the date and duration tables, the
/// start-tag survey) are disabled without `../shared/corpus`; this test makes that a failure
/// unless the run asked for it (`LOOPMVVM_SKIP_CORPUS=1`), and says which case it is.
@Suite struct CorpusPresenceTests {
    @Test func corpusIsPresentUnlessSkippedExplicitly() {
        if TestData.hasCorpus { return }
        if TestData.corpusSkipIsExplicit {
            let expected = TestData.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
            print("corpus: LOOPMVVM_SKIP_CORPUS=1 and no corpus at \(expected.path): the corpus suites are skipped")
            return
        }
        Issue.record(
            """
            the shared corpus is missing (../shared/corpus beside the clone, or PODCASTKIT_CORPUS): \
            the corpus suites did not run; set LOOPMVVM_SKIP_CORPUS=1 to skip them on purpose
            """)
    }
}
