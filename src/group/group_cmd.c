/*
 * `ccbench group report NAME`, `group rm NAME`, `group ls`: read a group
 * from the cluster, aggregate it (group_agg.c), render it
 * (group_report.c), remove it.
 */
#include <ccbench/command.h>
#include <ccbench/clock.h>
#include <ccbench/cluster.h>
#include <ccbench/engine.h>
#include <ccbench/escape.h>
#include "group_agg.h"
#include <ccbench/group_cmd.h>
#include <ccbench/group_report.h>
#include <ccbench/html.h>
#include "group_store.h"
#include <ccbench/report.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rados/librados.h>

static double realtime_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool valid_name(const char *s)
{
	size_t l = strlen(s);

	return l >= 1 && l <= 64 &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == l;
}

/* The state and the results of group @p name, as ccb_group_aggregate() takes them. */
static int gather(rados_ioctx_t io, const char *name, json_t **state_out, json_t **results_out)
{
	struct ccb_gstate st;
	json_t *state = NULL, *results = json_object(), *regs, *ids, *params, *started, *v;
	json_t *ignored;
	size_t i;
	int r = ccb_gstate_read(io, name, &st);

	if (r < 0 || !st.exists) {
		ccb_gstate_free(&st);
		json_decref(results);
		return r < 0 ? r : -ENOENT;
	}
	regs = ccb_gstate_members(&st);
	params = ccb_gstate_get(&st, "params");
	started = ccb_gstate_get(&st, "started");
	state = json_pack("{s:s, s:o, s:o, s:O, s:f}", "name", name, "params",
	                  params ? params : json_null(), "started", started ? started : json_null(),
	                  "members", regs, "now", realtime_s());
	/* Heartbeats tell a member still running from a lost one; without
	 * them (unreadable) members without a result are only "missing". */
	if (state) {
		json_t *beats = json_object();

		r = beats ? ccb_group_read_heartbeats(io, name, beats) : -ENOMEM;
		if (r < 0)
			fprintf(stderr, "ccbench: group %s: reading the heartbeats: %s\n", name,
			        strerror(-r));
		else
			json_object_set(state, "heartbeats", beats);
		json_decref(beats);
	}
	/* The same ids the report takes, checked the same way: a poisoned
	 * claim cannot send us reading a million objects. */
	ignored = json_array();
	ids = ccb_group_claim_ids(started, regs, ignored);
	json_decref(ignored);
	json_array_foreach(ids, i, v)
	{
		char oid[256], *buf = NULL;
		size_t len;
		json_t *doc;

		ccb_group_result_oid(oid, sizeof(oid), name, json_string_value(v));
		r = ccb_group_read_object(io, oid, &buf, &len);
		if (r == -ENOENT)
			continue;
		if (r < 0) {
			fprintf(stderr, "ccbench: group %s: rados_read(%s): %s\n", name, oid,
			        strerror(-r));
			continue;
		}
		doc = json_loadb(buf, len, 0, NULL);
		free(buf);
		if (json_is_object(doc))
			json_object_set_new(results, json_string_value(v), doc);
		else {
			fprintf(stderr, "ccbench: group %s: %s: not a ccbench result; ignored\n",
			        name, oid);
			json_decref(doc);
		}
	}
	json_decref(ids);
	json_decref(regs);
	ccb_gstate_free(&st);
	*state_out = state;
	*results_out = results;
	return state ? 0 : -ENOMEM;
}

/*
 * Remove every object of group @p name, each with FULL_TRY (a full pool
 * answers at once), all within the command's one bound
 * (ccb_group_set_deadline). What is left is named once, with the
 * cluster's reason when the map gives one (a full pool, one over its
 * quota). @return the count removed, or -errno.
 */
static int remove_group(rados_t cl, rados_ioctx_t io, const struct ccb_opts *o, const char *name)
{
	rados_list_ctx_t ctx;
	const char *entry;
	json_t *names = json_array(), *v;
	size_t l = strlen(name), i, n_left = 0, used = 0;
	int r, removed = 0, first_err = 0;
	char left[512] = "", why[256] = "";

	if (!names)
		return -ENOMEM;
	r = rados_nobjects_list_open(io, &ctx);
	if (r < 0) {
		json_decref(names);
		return r;
	}
	/* Results first (NAME.result.*), the group object last: while it is
	 * there the group still shows in `group ls` and can be removed again. */
	while ((r = rados_nobjects_list_next(ctx, &entry, NULL, NULL)) == 0)
		if (strncmp(entry, name, l) == 0 &&
		    strncmp(entry + l, CCB_GROUP_RESULT_INFIX, strlen(CCB_GROUP_RESULT_INFIX)) == 0)
			json_array_append_new(names, json_string(entry));
	rados_nobjects_list_close(ctx);
	if (r != -ENOENT) {
		json_decref(names);
		return r;
	}
	{
		char hb[256];

		ccb_group_heartbeat_oid(hb, sizeof(hb), name);
		json_array_append_new(names, json_string(hb));
	}
	json_array_append_new(names, json_string(name));
	json_array_foreach(names, i, v)
	{
		r = ccb_group_remove_object(io, json_string_value(v));
		if (r == 0) {
			removed++;
		} else if (r != -ENOENT) {
			if (!first_err)
				first_err = r;
			n_left++;
			if (used < sizeof(left) - 64)
				used += (size_t)snprintf(left + used, sizeof(left) - used, "%s%s",
				                         used ? ", " : "", json_string_value(v));
			else if (!strstr(left, "..."))
				snprintf(left + used, sizeof(left) - used, ", ...");
		}
	}
	if (first_err) {
		if (ccb_cluster_diagnose(cl, ccb_group_pool(o), NULL, why, sizeof(why)) >= 0 &&
		    !strstr(why, "down"))
			why[0] = '\0';
		fprintf(
		    stderr,
		    "ccbench: group %s: %zu of %zu objects left in pool %s namespace %s (%s%s): "
		    "%s; `ccbench group rm %s` removes them once the cluster lets it\n",
		    name, n_left, json_array_size(names), ccb_group_pool(o), CCB_GROUP_NAMESPACE,
		    strerror(-first_err),
		    ccb_group_gave_up(first_err) ? ", at the command's bound (--op-timeout)" : "",
		    left, name);
		if (why[0])
			fprintf(stderr, "ccbench: group %s: %s\n", name, why);
	}
	json_decref(names);
	return first_err ? first_err : removed;
}

/* Malformed records on stderr, so a script reading stdout sees them too. */
static void warn_malformed(const char *name, const json_t *rep)
{
	const json_t *m;
	size_t i;

	json_array_foreach(json_object_get(rep, "malformed"), i, m)
	{
		char id[160], why[320]; /* another client's strings: escaped */

		ccb_text_esc(ccb_report_str(m, "member"), id, sizeof(id));
		ccb_text_esc(ccb_report_str(m, "reason"), why, sizeof(why));
		if (json_object_get(m, "member"))
			fprintf(stderr,
			        "ccbench: group %s: member %s: malformed record (%s); skipped\n",
			        name, id, why);
		else
			fprintf(stderr, "ccbench: group %s: malformed record: %s\n", name, why);
	}
}

/* Nothing left to wait for: every member done, lost, withdrawn or malformed. */
static bool settled(const json_t *rep)
{
	const char *s = ccb_report_str(rep, "status");

	return strcmp(s, "waiting") != 0 && strcmp(s, "running") != 0 &&
	       json_array_size(json_object_get(rep, "missing")) == 0;
}

/* Sleep @p nsec, in ticks that notice a signal. @return false on a signal. */
static bool pause_nsec(uint64_t nsec)
{
	uint64_t end = ccb_now_nsec() + nsec;

	while (!ccb_signal_pending && ccb_now_nsec() < end) {
		struct timespec tick = {0, 100000000l};
		nanosleep(&tick, NULL);
	}
	return !ccb_signal_pending;
}

/* The report, read again every second while members still run, up to --wait. */
static int read_report(const struct ccb_opts *o, rados_ioctx_t io, const char *name,
                       json_t **rep_out)
{
	uint64_t deadline = ccb_now_nsec() + o->group_wait_usec * 1000ull;

	for (;;) {
		json_t *state = NULL, *results = NULL, *rep;
		int r = gather(io, name, &state, &results);

		if (r == -ENOENT) {
			fprintf(stderr,
			        "ccbench: group %s: no such group in pool %s namespace %s\n", name,
			        ccb_group_pool(o), CCB_GROUP_NAMESPACE);
			return 2;
		}
		if (r < 0) {
			fprintf(stderr, "ccbench: group %s: rados_read_op_omap_get_vals2(%s): %s\n",
			        name, name, strerror(-r));
			return 1;
		}
		rep = ccb_group_aggregate(state, results);
		json_decref(state);
		json_decref(results);
		if (!rep)
			return 1;
		if (settled(rep) || ccb_now_nsec() >= deadline || !pause_nsec(1000000000ull)) {
			*rep_out = rep;
			return 0;
		}
		json_decref(rep);
	}
}

static int cmd_report(const struct ccb_cli *cli, rados_t cl, rados_ioctx_t io, const char *name)
{
	const struct ccb_opts *o = &cli->opts;
	json_t *rep = NULL;
	int r = read_report(o, io, name, &rep), status;
	size_t n_lost;

	if (r)
		return r;
	warn_malformed(name, rep);
	n_lost = json_array_size(json_object_get(rep, "lost"));
	status = n_lost                                                   ? CCB_GROUP_EXIT_LOST
	         : strcmp(ccb_report_str(rep, "status"), "complete") == 0 ? 0
	                                                                  : 1;
	switch (o->format) {
	case CCB_FMT_JSON:
		r = json_dumpf(rep, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(15)) < 0 ? -EIO
		                                                                          : 0;
		fputc('\n', stdout);
		break;
	case CCB_FMT_CSV:
		ccb_group_render_csv(rep, stdout);
		break;
	default:
		ccb_group_render_text(rep, stdout);
	}
	if (fflush(stdout) != 0 || r < 0) {
		fprintf(stderr, "ccbench: writing the report to stdout: %s\n", strerror(errno));
		status = 1;
	}
	if (o->csv_file && ccb_report_to_file(o->csv_file, "--csv", rep, ccb_group_render_csv) < 0)
		status = 1;
	if (o->svg_file && ccb_report_to_file(o->svg_file, "--svg", rep, ccb_group_render_svg) < 0)
		status = 1;
	if (o->html_file && ccb_report_to_file(o->html_file, "--html", rep, ccb_html_render) < 0)
		status = 1;
	if (n_lost)
		fprintf(
		    stderr,
		    "ccbench: group %s: incomplete: %zu of %lld lost (killed or cut off while "
		    "running: no heartbeat for %.0f s); the aggregate is over the %lld others\n",
		    name, n_lost,
		    (long long)json_integer_value(json_object_get(rep, "members_expected")),
		    CCB_GROUP_LOST_AFTER_S,
		    (long long)json_integer_value(
		        json_object_get(json_object_get(rep, "aggregate"), "members")));
	else if (status == 1 && !strcmp(ccb_report_str(rep, "status"), "running"))
		fprintf(stderr,
		        "ccbench: group %s: %zu member(s) still running; `--wait DUR` waits for "
		        "them\n",
		        name, json_array_size(json_object_get(rep, "running")));
	else if (status == 1 && !strcmp(ccb_report_str(rep, "status"), "incomplete"))
		fprintf(stderr,
		        "ccbench: group %s: incomplete: %lld of %lld members in the aggregate "
		        "(%zu missing, the others withdrawn)\n",
		        name,
		        (long long)json_integer_value(
		            json_object_get(json_object_get(rep, "aggregate"), "members")),
		        (long long)json_integer_value(json_object_get(rep, "members_expected")),
		        json_array_size(json_object_get(rep, "missing")));
	else if (status == 1 && !strcmp(ccb_report_str(rep, "status"), "waiting"))
		fprintf(stderr, "ccbench: group %s: has not started yet\n", name);
	if (o->group_cleanup) {
		r = remove_group(cl, io, o, name);
		if (r < 0)
			status = 1;
		else if (!o->quiet)
			fprintf(stderr, "ccbench: group %s: removed %d objects (--group-cleanup)\n",
			        name, r);
	}
	json_decref(rep);
	return status;
}

static int cmd_ls(const struct ccb_cli *cli, rados_ioctx_t io)
{
	const struct ccb_opts *o = &cli->opts;
	rados_list_ctx_t ctx;
	const char *entry;
	json_t *names = json_array(), *out = json_array(), *v;
	size_t i;
	int r = rados_nobjects_list_open(io, &ctx);

	if (r < 0 || !names || !out) {
		fprintf(stderr, "ccbench: group ls: rados_nobjects_list_open(pool %s): %s\n",
		        ccb_group_pool(o), strerror(r < 0 ? -r : ENOMEM));
		json_decref(names);
		json_decref(out);
		return 1;
	}
	/* Group objects are the names without a dot (group names have none). */
	while ((r = rados_nobjects_list_next(ctx, &entry, NULL, NULL)) == 0)
		if (!strchr(entry, '.'))
			json_array_append_new(names, json_string(entry));
	rados_nobjects_list_close(ctx);
	json_array_foreach(names, i, v)
	{
		json_t *state, *results, *rep;
		if (gather(io, json_string_value(v), &state, &results) < 0)
			continue;
		rep = ccb_group_aggregate(state, results);
		if (rep)
			warn_malformed(json_string_value(v), rep);
		if (rep)
			json_array_append_new(
			    out,
			    json_pack(
			        "{s:s, s:s, s:I, s:I, s:I, s:O}", "name", json_string_value(v),
			        "status", ccb_report_str(rep, "status"), "members_expected",
			        json_integer_value(json_object_get(rep, "members_expected")),
			        "registered",
			        (json_int_t)json_object_size(json_object_get(state, "members")),
			        "reported",
			        json_integer_value(
			            json_object_get(json_object_get(rep, "aggregate"), "members")),
			        "planned_start_realtime_us",
			        json_object_get(rep, "planned_start_realtime_us")
			            ? json_object_get(rep, "planned_start_realtime_us")
			            : json_null()));
		json_decref(rep);
		json_decref(state);
		json_decref(results);
	}
	if (o->format == CCB_FMT_JSON) {
		json_dumpf(out, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		fputc('\n', stdout);
	} else {
		if (o->format == CCB_FMT_CSV)
			printf("name,status,members_expected,registered,reported,planned_start\n");
		else if (json_array_size(out))
			printf("%-24s %-11s %8s %10s %8s  %s\n", "group", "status", "members",
			       "registered", "reported", "start");
		else
			printf("no groups in pool %s namespace %s\n", ccb_group_pool(o),
			       CCB_GROUP_NAMESPACE);
		json_array_foreach(out, i, v)
		{
			char when[64] = "-";
			if (json_is_number(json_object_get(v, "planned_start_realtime_us")))
				ccb_group_format_realtime(
				    ccb_report_num(v, "planned_start_realtime_us") / 1e6, when,
				    sizeof(when));
			printf(
			    o->format == CCB_FMT_CSV ? "%s,%s,%lld,%lld,%lld,%s\n"
			                             : "%-24s %-11s %8lld %10lld %8lld  %s\n",
			    ccb_report_str(v, "name"), ccb_report_str(v, "status"),
			    (long long)json_integer_value(json_object_get(v, "members_expected")),
			    (long long)json_integer_value(json_object_get(v, "registered")),
			    (long long)json_integer_value(json_object_get(v, "reported")), when);
		}
	}
	json_decref(names);
	json_decref(out);
	return fflush(stdout) == 0 ? 0 : 1;
}

static int cmd_rm(const struct ccb_cli *cli, rados_t cl, rados_ioctx_t io, const char *name)
{
	int r = remove_group(cl, io, &cli->opts, name);

	if (r == 0) {
		fprintf(stderr, "ccbench: group %s: no such group in pool %s namespace %s\n", name,
		        ccb_group_pool(&cli->opts), CCB_GROUP_NAMESPACE);
		return 2;
	}
	if (r < 0)
		return 1;
	printf("group %s: removed %d objects from pool %s namespace %s\n", name, r,
	       ccb_group_pool(&cli->opts), CCB_GROUP_NAMESPACE);
	return 0;
}

static int run_ls(const struct ccb_cli *cli, rados_t cl, rados_ioctx_t io, const char *name)
{
	(void)name;
	(void)cl;
	return cmd_ls(cli, io);
}

/* The subcommands, by their full command name (the rows in src/cli/cli.c). */
static const struct {
	const char *name;
	int (*run)(const struct ccb_cli *cli, rados_t cl, rados_ioctx_t io, const char *name);
} subcommands[] = {
    {"group report", cmd_report},
    {"group rm", cmd_rm},
    {"group ls", run_ls},
};

int ccb_group_command(const struct ccb_cli *cli, int argc, char **argv)
{
	const char *name = cli->n_args ? cli->args[0] : NULL;
	int (*run)(const struct ccb_cli *, rados_t, rados_ioctx_t, const char *) = NULL;
	rados_t cluster;
	rados_ioctx_t io;
	bool bad_input;
	int r, status;

	(void)argc;
	(void)argv;
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (strcmp(cli->command, subcommands[i].name) == 0)
			run = subcommands[i].run;
	if (!run) {
		fprintf(stderr, "ccbench: %s: not a group command\n", cli->command);
		return 2;
	}
	if (name && !valid_name(name)) {
		fprintf(stderr, "ccbench: %s '%s': a group name is 1 to 64 of A-Z a-z 0-9 _ -\n",
		        cli->command, name);
		return 2;
	}
	r = ccb_group_connect(&cli->opts, &cluster, &io, &bad_input);
	if (r < 0)
		return bad_input ? 2 : 1;
	/* One bound for the whole command, not one --op-timeout per object
	 * (18 removals each waiting out its own on a full pool took over
	 * 5 minutes): report's --wait, then --op-timeout. */
	ccb_group_set_deadline(
	    ccb_now_nsec() +
	    (cli->opts.op_timeout_usec + (run == cmd_report ? cli->opts.group_wait_usec : 0)) *
	        1000ull);
	status = run(cli, cluster, io, name);
	ccb_group_set_deadline(0);
	rados_ioctx_destroy(io);
	rados_shutdown(cluster);
	return status;
}

/* The rows of group report, rm and ls: one run for the three. */
const struct ccb_command ccb_group_commands[] = {
    {
        .name = "group report",
        .mask = CCB_CMD_GROUP,
        .mode = CCB_MODE_SEQ,
        .n_args = 1,
        .args_help = "NAME",
        .summary = "gather and add up the results of a group's members",
        .description =
            "Gathers the results the members of group NAME stored in RADOS and adds them up "
            "over the window in which all of them ran: each member's and the aggregate's "
            "bandwidth and latency, Jain's fairness index and the start skew.",
        .example = "ccbench group report wk48 -p rbd",
        .run = ccb_group_command,
    },
    {
        .name = "group rm",
        .mask = CCB_CMD_GROUP,
        .mode = CCB_MODE_SEQ,
        .n_args = 1,
        .args_help = "NAME",
        .summary = "remove a group's objects",
        .description = "Removes group NAME's registrations and stored results.",
        .example = "ccbench group rm wk48 -p rbd",
        .run = ccb_group_command,
    },
    {
        .name = "group ls",
        .mask = CCB_CMD_GROUP,
        .mode = CCB_MODE_SEQ,
        .summary = "list groups",
        .description = "Lists the groups in the group pool and their state.",
        .example = "ccbench group ls -p rbd",
        .run = ccb_group_command,
    },
    {0},
};
