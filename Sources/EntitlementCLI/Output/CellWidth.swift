
/// How many terminal cells text takes, as `wcwidth(3)` counts them, so tables of CJK
/// and emoji align: East Asian Wide and Fullwidth characters and emoji take 2 cells,
/// combining marks, joiners and variation selectors 0, everything else 1.
enum CellWidth {
    /// Ranges of scalars that take two cells (East Asian Wide and Fullwidth, emoji), sorted.
    static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF,
        0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF,
        0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// Ranges of scalars that take no cell: joiners, variation selectors, and marks that
    /// combine with the character before (besides every scalar of category Mn, Me or Cf).
    static let zero: [ClosedRange<UInt32>] = [
        0x0300...0x036F, 0x1160...0x11FF, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0xFE00...0xFE0F,
        0xFEFF...0xFEFF, 0xE0001...0xE0001, 0xE0020...0xE007F, 0xE0100...0xE01EF,
    ]

    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        if contains(zero, value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        return contains(wide, value) ? 2 : 1
    }

    /// The cells `text` takes; text from data is escaped before it is measured.
    static func of<S: StringProtocol>(_ text: S) -> Int {
        var width = 0
        for scalar in text.unicodeScalars { width += of(scalar) }
        return width
    }

    /// The longest start of `text` that takes at most `cells` cells (whole characters only).
    static func prefix(_ text: String, cells: Int) -> String {
        var out = ""
        var used = 0
        for character in text {
            let width = of(String(character))
            guard used + width <= cells else { break }
            out.append(character)
            used += width
        }
        return out
    }

    /// Binary search in sorted, disjoint ranges.
    private static func contains(_ ranges: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if value < ranges[middle].lowerBound { high = middle - 1 } else if value > ranges[middle].upperBound { low = middle + 1 } else { return true }
        }
        return false
    }
}
