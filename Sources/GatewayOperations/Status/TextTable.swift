/// Rows of cells printed as aligned columns (two spaces apart, no trailing blanks), the layout
/// of every human table `status` and `doctor` print.
struct TextTable {
    private var rows: [[String]] = []

    /// A table starting with `header` (empty for none).
    init(header: [String] = []) {
        if !header.isEmpty { rows.append(header) }
    }

    /// Adds a row.
    mutating func add(_ cells: [String]) {
        rows.append(cells)
    }

    /// The lines, each column padded to its widest cell.
    var lines: [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0 ..< columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                line += column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}
