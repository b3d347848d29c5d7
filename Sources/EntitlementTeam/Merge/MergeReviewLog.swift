import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Where the merge driver leaves its `MergeReview`s for `sync`: git runs the driver as a
/// separate process per file, so the records go to `.git/entitlement/merge-review`, one
/// JSON object per line; `sync` empties it before merging and reads it after.
package enum MergeReviewLog {
    package static func path(gitDirectory: String) -> String { "\(gitDirectory)/entitlement/merge-review" }

    package static func append(_ reviews: [MergeReview], gitDirectory: String) throws(EntitlementError) {
        guard !reviews.isEmpty, GitFiles.isDirectory(gitDirectory) else { return }
        let file = path(gitDirectory: gitDirectory)
        try GitFiles.makeDirectory(PathName.directory(of: file))
        let lines = reviews.map { JSONWriter(style: .compact).string($0.json) + "\n" }.joined()
        try GitFiles.append(Array(lines.utf8), to: file, durable: false)
    }

    /// The records, and the file removed; lines it cannot read are skipped.
    static func take(gitDirectory: String) throws(EntitlementError) -> [MergeReview] {
        let file = path(gitDirectory: gitDirectory)
        guard let bytes = try GitFiles.read(file) else { return [] }
        try GitFiles.remove(file)
        return bytes.split(separator: 0x0A).compactMap { line in
            (try? JSONParser.parse(Array(line))).flatMap(MergeReview.init(json:))
        }
    }

    /// One line for a person: `review: alice@example.com (premium): …`, outside strings escaped.
    package static func line(_ review: MergeReview) -> String {
        "review: \(Terminal.escape(review.customer)) (\(Terminal.escape(review.entitlement))): \(Terminal.escape(review.message))\n"
    }
}
