import Foundation

/// `JSONEncoder` as a `TopLevelEncoder` producing `Data`, as Combine's conformance.
extension JSONEncoder: ViewModelKit.TopLevelEncoder {}
/// `JSONDecoder` as a `TopLevelDecoder` reading `Data`, as Combine's conformance.
extension JSONDecoder: ViewModelKit.TopLevelDecoder {}
/// `PropertyListEncoder` as a `TopLevelEncoder` producing `Data`, as Combine's conformance.
extension PropertyListEncoder: ViewModelKit.TopLevelEncoder {}
/// `PropertyListDecoder` as a `TopLevelDecoder` reading `Data`, as Combine's conformance.
extension PropertyListDecoder: ViewModelKit.TopLevelDecoder {}
