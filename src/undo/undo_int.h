/*
 * What undo.c, undo_state.c and undo_cluster.c share: one module, the
 * undo log and its crash records, in three files.
 */
#ifndef CCBENCH_UNDO_INT_H
#define CCBENCH_UNDO_INT_H

#include <jansson.h>

/* Field 22 of /proc/PID/stat (start time since boot), or 0 when the
 * process is gone or a zombie. */
unsigned long long ccb_undo_proc_starttime(long pid);

/* This process's command line as one redacted string (new reference). */
json_t *ccb_undo_own_command(void);

/* The state directory opened O_DIRECTORY|O_NOFOLLOW and checked on the
 * opened inode: an fd, -ENOENT when absent, -EACCES when sound but not
 * ours to read (root's, for a user), -EPERM (said on stderr). */
int ccb_undo_open_state_dir(void);

/* The digits of a PID namespace ("pid:[4026531836]"), for a file name. */
const char *ccb_undo_ns_digits(const char *ns);

/* Write @p doc to new file @p tmp (O_EXCL, 0600). @return 0 or -errno. */
int ccb_undo_dump_new(json_t *doc, const char *tmp);

#endif
