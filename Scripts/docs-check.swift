// docs-check: the two checks `make docs` adds to docc's own (docc, with --warnings-as-errors,
// already fails on broken symbol links and malformed doc comments):
//
// 1. Every public declaration of the documented modules has a doc comment of its own. Reads the
//    symbol graphs of `swift package dump-symbol-graph --skip-synthesized-members
//    --skip-inherited-docs` (public symbols only), so a declaration that only inherits its
//    protocol requirement's comment counts as undocumented. docc itself reports coverage only as
//    statistics, and counts members inherited from the standard library.
// 2. Every `swift` or `c` code block of every article appears, line for line, in a file the build
//    compiles (Examples/, Tests/), so the articles cannot rot. Lines are compared without their
//    indentation and blank lines are skipped, so a block may sit inside a test function.
//
// Usage: swift Scripts/docs-check.swift SYMBOL_GRAPH_DIR MODULE...
// Run from the package root. Prints one `path:line: error: ...` per problem and exits 1 if any.
// `make docs` first runs it on docs-check-fixture/ (an undocumented symbol, a symbol with only an
// inherited comment, an article block found nowhere) and compares its report with the expected one.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let graphDirectory = arguments.first, arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: docs-check SYMBOL_GRAPH_DIR MODULE...\n".utf8))
    exit(2)
}
let modules = Array(arguments.dropFirst())
let root = FileManager.default.currentDirectoryPath
var problems: [String] = []

func relative(_ uri: String) -> String {
    let path = uri.hasPrefix("file://") ? String(uri.dropFirst("file://".count)) : uri
    return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
}

func files(under directory: String, endingWith suffixes: [String]) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
    return walker.compactMap { $0 as? String }
        .filter { name in suffixes.contains { name.hasSuffix($0) } }
        .map { directory + "/" + $0 }
        .sorted()
}

// MARK: 1. Doc comments

for module in modules {
    let graphs = ((try? FileManager.default.contentsOfDirectory(atPath: graphDirectory)) ?? [])
        .filter { $0 == "\(module).symbols.json" || $0.hasPrefix("\(module)@") }
        .sorted()
    guard graphs.contains("\(module).symbols.json") else {
        problems.append("\(graphDirectory): error: no symbol graph for \(module)")
        continue
    }
    var checked = 0
    for graph in graphs {
        let url = URL(fileURLWithPath: graphDirectory + "/" + graph)
        guard let data = try? Data(contentsOf: url),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let symbols = json["symbols"] as? [[String: Any]]
        else {
            problems.append("\(url.path): error: not a symbol graph")
            continue
        }
        for symbol in symbols {
            let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?"
            guard kind != "swift.extension",
                let location = symbol["location"] as? [String: Any],
                let uri = location["uri"] as? String,
                uri.contains("/Sources/\(module)/")
            else { continue }
            checked += 1
            let comment = symbol["docComment"] as? [String: Any]
            let lines = (comment?["lines"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
            let own = (comment?["module"] as? String).map { $0 == module } ?? true
            if own && lines.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            let line = ((location["position"] as? [String: Any])?["line"] as? Int ?? 0) + 1
            let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
            let access = symbol["accessLevel"] as? String ?? "public"
            problems.append(
                "\(relative(uri)):\(line): error: \(access) \(kind.replacingOccurrences(of: "swift.", with: "")) "
                    + "\(path) has no doc comment of its own")
        }
    }
    // A symbol graph format change must not make the check pass by finding nothing.
    if checked == 0 { problems.append("\(graphDirectory): error: no located public symbols of \(module)") }
    print("docs-check: \(module): \(checked) public declarations checked for doc comments")
}

// MARK: 2. Article code

let examples = files(under: "Examples", endingWith: [".swift", ".c", ".h"])
let compiled = (examples + files(under: "Tests", endingWith: [".swift"]))
    .map { path -> (path: String, lines: [String]) in
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return (path, normalised(text.components(separatedBy: "\n")))
    }

func normalised(_ lines: [String]) -> [String] {
    lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

func contains(_ haystack: [String], _ needle: [String]) -> Bool {
    guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
        if Array(haystack[start..<(start + needle.count)]) == needle { return true }
    }
    return false
}

var blockCount = 0
for module in modules {
    for article in files(under: "Sources/\(module)/\(module).docc", endingWith: [".md"]) {
        let lines = ((try? String(contentsOfFile: article, encoding: .utf8)) ?? "").components(separatedBy: "\n")
        var index = 0
        while index < lines.count {
            let fence = lines[index].trimmingCharacters(in: .whitespaces)
            guard fence.hasPrefix("```") else {
                index += 1
                continue
            }
            let language = fence.dropFirst(3).trimmingCharacters(in: .whitespaces)
            let start = index + 1
            var end = start
            while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("```") { end += 1 }
            index = end + 1
            guard language == "swift" || language == "c" else { continue }
            blockCount += 1
            let block = normalised(Array(lines[start..<min(end, lines.count)]))
            if !compiled.contains(where: { contains($0.lines, block) }) {
                problems.append(
                    "\(article):\(start): error: this \(language) block appears in no compiled file under "
                        + "Examples/ or Tests/ (copy it there, line for line, so the build checks it)")
            }
        }
    }
}
print("docs-check: \(blockCount) article code blocks checked against Examples/ and Tests/")

// The README's whole programs (its Swift blocks that start with an import) are held to the same
// rule; its manifest fragments are run by `make test-readme` instead. A folder without a
// README (the fixture) checks none.
if let readme = try? String(contentsOfFile: "README.md", encoding: .utf8) {
    let lines = readme.components(separatedBy: "\n")
    var index = 0
    var programs = 0
    while index < lines.count {
        guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else {
            index += 1
            continue
        }
        let start = index + 1
        var end = start
        while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("```") { end += 1 }
        index = end + 1
        let block = normalised(Array(lines[start..<min(end, lines.count)]))
        guard block.first?.hasPrefix("import ") == true else { continue }
        programs += 1
        if !compiled.contains(where: { contains($0.lines, block) }) {
            problems.append(
                "README.md:\(start): error: this swift program appears in no compiled file under Examples/ or Tests/ "
                    + "(copy it there, line for line, so the build checks it)")
        }
    }
    print("docs-check: \(programs) README programs checked against Examples/ and Tests/")
}

for problem in problems { print(problem) }
exit(problems.isEmpty ? 0 : 1)
