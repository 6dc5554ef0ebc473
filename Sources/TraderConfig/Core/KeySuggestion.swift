/// The nearest known word to a misspelt one, for "did you mean …?" in errors.
public enum KeySuggestion {
    /// The known word closest to `word`, if close enough to be a likely typo.
    ///
    /// Case and word breaks are ignored first (`slow_period`, `SlowPeriod` → `slowPeriod`); otherwise the word with
    /// the smallest edit distance wins when that distance is at most a third of its length (at least 2).
    /// - Parameters:
    ///   - word: what was written.
    ///   - candidates: the words allowed there.
    public static func nearest(to word: String, in candidates: [String]) -> String? {
        let folded = fold(word)
        if let same = candidates.first(where: { fold($0) == folded }) { return same }
        var best: (word: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(Array(folded), Array(fold(candidate)))
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        if let best, best.distance <= max(2, best.word.count / 3) { return best.word }
        // A shortened or run-together word (`fast` for `fastPeriod`, `maxPositons` for `maxActivePositions`): the
        // candidate holding most of its letters in order, the shortest on a tie.
        guard folded.count >= 3 else { return nil }
        var closest: (word: String, score: Double, extra: Int)?
        for candidate in candidates {
            let other = Array(fold(candidate))
            let score = Double(commonSubsequence(Array(folded), other)) / Double(folded.count)
            let extra = abs(other.count - folded.count)
            if score > closest?.score ?? 0 || (score == closest?.score && extra < closest?.extra ?? Int.max) {
                closest = (candidate, score, extra)
            }
        }
        guard let closest, closest.score >= 0.85 else { return nil }
        return closest.word
    }

    /// The length of the longest common subsequence.
    static func commonSubsequence(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        var previous = Array(repeating: 0, count: b.count + 1)
        var row = previous
        for i in 1...a.count {
            for j in 1...b.count {
                row[j] = a[i - 1] == b[j - 1] ? previous[j - 1] + 1 : max(previous[j], row[j - 1])
            }
            previous = row
        }
        return row[b.count]
    }

    /// `; did you mean 'x'?`, or nothing.
    public static func phrase(for word: String, in candidates: [String]) -> String {
        nearest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    private static func fold(_ word: String) -> String {
        String(word.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousRow = Array(0...b.count)
        var row = previousRow
        var beforePrevious = previousRow
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previousRow
            previousRow = row
        }
        return row[b.count]
    }
}
