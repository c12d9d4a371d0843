import PetCore

/// A small bar chart of the pet over days (`history`, `simulate`): one row per stage (or per
/// group of stages, named by its first, when more than ten were crossed), one column per day (or per run of days when they do
/// not fit), each bar as high as the stage plus its progress, in eighth blocks.
enum StageChart {
    static let blocks = Array("▁▂▃▄▅▆▇█")

    /// The chart's lines: rows labelled with stage names, then an axis line with `left` under
    /// the first column and `right` under the last. A nil point (the pet unknown) draws no bar.
    static func lines(
        _ points: [PetState?], stages: StageTable, width: Int, left: String, right: String, maxRows: Int = 10
    ) -> [String] {
        let positions = points.map { $0.map { position($0, stages) } }
        let known = positions.compactMap { $0 }
        guard let low = known.min(), let high = known.max() else { return [] }
        let lo = Int(low)
        let span = Int(high) - lo + 1
        let perRow = (span + maxRows - 1) / maxRows
        let rows = (span + perRow - 1) / perRow
        let labels = (0..<rows).map { trc("pet form", dynamic: stages.stage(lo + $0 * perRow).name) }
        let labelWidth = min(labels.map(TextWidth.columns).max() ?? 0, width >= 60 ? 14 : 9)
        let columns = fit(positions, into: max(1, width - labelWidth - 1))

        var lines: [String] = []
        for r in (0..<rows).reversed() {
            let bottom = Double(lo + r * perRow)
            let bars = columns.map { p in p.map { bar($0, from: bottom, height: Double(perRow)) } ?? " " }
            let text = TextWidth.pad(TextWidth.truncate(labels[r], to: labelWidth), to: labelWidth) + " " + String(bars)
            lines.append(text.trimmingTrailingSpaces)
        }
        let gap = columns.count - TextWidth.columns(left) - TextWidth.columns(right)
        let axis = gap >= 1 ? left + String(repeating: " ", count: gap) + right : left
        lines.append(String(repeating: " ", count: labelWidth + 1) + axis)
        if perRow > 1 { lines.append(tr("(each row: %d stages, named by the first)", perRow)) }
        return lines
    }

    /// The stage index plus the progress through it (the final stage reads as full).
    static func position(_ pet: PetState, _ stages: StageTable) -> Double {
        let state = stages.clamp(pet)
        let progress = min(PetView.progress(of: state, stages: stages), 0.999)
        return Double(state.stageIndex) + progress
    }

    /// The points spread over at most `width` columns: each point repeated (up to three times)
    /// when there is room, else runs of points drawn by their last known one.
    static func fit(_ points: [Double?], into width: Int) -> [Double?] {
        guard points.count > width else {
            let repeats = min(3, width / max(1, points.count))
            return points.flatMap { Array(repeating: $0, count: repeats) }
        }
        return (0..<width).map { c in
            let run = points[(c * points.count / width)..<((c + 1) * points.count / width)]
            return run.last { $0 != nil } ?? nil
        }
    }

    /// One column's character in the row starting at `bottom`, `height` stages tall.
    static func bar(_ position: Double, from bottom: Double, height: Double) -> Character {
        if position >= bottom + height { return "█" }
        guard position >= bottom else { return " " }
        return blocks[min(7, Int((position - bottom) / height * 8))]
    }
}

extension String {
    /// Without trailing spaces.
    var trimmingTrailingSpaces: String { String(reversed().drop(while: { $0 == " " }).reversed()) }
}
