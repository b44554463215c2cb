/* The null path's face: its table, command and option rows, for its
 * registry row, and its delayed completions (null_delay.c). */
#ifndef CCBENCH_PATH_NULL_H
#define CCBENCH_PATH_NULL_H

#include <stdint.h>

#include <ccbench/command.h>
#include <ccbench/engine.h>
#include <ccbench/options.h>
#include <ccbench/path.h>

/** The null path: every op done at once, no cluster (path_null.c). */
extern const struct ccb_path_ops ccb_path_null;

/** null write and null read, ending in a row with no name (path_null.c). */
extern const struct ccb_command ccb_null_commands[];

/** The options only the null path's commands take, ending in a row with no name (path_null.c). */
extern const struct ccb_opt_desc ccb_null_options[];

/**
 * Complete @p cl's ops @p delay_usec after their submission, on a thread
 * of the client's own (cl->path_data). @return 0, or -ENOMEM / -errno of
 * pthread_create.
 */
int ccb_null_delay_open(struct ccb_client *cl, uint64_t delay_usec);

/** Queue @p s to complete after the delay. @return 0, or -EOVERFLOW past the client's slots. */
int ccb_null_delay_submit(struct ccb_client *cl, struct ccb_slot *s);

/** Complete what is still queued at its time, stop the thread, free (safe without open). */
void ccb_null_delay_close(struct ccb_client *cl);

#endif
