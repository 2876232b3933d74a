/// `Record.Recording` as Combine archives it: its values under `output` and its completion under
/// `completion` (`{"success": true}` for `.finished`, `{"success": false, "error": …}` for a
/// failure). Decoding a completion that says failure without an error throws `DecodingError`.
extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case output, completion
    }

    /// Decodes a recording of values and completion.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let output = try container.decode([Output].self, forKey: .output)
        let completion = try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion)
        self.init(output: output, completion: completion)
    }

    /// Encodes the values and the completion.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }

    /// The same as `encode(to:)`, under the name Combine also gives it.
    public func encode(into encoder: Encoder) throws {
        try encode(to: encoder)
    }
}

/// `Subscribers.Completion` as Combine archives it: `{"success": true}` for `.finished`,
/// `{"success": false, "error": …}` for a failure. Decoding a failure without its error throws
/// `DecodingError`.
extension Subscribers.Completion: Encodable where Failure: Encodable {
    /// Encodes the completion.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CompletionCodingKeys.self)
        switch self {
        case .finished:
            try container.encode(true, forKey: .success)
        case .failure(let error):
            try container.encode(false, forKey: .success)
            try container.encode(error, forKey: .error)
        }
    }
}

extension Subscribers.Completion: Decodable where Failure: Decodable {
    /// Decodes a completion.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CompletionCodingKeys.self)
        if try container.decode(Bool.self, forKey: .success) {
            self = .finished
        } else {
            self = .failure(try container.decode(Failure.self, forKey: .error))
        }
    }
}

/// `Record` as its recording, under `recording`, as Combine's `Codable` conformance.
extension Record: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case recording
    }

    /// Decodes a record.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(recording: try container.decode(Recording.self, forKey: .recording))
    }

    /// Encodes the record's recording.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recording, forKey: .recording)
    }
}

/// The keys of an archived `Subscribers.Completion`.
private enum CompletionCodingKeys: String, CodingKey {
    case success, error
}
