import Glibc

/// How many processors are online, at least 1.
///
/// Read with `sysconf` rather than `ProcessInfo`, which would link most of
/// FoundationEssentials' file code, and glibc's name-service functions, into a static
/// executable. (glibc's `sched_getaffinity`, which would also honour a CPU mask, is not
/// visible to Swift without `_GNU_SOURCE`.)
enum ProcessorCount {
    static func online() -> Int {
        max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}
