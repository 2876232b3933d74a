import Foundation

/// The table on standard output and the JSON file of `--json`.
enum Output {
    static func format(_ value: Double) -> String {
        if value.isNaN { return "-" }
        let magnitude = Swift.abs(value)
        if magnitude >= 1_000_000 { return String(format: "%.3g", value) }
        if magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    static func cell(_ stats: Stats?) -> String {
        guard let stats else { return "" }
        return "\(format(stats.median)) [\(format(stats.min))-\(format(stats.max))]"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func printTable(_ rows: [Row]) {
        let header = [
            "case", "unit", "ours: median [min-max]", "baseline", "baseline: median [min-max]", "ratio", "target",
        ]
        var lines: [[String]] = [header]
        for row in rows {
            let ratio = row.ratio.map { format($0) + "x" } ?? ""
            var target = row.target ?? ""
            if let met = row.met { target += met ? " (met)" : " (MISSED)" }
            lines.append([
                row.name, row.unit + (row.better == .lower ? " ↓" : " ↑"), cell(row.value),
                row.baselineName ?? "", cell(row.baseline), ratio, target,
            ])
        }
        var widths = Array(repeating: 0, count: header.count)
        for line in lines {
            for (index, text) in line.enumerated() { widths[index] = Swift.max(widths[index], text.count) }
        }
        for (number, line) in lines.enumerated() {
            print(line.enumerated().map { pad($1, widths[$0]) }.joined(separator: "  "))
            if number == 0 { print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
        let notes = rows.compactMap { row in row.note.map { "  \(row.name): \($0)" } }
        if !notes.isEmpty {
            print("notes:")
            for note in notes { print(note) }
        }
    }

    static func json(_ rows: [Row]) throws -> Data {
        func number(_ value: Double?) -> Any {
            guard let value, value.isFinite else { return NSNull() }
            return value
        }
        let objects: [[String: Any]] = rows.map { row in
            var object: [String: Any] = [
                "name": row.name, "unit": row.unit, "better": row.better.rawValue,
                "value": number(row.value.median), "min": number(row.value.min), "max": number(row.value.max),
                "runs": row.value.samples.count,
                "baseline": number(row.baseline?.median), "ratio": number(row.ratio),
            ]
            if let baseline = row.baseline {
                object["baseline_name"] = row.baselineName ?? NSNull()
                object["baseline_min"] = number(baseline.min)
                object["baseline_max"] = number(baseline.max)
            }
            if let target = row.target { object["target"] = target }
            if let met = row.met { object["target_met"] = met }
            if let note = row.note { object["note"] = note }
            return object
        }
        return try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
    }
}
