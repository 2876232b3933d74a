/// `Record.Recording` as Combine archives it: its values under `output` and its completion under
/// `completion` (`{"success": true}` for `.finished`, `{"success": false, "error": …}` for a
/// failure). Decoding a completion that says failure without an error throws `DecodingError`.
extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case output, completion
    }

    private enum CompletionKeys: String, CodingKey {
        case success, error
    }

    /// Decodes a recording of values and completion.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let output = try container.decode([Output].self, forKey: .output)
        let end = try container.nestedContainer(keyedBy: CompletionKeys.self, forKey: .completion)
        if try end.decode(Bool.self, forKey: .success) {
            self.init(output: output, completion: .finished)
        } else {
            self.init(output: output, completion: .failure(try end.decode(Failure.self, forKey: .error)))
        }
    }

    /// Encodes the values and the completion.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        var end = container.nestedContainer(keyedBy: CompletionKeys.self, forKey: .completion)
        switch completion {
        case .finished:
            try end.encode(true, forKey: .success)
        case .failure(let error):
            try end.encode(false, forKey: .success)
            try end.encode(error, forKey: .error)
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
