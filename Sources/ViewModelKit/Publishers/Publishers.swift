/// Namespace for the publisher types that operators return, as Combine's `Publishers`.
public enum Publishers {}
