import Glibc

extension SplitIndexUpdate {
    /// A file a commit has just read and hashed: the stat data of the open file, taken before
    /// it was read, and its blob id.
    ///
    /// The index update takes the blob id from here rather than reading and hashing the file
    /// again, when the file's `lstat` then still gives the same stat data (ctime and mtime to
    /// the nanosecond, device, inode, mode, owner, size): the file is the one that was read.
    /// Otherwise (something replaced it in between) the file is read and hashed as before.
    struct HashedFile {
        /// The 40 bytes of stat data an index entry holds (`IndexStatFill.appendStatData`).
        var statData: [UInt8]
        /// The blob id, 20 bytes.
        var id: [UInt8]

        init(status: stat, id: String) {
            var data: [UInt8] = []
            data.reserveCapacity(IndexStatFill.statSize)
            IndexStatFill.appendStatData(of: status, to: &data)
            self.init(statData: data, id: GitTree.bytes(hex: id))
        }

        init(statData: [UInt8], id: [UInt8]) {
            self.statData = statData
            self.id = id
        }
    }
}
