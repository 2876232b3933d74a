import Foundation

/// `loop-bench --compare-cmo USER.json CMO.json`: the row that holds the no-flag
/// build (a user's package, `Benchmarks/`) against the `LOOPMVVM_CMO=1` build. The two JSONs come
/// from two processes that may have seen different load, so each side is first taken against its
/// own closure baseline, measured in turn with it; the row is the ratio of those two ratios.
/// `make bench` prints it after both runs. Instruction counts, which no load moves, come from
/// `Scripts/callgrind-chain.sh`.
enum CMOComparison {
    static let chainPrefix = "5 subject→map→filter→removeDuplicates→sink"
    static let target = 1.2

    static func run(userPath: String, cmoPath: String) -> [Row] {
        guard let user = chainRow(in: userPath), let cmo = chainRow(in: cmoPath) else { return [] }
        let userRatio = user.value / user.baseline
        let cmoRatio = cmo.value / cmo.baseline
        let excess = userRatio / cmoRatio
        return [
            Row(
                name: "5 chain, no flag vs LOOPMVVM_CMO=1", unit: "x own baseline", better: .lower,
                value: Stats(samples: [userRatio]),
                baselineName: "LOOPMVVM_CMO=1 build", baseline: Stats(samples: [cmoRatio]),
                target: String(format: "<= %.1fx", target), met: excess <= target,
                note: String(
                    format: "no flag %.1f ns/value (closures %.1f), CMO %.1f ns/value (closures %.1f)",
                    user.value, user.baseline, cmo.value, cmo.baseline))
        ]
    }

    /// The chain row's median and its baseline's, from a `--json` file; nil (with a message) if
    /// the file or the row is missing.
    private static func chainRow(in path: String) -> (value: Double, baseline: Double)? {
        guard let data = FileManager.default.contents(atPath: path),
            let rows = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]]
        else {
            FileHandle.standardError.write(Data("loop-bench: cannot read rows from \(path)\n".utf8))
            return nil
        }
        guard let row = rows.first(where: { ($0["name"] as? String)?.hasPrefix(chainPrefix) == true }),
            let value = row["value"] as? Double, let baseline = row["baseline"] as? Double, baseline > 0
        else {
            FileHandle.standardError.write(Data("loop-bench: no chain row with a baseline in \(path)\n".utf8))
            return nil
        }
        return (value, baseline)
    }
}
