import FoundationEssentials

/// A byte range of a file of under 4 GiB, or none, in 8 bytes (a `Range<Int>?` takes 24):
/// `CheckTransaction` keeps eight, and `status --json` holds 10,000 transactions at once.
struct ByteSpan {
    private var start: UInt32
    /// `UInt32.max` when there is no range.
    private var count: UInt32

    /// The largest file whose ranges fit (`CheckProfileScanner` gives up on larger ones).
    static let maximumFile = Int(UInt32.max - 1)

    @inline(__always)
    init(_ range: Range<Int>?) {
        guard let range else {
            start = 0
            count = .max
            return
        }
        start = UInt32(truncatingIfNeeded: range.lowerBound)
        count = UInt32(truncatingIfNeeded: range.count)
    }

    @inline(__always)
    var range: Range<Int>? { count == .max ? nil : Int(start)..<(Int(start) + Int(count)) }

    /// The range of a span made from one.
    @inline(__always)
    var present: Range<Int> { Int(start)..<(Int(start) + Int(count)) }
}

/// A date, or none, in 8 bytes (a `Date?` takes 16): none is NaN, which no parsed date is.
struct StoredDate {
    private var seconds: Double

    @inline(__always)
    init(_ date: Date?) { seconds = date?.timeIntervalSinceReferenceDate ?? .nan }

    @inline(__always)
    var date: Date? { seconds.isNaN ? nil : Date(timeIntervalSinceReferenceDate: seconds) }
}

/// Whether and when a transaction was superseded, in 8 bytes (a `Date??` takes 16): nil when
/// not (+∞), `.some(nil)` when marked upgraded with the replacing transaction unknown (−∞).
struct StoredSupersession {
    private var seconds: Double

    @inline(__always)
    init(_ value: Date??) {
        switch value {
        case .none: seconds = .infinity
        case .some(.none): seconds = -.infinity
        case .some(.some(let date)): seconds = date.timeIntervalSinceReferenceDate
        }
    }

    @inline(__always)
    var value: Date?? {
        if seconds == .infinity { return .none }
        if seconds == -.infinity { return .some(nil) }
        return .some(Date(timeIntervalSinceReferenceDate: seconds))
    }
}
