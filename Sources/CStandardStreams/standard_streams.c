#include "standard_streams.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/// Bit `fd` set: descriptor `fd` was closed at start and now reads or writes `/dev/null`.
static unsigned sst_closed;

/// Runs before the Swift runtime, libdispatch and the command line open anything
/// (priority 101, the first a program may use; shared libraries' constructors
/// have already run, and they close what they open).
__attribute__((constructor(101)))
static void sst_reserve(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        // open(2) returns the lowest free descriptor, which is `fd`: lower ones are open.
        int opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (opened == fd) {
            sst_closed |= 1u << fd;
        } else if (opened >= 0) {
            close(opened);
        }
    }
}

int sst_was_closed(int fd) {
    return fd >= 0 && fd <= 2 && (sst_closed >> fd) & 1u;
}
