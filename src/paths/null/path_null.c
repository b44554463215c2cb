/*
 * The null path, as fio's null engine: every op completes as it is
 * submitted, with no cluster, no target and no data moved. What a run
 * measures is ccbench's own cost per op (the engine, the histogram, the
 * per-second series), the floor under every other path's figures. With
 * --complete-after DUR each op completes DUR after its submission
 * (null_delay.c): a known service time, to check the engine, the open
 * loop and the capacity search against.
 *
 * It is also the smallest complete path: this folder (its table, its
 * command and option rows) and one row in src/paths/registry.c.
 */
#include <ccbench/command.h>
#include <ccbench/option_rows.h>
#include <ccbench/path.h>

#include "path_null.h"

#include <stdbool.h>
#include <stdio.h>
#include "null_opts.h"

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
	uint64_t usec = CCB_NULL_OPTS(cl->run->opts)->complete_after_usec;

	return usec ? ccb_null_delay_open(cl, usec) : 0;
}

/* Done at once, on the client's thread (the engine takes the inline
 * path), or after --complete-after on the client's completion thread. */
static int null_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	s->len_bytes = cl->run->op_bytes ? cl->run->op_bytes : s->buf_bytes;
	if (cl->path_data)
		return ccb_null_delay_submit(cl, s);
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
	ccb_null_delay_close(cl);
}

const struct ccb_path_ops ccb_path_null = {
    .name = "null",
    .caps = CCB_CMD_ENGINE | CCB_CAP_QUEUE | CCB_CAP_CLIENTS | CCB_CAP_OP_SIZE,
    .op_size_name = "op-size",
    .needs_cluster = null_needs_cluster,
    .prepare = null_prepare,
    .client_open = null_client_open,
    .submit = null_submit,
    .describe = null_describe,
    .client_close = null_client_close,
    .commands = ccb_null_commands,
    .options = ccb_null_options,
    .opts_bytes = sizeof(struct ccb_null_opts),
};

/* The engine's options (-b, -t, --clients, -d, --total, --rate,
 * --until-steady and their companions) and the output's, no others: a
 * conf, a pool, a group or --osd-latency are refused (exit 2), since
 * nothing here touches a cluster. */
#define NULL_MASK CCB_CMD_OUTPUT

const struct ccb_command ccb_null_commands[] = {
    {
        .name = "null write",
        .mask = NULL_MASK,
        .mode = CCB_MODE_WRITE,
        .summary = "writes that complete at once, no cluster (ccbench's own cost per op)",
        .description =
            "Runs the engine through the null path, as fio's null engine: every op of "
            "--op-size completes as it is submitted, --queue-depth in flight per client, for "
            "--duration or --total. Nothing is connected, written or read, and no conf file "
            "is needed; the rate is ccbench's own ceiling, the floor under every other "
            "path's latency. It takes the engine's options and the output's; a cluster's "
            "(-c, -p, --group, --osd-latency) are refused.",
        .example = "ccbench null write -d 1s -b 4K -t 16",
    },
    {
        .name = "null read",
        .mask = NULL_MASK,
        .mode = CCB_MODE_SEQ,
        .summary = "reads that complete at once, no cluster (ccbench's own cost per op)",
        .description = "As null write, with the run counted as reads.",
        .example = "ccbench null read -d 1s -b 4K",
    },
    {0},
};

/* The null path's own option: a service time of its own choosing. */
const struct ccb_opt_desc ccb_null_options[] = {
    {.name = "complete-after",
     .type = CCB_OPT_DURATION,
     .offset = PATH_OFF(struct ccb_null_opts, complete_after_usec),
     .def = "0",
     .max = 60000000ull,
     .cmds = OWN,
     .argname = "DUR",
     .help = "complete each op DUR after its submission, on a thread of the client's own: a "
             "known service time (4 in flight at 10ms carry 400 ops/s); 0: at once"},
    {.name = NULL},
};
