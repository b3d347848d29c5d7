/// Which version of a file a merge was given.
package enum MergeSide: String, Sendable {
    case base, ours, theirs
}

/// Why a merge wrote nothing.
package enum MergeFailure: Error, Equatable, Sendable {
    /// One side cannot be read by the tool (invalid JSON, wrong field, misplaced).
    case unreadable(MergeSide, detail: String)
    /// One side has a `schema_version` newer than this tool's.
    case newerSchema(MergeSide, version: Int)
    /// Changes that cannot be combined meaningfully, by field.
    case conflicts([MergeConflict])
    /// The file is neither a profile nor `config.json`.
    case notAStoreFile
}
