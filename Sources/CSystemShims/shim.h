// glibc calls that Swift's Glibc module leaves out because they need _GNU_SOURCE.
#ifndef ENTITLEMENT_SYSTEM_SHIMS_H
#define ENTITLEMENT_SYSTEM_SHIMS_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>

// A pipe whose two ends are close-on-exec from the moment they exist: no child started by
// another thread (ours or a library's) can inherit them between pipe() and fcntl().
static inline int entitlement_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

// ioprio_set(2), which glibc does not wrap: this process's I/O priority in the best-effort
// class at `level` (0 highest, 7 lowest).
static inline int entitlement_set_io_priority_best_effort(int level) {
    return (int)syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0, (2 /* IOPRIO_CLASS_BE */ << 13) | level);
}
#endif
