// Placeholder until the parser lands.
enum PodcastKitPlaceholder {}
