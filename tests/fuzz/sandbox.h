/**
 * @file sandbox.h
 * What every fuzz target shares: a private temporary directory, and the
 * guards (sandbox.c) that ccbench's own calls which could act on the
 * machine or a cluster are renamed to in the targets' copy of the library.
 *
 * A guard aborts -- which libFuzzer reports as a crash, with the input --
 * when the code under test tries to exec, fork, kill, unmount, issue an
 * ioctl, unmap an rbd device, connect to a cluster, or write outside the
 * temporary directory. Removing a file or directory outside it is refused
 * (ENOENT) rather than aborted, and counted: `krbd restore` removes the
 * rbd-fuse mount point and log a record names by design.
 */
#ifndef CCB_FUZZ_SANDBOX_H
#define CCB_FUZZ_SANDBOX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** The target's temporary directory (created on first use, removed at exit). */
const char *ccb_fuzz_tmpdir(void);

/** @p rel under the temporary directory, in a static buffer of the caller's. */
void ccb_fuzz_path(char *buf, size_t len, const char *rel);

/** Write @p data to @p path (under the temporary directory). Aborts on failure. */
void ccb_fuzz_write_file(const char *path, const uint8_t *data, size_t size);

/** Where ccbench's stderr goes: /dev/null, or stderr with CCB_FUZZ_VERBOSE=1. */
extern FILE *ccb_fuzz_stderr;

/** Removals outside the temporary directory the guards refused so far. */
extern unsigned long ccb_fuzz_refused;

#endif
