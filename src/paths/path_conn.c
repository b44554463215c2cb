/* The connection ladder of the rados and librbd paths (path_conn.h). */
#include <ccbench/cluster.h>
#include <ccbench/undo.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "path_conn.h"

int ccb_path_connect(struct ccb_run *run, const char *pool, const char *ns, void (*tune)(rados_t),
                     rados_t *ctl, rados_ioctx_t *io, int (*undo)(void *), void (*discard)(void *),
                     void *state)
{
	char err[512];
	int r = ccb_cluster_connect(run->opts, ctl, err, sizeof(err));

	if (r < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		run->bad_input = r == -EINVAL;
		discard(state);
		return r;
	}
	if (tune)
		tune(*ctl);
	r = rados_ioctx_create(*ctl, pool, io);
	if (r < 0) {
		fprintf(stderr, "ccbench: --pool '%s': %s\n", pool,
		        r == -ENOENT ? "no such pool" : strerror(-r));
		run->bad_input = r == -ENOENT;
		rados_shutdown(*ctl);
		discard(state);
		return r;
	}
	if (ns)
		rados_ioctx_set_namespace(*io, ns);
	/* From here on the undo log owns the state: it closes the connection last. */
	r = ccb_undo_push("close the control connection", undo, state, NULL);
	if (r < 0) {
		undo(state);
		return r;
	}
	run->path_data = state;
	run->mon = *ctl; /* the cluster state at start and end (explain) */
	rados_cluster_fsid(*ctl, run->fsid, sizeof(run->fsid));
	return 0;
}
