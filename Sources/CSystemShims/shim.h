// glibc calls that Swift's Glibc module leaves out because they need _GNU_SOURCE.
#ifndef ENTITLEMENT_SYSTEM_SHIMS_H
#define ENTITLEMENT_SYSTEM_SHIMS_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <unistd.h>

// A pipe whose two ends are close-on-exec from the moment they exist: no child started by
// another thread (ours or a library's) can inherit them between pipe() and fcntl().
static inline int entitlement_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
#endif
