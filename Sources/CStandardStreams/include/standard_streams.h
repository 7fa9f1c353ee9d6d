#ifndef SST_STANDARD_STREAMS_H
#define SST_STANDARD_STREAMS_H

/// Standard input, output and error as the process found them at its start.
///
/// A process started with one of them closed (`sentiment classify <&-`) would
/// hand that descriptor number to the next file anything opens — an eventfd of
/// the runtime, a model file, the SQLite database — and then read input from it
/// or write output and error messages into it. Before any other code of the
/// executable runs, each closed one of the three is opened on `/dev/null`, and
/// the command line asks `sst_was_closed` to report it as closed instead.

/// Whether descriptor `fd` (0, 1 or 2) was closed when the process started.
/// Always 0 for other descriptors.
int sst_was_closed(int fd);

#endif
