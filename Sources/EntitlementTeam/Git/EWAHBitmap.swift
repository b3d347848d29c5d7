/// The compressed bitmaps of git's split index (`link` extension): which shared entries the
/// small file deletes and which it replaces, as git serializes them (git's ewah/ewah_io.c).
///
/// A bitmap is its size in bits (32 bits), its count of 64-bit words (32 bits), the words, and
/// the position of its last run-length word (32 bits), all big-endian. Each run-length word
/// holds a bit (bit 0), a count of words all of that bit (bits 1–32) and a count of literal
/// words that follow it (bits 33–63); bit `c` of a literal word is position `64 * word + c`.
enum EWAHBitmap {
    /// The set positions, ascending, and the bytes the bitmap took; nil when `bytes` at
    /// `offset` is not a whole bitmap.
    static func decode(_ bytes: [UInt8], at offset: Int) -> (positions: [Int], length: Int)? {
        guard offset + 8 <= bytes.count else { return nil }
        let wordCount = Int(SplitIndexFile.be32(bytes, offset + 4))
        let length = 8 + wordCount * 8 + 4
        guard wordCount <= (bytes.count - offset) / 8, offset + length <= bytes.count else { return nil }
        var positions: [Int] = []
        var position = 0, pointer = 0
        func word(_ index: Int) -> UInt64 {
            let start = offset + 8 + index * 8
            return bytes[start..<(start + 8)].reduce(0) { $0 << 8 | UInt64($1) }
        }
        while pointer < wordCount {
            let marker = word(pointer)
            let running = Int((marker >> 1) & 0xFFFF_FFFF) * 64, literals = Int(marker >> 33)
            guard pointer + literals < wordCount else { return nil }
            if marker & 1 != 0 { positions += position..<(position + running) }
            position += running
            pointer += 1
            for _ in 0..<literals {
                var bits = word(pointer)
                while bits != 0 {
                    positions.append(position + bits.trailingZeroBitCount)
                    bits &= bits - 1
                }
                position += 64
                pointer += 1
            }
        }
        return (positions, length)
    }

    /// The bitmap of `positions` (ascending, distinct), word for word as git's `ewah_set`
    /// builds it bit by bit: empty words counted in a run-length word, a literal word per word
    /// with a bit set, and a literal word that fills up turned into a run of full words.
    static func encode(_ positions: [Int]) -> [UInt8] {
        var writer = Writer()
        for position in positions { writer.set(position) }
        var out: [UInt8] = []
        out.reserveCapacity(12 + writer.words.count * 8)
        SplitIndexFile.append32(UInt32(writer.bitSize), to: &out)
        SplitIndexFile.append32(UInt32(writer.words.count), to: &out)
        for word in writer.words {
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        SplitIndexFile.append32(UInt32(writer.marker), to: &out)
        return out
    }

    /// Git's bitmap writer (ewah/ewah_bitmap.c), for bits set in ascending order.
    private struct Writer {
        var words: [UInt64] = [0]
        /// The index of the last run-length word.
        var marker = 0
        var bitSize = 0

        private static let largestRun: UInt64 = 0xFFFF_FFFF
        private var run: UInt64 { (words[marker] >> 1) & Self.largestRun }
        private var literals: UInt64 { words[marker] >> 33 }
        private var runBit: Bool { words[marker] & 1 != 0 }

        private mutating func setRun(_ length: UInt64) { words[marker] = words[marker] & ~(Self.largestRun << 1) | length << 1 }
        private mutating func setLiterals(_ count: UInt64) { words[marker] = words[marker] & 0x1_FFFF_FFFF | count << 33 }
        private mutating func setRunBit(_ bit: Bool) { words[marker] = words[marker] & ~1 | (bit ? 1 : 0) }

        private mutating func pushMarker() {
            words.append(0)
            marker = words.count - 1
        }

        mutating func set(_ position: Int) {
            let distance = (position + 64) / 64 - (bitSize + 63) / 64
            bitSize = position + 1
            let bit = UInt64(1) << UInt64(position % 64)
            if distance > 0 {
                if distance > 1 { addEmptyWords(UInt64(distance - 1)) }
                addLiteral(bit)
                return
            }
            if literals == 0 {
                setRun(run - 1)
                addLiteral(bit)
                return
            }
            words[words.count - 1] |= bit
            if words[words.count - 1] == ~0 {
                words.removeLast()
                setLiterals(literals - 1)
                addFullWord()
            }
        }

        /// `add_empty_words(self, 0, count)`.
        private mutating func addEmptyWords(_ count: UInt64) {
            if runBit, run + literals == 0 {
                setRunBit(false)
            } else if literals != 0 || runBit {
                pushMarker()
            }
            var left = count
            let added = min(left, Self.largestRun - run)
            setRun(run + added)
            left -= added
            while left > 0 {
                pushMarker()
                let next = min(left, Self.largestRun)
                setRun(next)
                left -= next
            }
        }

        /// `add_empty_word(self, 1)`.
        private mutating func addFullWord() {
            if literals == 0, run == 0 { setRunBit(true) }
            if literals == 0, runBit, run < Self.largestRun {
                setRun(run + 1)
            } else {
                pushMarker()
                setRunBit(true)
                setRun(1)
            }
        }

        /// `add_literal`.
        private mutating func addLiteral(_ word: UInt64) {
            if literals >= 0x7FFF_FFFF {
                pushMarker()
                setLiterals(1)
            } else {
                setLiterals(literals + 1)
            }
            words.append(word)
        }
    }
}
