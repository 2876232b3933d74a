// getting-started-example: the code of the "Getting started" article (ViewModelKit.docc), so the
// article cannot rot: `make docs` checks that every code block of the article appears here, and
// `make examples` runs this program and compares its output.
import ViewModelKit

// MARK: The view model

@MainActor
final class ProfileViewModel: ObservableObject {
    @Published private(set) var name = "Ada"
    @Published private(set) var followers = 0

    func follow() {
        followers += 1
    }

    /// Fetches the profile, then sets both properties: one draw for the two changes.
    func refresh(from server: ProfileServer) async {
        let profile = await server.fetchProfile()
        name = profile.name
        followers = profile.followers
    }
}

/// Stands in for the network: an actor, so the fetch runs off the main actor.
actor ProfileServer {
    func fetchProfile() -> (name: String, followers: Int) {
        ("Ada Lovelace", 1843)
    }
}

// MARK: The view

@MainActor
final class ProfileView: ViewModelObserver {
    @ViewModel var profile = ProfileViewModel()

    init() {
        bindViewModels()  // binds the view model and draws once, now
    }

    func updateView() {
        print("\(profile.name): \(profile.followers) followers")
    }
}

// MARK: The loop

let loop = EventLoop.main
let view = ProfileView()  // draws "Ada: 0 followers"
let server = ProfileServer()

Task { @MainActor in
    await view.profile.refresh(from: server)  // two changes after the await...
    view.profile.follow()  // ...and a third in the same iteration: one draw for the three
    loop.stop()  // run() returns after this iteration's draw
}
try loop.run()
