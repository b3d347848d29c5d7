extension ProfilePrefilter {
    /// Lets through only files that hold one of `strings` as a JSON string: ingest finds the
    /// customer holding an App Store original transaction id this way (a file with an escape
    /// may spell it differently, so it is always decoded, as for every prefilter).
    package init(containingAnyOf strings: [String]) {
        self.groups = strings.isEmpty ? [] : [strings.map { Needle(Self.quoted($0)) }]
    }
}
