/// A downstream subscriber behind a class reference, for the multi-input engines (`MergeCore`,
/// `CombiningCore`).
///
/// Why: those engines run unspecialised when the client is built without cross-module
/// optimisation, and there every copy or test of an `Optional<Downstream>` asks the runtime for
/// that optional's generic metadata (a hashed cache lookup, per value). An optional class
/// reference needs no metadata: copying it is a retain.
@usableFromInline
final class DownstreamBox<Downstream: Subscriber>: @unchecked Sendable {
    @usableFromInline let downstream: Downstream

    init(_ downstream: Downstream) {
        self.downstream = downstream
    }
}
