// TEMPORARY stand-in for ViewModelKit's Observable until the mvvm branch compiles. Not committed.
import ViewModelKit
public final class Observable<Value>: ObservableObject {
    public let objectWillChange = ObservableObjectPublisher()
    private var cancellable: AnyCancellable?
    public private(set) var value: Value
    init<P: Publisher>(initialValue: Value, _ p: P) where P.Output == Value, P.Failure == Never {
        value = initialValue
        cancellable = nil
        cancellable = p.sink { [weak self] v in self?.objectWillChange.send(); self?.value = v }
    }
}
extension CurrentValueSubject where Failure == Never {
    func asObservable() -> Observable<Output> { Observable(initialValue: value, self) }
}
