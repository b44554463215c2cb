/*
 * The null path, as fio's null engine: every op completes as it is
 * submitted, with no cluster, no target and no data moved. What a run
 * measures is ccbench's own cost per op (the engine, the histogram, the
 * per-second series), the floor under every other path's figures.
 *
 * It is also the smallest complete path: this file and one row in
 * src/paths/registry.c (and its commands' rows in src/cli.c).
 */
#include <ccbench/path.h>

#include <stdbool.h>
#include <stdio.h>

/* Nothing to connect to: the CLI checks no conf, the point asks no cluster state. */
static bool null_needs_cluster(const struct ccb_opts *o)
{
	(void)o;
	return false;
}

/* Nothing reads the slots' buffers: write slots may share one. */
static int null_prepare(struct ccb_run *run)
{
	run->shared_buf = true;
	return 0;
}

static int null_client_open(struct ccb_client *cl)
{
	(void)cl;
	return 0;
}

/* Done at once, on the client's thread: the engine takes the inline path. */
static int null_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	s->len_bytes = cl->run->op_bytes ? cl->run->op_bytes : s->buf_bytes;
	ccb_slot_done(s, (int)s->len_bytes);
	return 0;
}

static void null_describe(struct ccb_client *cl, struct ccb_slot *s, char *buf, size_t len)
{
	(void)cl;
	snprintf(buf, len, "null op (slot %u)", s->idx);
}

static void null_client_close(struct ccb_client *cl)
{
	(void)cl;
}

const struct ccb_path_ops ccb_path_null = {
    .name = "null",
    .cmd_bit = CCB_CMD_RADOS,
    .op_size_opt = "op-size",
    .needs_cluster = null_needs_cluster,
    .prepare = null_prepare,
    .client_open = null_client_open,
    .submit = null_submit,
    .describe = null_describe,
    .client_close = null_client_close,
};
