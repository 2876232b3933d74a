// `import Combine` on Linux: code written for Apple's Combine (and Foundation's Combine
// extensions, which Apple ships in Foundation) builds unchanged, module-qualified names such as
// `Combine.AnyPublisher` included. Only the package's Linux manifest declares this module, so it
// never meets Apple's own Combine. What it re-exports is ViewModelKitFoundation, which re-exports
// ViewModelKit and the loop: nothing else, so the names Combine does not have (ViewModelKitSchedulers)
// stay out of sight here as well.
@_exported import ViewModelKitFoundation
