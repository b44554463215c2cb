/**
 * @file secret_opts.h
 * Key material off every command line. A sweep point that runs through a
 * runner gets its arguments on the runner's argv (`sh -c`, then maybe
 * ssh), which every local user reads in /proc/PID/cmdline. The options
 * whose values carry key material (-o key=..., --map-options secret=...:
 * whatever ccb_redact_text() would change) go instead as one JSON object
 * on the runner's stdin, {"set": ["key=..."], "map-options": "..."}, and
 * --secrets-stdin on its argv tells the ccbench at the end to read them.
 * A pipe is readable by its two ends only; ssh passes stdin on to its
 * remote command, so an `ssh HOST ccbench` runner needs nothing more. A
 * runner that does not give its stdin to ccbench makes that ccbench stop
 * with exit 2 (nothing on stdin): the run fails, the key stays off argv.
 */
#ifndef CCBENCH_SECRET_OPTS_H
#define CCBENCH_SECRET_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <ccbench/options.h>

/** The most a sender writes: an empty pipe takes it whole, before the reader runs. */
#define CCB_SECRET_OPTS_SEND_MAX 4096
/** The most --secrets-stdin reads. */
#define CCB_SECRET_OPTS_READ_MAX (64u << 10)
/** How long --secrets-stdin waits for the end of stdin. */
#define CCB_SECRET_OPTS_WAIT_USEC (30ull * 1000000)

/**
 * Split ccbench arguments @p args (command words, then "--NAME VALUE" and
 * flags, as ccb_sweep_point_args() makes them) into those that may stand
 * on a command line, @p *pub (new array; "--secrets-stdin" added when
 * anything was taken out), and the options whose values carry key
 * material, @p *doc (a JSON object text for the reader's stdin; malloc'd,
 * wipe and free it; NULL when there are none).
 *
 * @return 0; -EINVAL when key material is in an argument that is no
 *         option's value, -E2BIG when @p *doc would exceed
 *         CCB_SECRET_OPTS_SEND_MAX, -ENOMEM; the reason in @p err (which
 *         never holds the key material).
 */
int ccb_secret_opts_split(const json_t *args, json_t **pub, char **doc, char *err, size_t err_len);

/**
 * --secrets-stdin: read one JSON object of options from @p fd up to its
 * end (at most CCB_SECRET_OPTS_READ_MAX bytes, within @p wait_usec), each
 * member an option's long name and its value, a string (an array of
 * strings for -o/--set), and set them into @p o as given. The values live
 * until the process ends, as argv's do.
 *
 * @return 0, or -EINVAL (nothing or no object on @p fd, an unknown option,
 *         a flag, an option also on the command line, a bad value),
 *         -ETIMEDOUT, -E2BIG, -EIO, -ENOMEM, with one message in @p err
 *         that names no value.
 */
int ccb_secret_opts_read(struct ccb_opts *o, int fd, uint64_t wait_usec, char *err, size_t err_len);

#endif
