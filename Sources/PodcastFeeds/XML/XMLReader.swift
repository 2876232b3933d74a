import CLibxml2
import Foundation

/// The receiving side of `XMLReader`: one subclass per document kind (feeds, OPML). Methods are
/// called synchronously on the parsing thread, in document order.
class XMLReaderHandler {
    /// The libxml2 context while a parse runs; lets a handler stop the parse early.
    fileprivate(set) var parserContext: xmlParserCtxtPtr?

    func startElement(_ element: XMLStartElement) {}
    func endElement() {}
    /// Character data (text or CDATA), UTF-8, not NUL-terminated, valid only during the call.
    func characters(_ bytes: UnsafePointer<UInt8>, _ count: Int) {}

    /// Stops the parse after the current callback (libxml2 `xmlStopParser`).
    final func stopParsing() {
        if let parserContext { xmlStopParser(parserContext) }
    }
}

/// An element start as libxml2's SAX2 `startElementNs` reports it. The pointers are valid only
/// during the callback; `localname`, `prefix` and `uri` are interned in the parser's dictionary,
/// so within one parse equal names have equal pointers.
struct XMLStartElement {
    let localname: UnsafePointer<UInt8>
    let prefix: UnsafePointer<UInt8>?
    let uri: UnsafePointer<UInt8>?
    let attributeCount: Int
    /// Five pointers per attribute: localname, prefix, URI, value start, value end.
    let attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?

    /// The value of the attribute with this local name (any namespace), entity-decoded.
    func attribute(_ name: StaticString) -> String? {
        guard let attributes else { return nil }
        for index in 0..<attributeCount {
            let base = index * 5
            guard let local = attributes[base], strcmp(local, name.utf8Start) == 0 else { continue }
            return Self.value(attributes[base + 3], attributes[base + 4])
        }
        return nil
    }

    /// Whether the attribute with this local name (any namespace), ASCII-trimmed and lower-cased,
    /// is `word` (lower-case ASCII); `nil` when the element has no such attribute. Makes no String.
    func attribute(_ name: StaticString, isLowercased word: StaticString) -> Bool? {
        guard let attributes else { return nil }
        for index in 0..<attributeCount {
            let base = index * 5
            guard let local = attributes[base], strcmp(local, name.utf8Start) == 0 else { continue }
            guard let start = attributes[base + 3], let end = attributes[base + 4], end > start else {
                return word.utf8CodeUnitCount == 0
            }
            let all = UnsafeBufferPointer(start: start, count: end - start)
            // Non-ASCII never lower-cases to one of our ASCII keywords; `&` cannot match either.
            guard let trimmed = ASCIIBytes.trimmedIfASCII(all) else { return false }
            return ASCIIBytes.equalsLowercased(trimmed, word)
        }
        return nil
    }

    /// The `xml:base` attribute, if present.
    var xmlBase: String? { xmlAttribute("base") }

    /// The `xml:lang` attribute, if present.
    var xmlLang: String? { xmlAttribute("lang") }

    /// Compares bytes, not via `strcmp`: it runs for every attribute of every element (for
    /// `xml:base`), and almost every attribute has no prefix at all.
    @inline(__always)
    private func xmlAttribute(_ name: StaticString) -> String? {
        guard attributeCount > 0, let attributes else { return nil }
        for index in 0..<attributeCount {
            let base = index * 5
            guard let prefix = attributes[base + 1], prefix[0] == UInt8(ascii: "x"), prefix[1] == UInt8(ascii: "m"),
                prefix[2] == UInt8(ascii: "l"), prefix[3] == 0, let local = attributes[base],
                strcmp(local, name.utf8Start) == 0
            else { continue }
            return Self.value(attributes[base + 3], attributes[base + 4])
        }
        return nil
    }

    /// The value of the attribute with this local name in namespace `namespace` (its URI), entity-decoded.
    func attribute(_ name: StaticString, namespace: String) -> String? {
        guard let attributes else { return nil }
        for index in 0..<attributeCount {
            let base = index * 5
            guard let local = attributes[base], strcmp(local, name.utf8Start) == 0,
                let uri = attributes[base + 2], String(cString: uri) == namespace
            else { continue }
            return Self.value(attributes[base + 3], attributes[base + 4])
        }
        return nil
    }

    /// Every attribute as (qualified name, value), for re-serialising markup.
    var allAttributes: [(String, String)] {
        guard let attributes else { return [] }
        return (0..<attributeCount).map { index in
            let base = index * 5
            var name = String(cString: attributes[base]!)
            if let prefix = attributes[base + 1] { name = String(cString: prefix) + ":" + name }
            return (name, Self.value(attributes[base + 3], attributes[base + 4]))
        }
    }

    private static func value(_ start: UnsafePointer<xmlChar>?, _ end: UnsafePointer<xmlChar>?) -> String {
        guard let start, let end, end > start else { return "" }
        let buffer = UnsafeBufferPointer(start: start, count: end - start)
        let text = String(decoding: buffer, as: UTF8.self)
        // Without XML_PARSE_NOENT libxml2 hands `&` in attribute values over as `&#38;`.
        return buffer.contains(UInt8(ascii: "&")) ? text.replacingOccurrences(of: "&#38;", with: "&") : text
    }
}

/// Runs libxml2's SAX2 parser over a UTF-8 document in recover mode with no network access, no
/// DTD loading and no entity substitution (`XML_PARSE_RECOVER | XML_PARSE_NONET |
/// XML_PARSE_IGNORE_ENC`), delivering events to a handler. The handler pointer travels as
/// libxml2's `userData` (an unretained `Unmanaged` reference that lives for the call).
///
/// Two guards keep a hostile document from holding the calling thread:
/// - Before libxml2 sees a byte, `StartTagLimit` measures exactly these bytes (the decoded text,
///   not what came over the wire): a document whose start tags would cost libxml2 quadratic
///   time where no callback can stop it is refused (`Outcome.refused`) and never parsed.
/// - libxml2 reads the document through a callback, a few KiB at a time, and each read first
///   checks the `ParseCancellation`: once it is cancelled libxml2 gets end of input, so a
///   stretch with no SAX event (a huge comment, a long start tag) still stops within one read.
///   The SAX callbacks check it too, and stop libxml2 (`xmlStopParser`) at the next event.
enum XMLReader {
    struct Outcome {
        /// libxml2 reported no error (warnings allowed).
        var wellFormed: Bool
        /// libxml2's errors and warnings, `line N: message`, capped.
        var messages: [String]
        /// The parse was stopped by `ParseCancellation` before the end of the document.
        var stopped = false
        /// The document was not parsed at all: its start tags are out of proportion
        /// (`StartTagLimit`).
        var refused: DocumentRefused?
        /// Bytes of the document libxml2 read (all of them unless stopped or refused).
        var bytesRead = 0
    }

    private static let initialize: Void = { xmlInitParser() }()

    /// True when the document holds nothing but whitespace, an XML declaration, comments,
    /// processing instructions and a DOCTYPE: an empty document rather than a broken one.
    static func hasOnlyProlog(_ b: [UInt8]) -> Bool {
        var i = 0
        func skip(past terminator: [UInt8]) {
            while i < b.count {
                if b[i] == terminator[0], b.count - i >= terminator.count,
                    Array(b[i..<(i + terminator.count)]) == terminator
                {
                    i += terminator.count
                    return
                }
                i += 1
            }
        }
        while i < b.count {
            if isASCIISpace(b[i]) {
                i += 1
            } else if b[i...].starts(with: "<?".utf8) {
                skip(past: Array("?>".utf8))
            } else if b[i...].starts(with: "<!--".utf8) {
                skip(past: Array("-->".utf8))
            } else if b[i...].starts(with: "<!DOCTYPE".utf8) {
                skip(past: Array(">".utf8))
            } else {
                return false
            }
        }
        return true
    }
    static let maximumMessages = 40

    /// Parses `utf8` (no BOM, already UTF-8). Any thread; one handler per call. Stops at the
    /// next SAX event or input read once `cancellation` (by default the task-local
    /// `ParseCancellation.current`) is cancelled, with `Outcome.stopped` set. A document
    /// `StartTagLimit.check` refuses is not parsed: `Outcome.refused` says why.
    static func parse(
        _ utf8: [UInt8], handler: XMLReaderHandler, cancellation: ParseCancellation? = ParseCancellation.current
    ) -> Outcome {
        _ = initialize
        let session = Session(handler: handler, cancellation: cancellation)
        guard utf8.count < Int(Int32.max) else {
            return Outcome(wellFormed: false, messages: ["document larger than 2 GiB"])
        }
        do {
            try StartTagLimit.check(utf8)
        } catch {
            return Outcome(wellFormed: false, messages: [], refused: error)
        }
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        if cancellation == nil {
            installEventCallbacks(&sax)
        } else {
            installStoppableEventCallbacks(&sax)
        }
        sax.serror = { context, error in
            guard let context, let error else { return }
            Unmanaged<Session>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.record(error.pointee) }
        }

        return utf8.withUnsafeBufferPointer { buffer -> Outcome in
            session.input = UnsafeRawBufferPointer(buffer)
            defer { session.input = UnsafeRawBufferPointer(start: nil, count: 0) }
            let unmanaged = Unmanaged.passRetained(session)
            defer { unmanaged.release() }
            // libxml2 pulls the bytes through `read` (no copy of the whole document up front,
            // and a point between any two reads where a cancelled parse ends); the parser is
            // the same pull parser as over memory, so messages and recovery are unchanged.
            let context = xmlCreateIOParserCtxt(
                &sax, unmanaged.toOpaque(), XMLReader.read, nil, unmanaged.toOpaque(), XML_CHAR_ENCODING_NONE)
            guard let context else {
                return Outcome(wellFormed: false, messages: ["libxml2 could not create a parser"])
            }
            defer { xmlFreeParserCtxt(context) }
            session.context = context
            let options = Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue)
            xmlCtxtUseOptions(context, options)
            handler.parserContext = context
            defer { handler.parserContext = nil }
            xmlParseDocument(context)
            let wellFormed = context.pointee.wellFormed != 0 && context.pointee.nsWellFormed != 0 && !session.sawError
            return Outcome(
                wellFormed: wellFormed, messages: session.messages, stopped: session.stopped,
                bytesRead: session.offset)
        }
    }

    /// libxml2's input callback: the next bytes of the session's document, or end of input once
    /// its cancellation is set (the parse is then reported as stopped).
    private static let read: xmlInputReadCallback = { context, destination, length in
        guard let context, let destination, length > 0 else { return 0 }
        return Unmanaged<Session>.fromOpaque(context)._withUnsafeGuaranteedRef { session in
            if let cancellation = session.cancellation, cancellation.isCancelled {
                session.stopped = true
                return 0
            }
            let count = min(Int(length), session.input.count - session.offset)
            guard count > 0, let base = session.input.baseAddress else { return 0 }
            UnsafeMutableRawPointer(destination).copyMemory(from: base + session.offset, byteCount: count)
            session.offset += count
            return Int32(count)
        }
    }

    /// The SAX callbacks of a parse nobody can stop: straight to the handler. Kept apart from
    /// the stoppable set so the common case (no `ParseCancellation` bound, as in `loop-bench`
    /// and the tests) pays no per-event check.
    private static func installEventCallbacks(_ sax: inout xmlSAXHandler) {
        sax.startElementNs = { context, localname, prefix, uri, _, _, attributeCount, _, attributes in
            guard let context, let localname else { return }
            let element = XMLStartElement(
                localname: localname, prefix: prefix, uri: uri, attributeCount: Int(attributeCount),
                attributes: attributes)
            Unmanaged<Session>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.handler.startElement(element) }
        }
        sax.endElementNs = { context, _, _, _ in
            guard let context else { return }
            Unmanaged<Session>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.handler.endElement() }
        }
        let characters: charactersSAXFunc = { context, bytes, length in
            guard let context, let bytes, length > 0 else { return }
            Unmanaged<Session>.fromOpaque(context)._withUnsafeGuaranteedRef {
                $0.handler.characters(bytes, Int(length))
            }
        }
        sax.characters = characters
        sax.cdataBlock = characters
        sax.ignorableWhitespace = characters
    }

    /// The SAX callbacks of a parse with a `ParseCancellation`: each event first asks
    /// `Session.goesOn()`, which stops libxml2 once the token is cancelled.
    private static func installStoppableEventCallbacks(_ sax: inout xmlSAXHandler) {
        sax.startElementNs = { context, localname, prefix, uri, _, _, attributeCount, _, attributes in
            guard let context, let localname else { return }
            let element = XMLStartElement(
                localname: localname, prefix: prefix, uri: uri, attributeCount: Int(attributeCount),
                attributes: attributes)
            Unmanaged<Session>.fromOpaque(context)._withUnsafeGuaranteedRef {
                if $0.goesOn() { $0.handler.startElement(element) }
            }
        }
        sax.endElementNs = { context, _, _, _ in
            guard let context else { return }
            Unmanaged<Session>.fromOpaque(context)._withUnsafeGuaranteedRef {
                if $0.goesOn() { $0.handler.endElement() }
            }
        }
        let characters: charactersSAXFunc = { context, bytes, length in
            guard let context, let bytes, length > 0 else { return }
            Unmanaged<Session>.fromOpaque(context)._withUnsafeGuaranteedRef {
                if $0.goesOn() { $0.handler.characters(bytes, Int(length)) }
            }
        }
        sax.characters = characters
        sax.cdataBlock = characters
        sax.ignorableWhitespace = characters
    }

    private final class Session {
        let handler: XMLReaderHandler
        var messages: [String] = []
        var sawError = false
        var dropped = 0
        let cancellation: ParseCancellation?
        var context: xmlParserCtxtPtr?
        var stopped = false
        /// The document libxml2 reads through `XMLReader.read`, valid during the parse.
        var input = UnsafeRawBufferPointer(start: nil, count: 0)
        /// Bytes of `input` handed to libxml2 so far.
        var offset = 0

        init(handler: XMLReaderHandler, cancellation: ParseCancellation?) {
            self.handler = handler
            self.cancellation = cancellation
        }

        /// False once the parse is stopped: the first event after a cancellation stops libxml2
        /// (`xmlStopParser`, which ends `xmlParseDocument` at its next check) and no handler
        /// call is made from then on.
        @inline(__always) func goesOn() -> Bool {
            guard let cancellation else { return true }
            if stopped { return false }
            guard cancellation.isCancelled else { return true }
            stopped = true
            if let context { xmlStopParser(context) }
            return false
        }

        func record(_ error: xmlError) {
            if error.level.rawValue >= XML_ERR_ERROR.rawValue { sawError = true }
            guard messages.count < XMLReader.maximumMessages else {
                dropped += 1
                if dropped == 1 { messages.append("more XML errors follow (not listed)") }
                return
            }
            let text =
                error.message.map { String(cString: $0) }?.trimmedASCII
                ?? "XML error \(error.code)"
            let kind = error.level.rawValue >= XML_ERR_ERROR.rawValue ? "XML error" : "XML warning"
            messages.append("\(kind) at line \(error.line): \(text)")
        }
    }
}
