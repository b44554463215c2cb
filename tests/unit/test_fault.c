/* Unit tests for src/fault/ and src/run/timeline.c: the schedule's parser
 * and its bad input, the option rules, the per-second histograms and the
 * completion ticks, the phases and the I/O pause on synthetic timelines,
 * the `status` digest, and the undo records (shape, the cluster copy's
 * rule, and a round trip through a crash state file to `restore`). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ccbench/explain.h"
#include "ccbench/fault.h"
#include "ccbench/path.h"
#include "ccbench/restore.h"
#include "ccbench/timeline.h"
#include "ccbench/undo.h"

#include "../../src/fault/fault_int.h"
#include <ccbench/cli.h>
#include <ccbench/commands.h>

#define FSID "5f2d2b53-9a7e-4c1e-8d3a-1b2c3d4e5f60"

static int setup(void **state)
{
	(void)state;
	return ccb_commands_init() < 0 ? -1 : 0;
}

/* Parse @p a..., NULL-terminated, as --fault values. */
static int parse(struct ccb_fault_schedule *s, char *err, size_t len, ...)
{
	struct ccb_opt_list l = {0};
	va_list ap;
	const char *v;

	va_start(ap, len);
	while ((v = va_arg(ap, const char *)))
		l.v[l.n++] = v;
	va_end(ap);
	return ccb_fault_parse(&l, s, err, len);
}

static void test_parse_ok(void **state)
{
	struct ccb_fault_schedule *s = calloc(1, sizeof(*s));
	char err[2048];

	(void)state;
	assert_int_equal(parse(s, err, sizeof(err), "5s:osd-out:1;clean:osd-in:1",
	                       "5500ms:set:noout", "clean+2s:unset:noout", "6s:osd-down:12",
	                       "7s:config:osd/osd_mclock_profile=high_recovery_ops",
	                       "8s:exec:sh -c 'kill -KILL 42' \"two words\" a\\ b", "20s:undo:true",
	                       "21s:exec:true", "undo:echo x", "clean+1s:end", NULL),
	                 0);
	assert_int_equal(s->n, 11);
	assert_int_equal(s->f[0].when, CCB_FAULT_AT);
	assert_int_equal(s->f[0].at_usec, 5000000);
	assert_int_equal(s->f[0].kind, CCB_FAULT_OSD_OUT);
	assert_int_equal(s->f[0].osd, 1);
	assert_int_equal(s->f[1].when, CCB_FAULT_CLEAN);
	assert_int_equal(s->f[1].at_usec, 0);
	assert_int_equal(s->f[1].kind, CCB_FAULT_OSD_IN);
	assert_int_equal(s->f[2].at_usec, 5500000);
	assert_string_equal(s->f[2].flag, "noout");
	assert_int_equal(s->f[3].when, CCB_FAULT_CLEAN);
	assert_int_equal(s->f[3].at_usec, 2000000);
	assert_int_equal(s->f[3].kind, CCB_FAULT_UNSET);
	assert_int_equal(s->f[4].osd, 12);
	assert_int_equal(s->f[4].kind, CCB_FAULT_OSD_DOWN);
	assert_string_equal(s->f[5].who, "osd");
	assert_string_equal(s->f[5].name, "osd_mclock_profile");
	assert_string_equal(s->f[5].value, "high_recovery_ops");
	/* Words as a shell splits them, and nothing more. */
	assert_string_equal(s->f[6].argv[0], "sh");
	assert_string_equal(s->f[6].argv[1], "-c");
	assert_string_equal(s->f[6].argv[2], "kill -KILL 42");
	assert_string_equal(s->f[6].argv[3], "two words");
	assert_string_equal(s->f[6].argv[4], "a b");
	assert_null(s->f[6].argv[5]);
	/* Each undo: with the nearest exec: before it; one without WHEN only unwinds. */
	assert_int_equal(s->f[6].pair, 7);
	assert_int_equal(s->f[7].pair, 6);
	assert_int_equal(s->f[7].kind, CCB_FAULT_UNDO);
	assert_int_equal(s->f[8].pair, 9);
	assert_int_equal(s->f[9].when, CCB_FAULT_UNWIND);
	assert_int_equal(s->f[10].kind, CCB_FAULT_END);
	assert_string_equal(s->f[0].text, "5s:osd-out:1");
	free(s);
}

static void test_parse_bad(void **state)
{
	static const struct {
		const char *in, *why;
	} cases[] = {
	    {"5s:reboot:1", "unknown action"},
	    {"5s:osd-out:x", "OSD id 'x'"},
	    {"5s:osd-out:70000", "OSD id '70000'"},
	    {"5s:osd-out:-1", "OSD id '-1'"},
	    {"5s:set:nofoo", "flag 'nofoo'"},
	    {"undo:true", "undo: without an exec: before it"},
	    {"5s:exec:true;6s:undo:true;7s:undo:true", "undo: without an exec: before it"},
	    {"5s:end;6s:set:noout", "end must be the last fault"},
	    {"10s:set:noout;5s:unset:noout", "earlier than '10s:set:noout'"},
	    {"soon:set:noout", "WHEN 'soon'"},
	    {"clean+x:set:noout", "WHEN 'clean+x'"},
	    {"set:noout", "WHEN 'set'"},
	    {"noout", "expected WHEN:ACTION"},
	    {"5s:set:noout;;6s:unset:noout", "an empty fault"},
	    {"5s:set:noout;", "an empty fault"},
	    {"5s:exec:echo 'open", "quote is not closed"},
	    {"5s:exec:", "no command"},
	    {"5s:exec:/nonexistent/ccbench-no-such-program", "no such program"},
	    {"5s:exec:ccbench-no-such-program-in-path", "no such program"},
	    {"5s:exec:rbd map --key AQBsn5tjAAAAABAAbzDrTnJqbsrFy4j0j3Kx8g==", "key material"},
	    {"5s:exec:echo secret=hunter2", "key material"},
	    {"5s:config:osd_mclock_profile=x", "expected config:WHO/NAME=VALUE"},
	    {"5s:config:OSD/x=y", "WHO 'OSD'"},
	    {"5s:config:osd/Bad-Name=y", "NAME 'Bad-Name'"},
	    {"5s:config:osd/x=", "expected config:WHO/NAME=VALUE"},
	};
	struct ccb_fault_schedule *s = calloc(1, sizeof(*s));
	char err[2048];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		if (parse(s, err, sizeof(err), cases[i].in, NULL) != -EINVAL ||
		    !strstr(err, cases[i].why))
			fail_msg("'%s': want '%s', got '%s'", cases[i].in, cases[i].why, err);
		/* A refused secret is never repeated in the message. */
		assert_null(strstr(err, "AQBsn5tj"));
		assert_null(strstr(err, "hunter2"));
	}
	/* More than CCB_FAULT_MAX. */
	{
		char many[40 * 16] = "";

		for (int i = 0; i < 33; i++)
			strcat(many, i ? ";5s:set:noout" : "5s:set:noout");
		assert_int_equal(parse(s, err, sizeof(err), many, NULL), -EINVAL);
		assert_non_null(strstr(err, "more than 32 faults"));
	}
	free(s);
}

static void test_validate(void **state)
{
	struct ccb_opts o;
	char err[4096];

	(void)state;
	ccb_opts_defaults(&o);
	o.faults.v[o.faults.n++] = "5s:osd-out:1";
	o.faults.v[o.faults.n++] = "clean:osd-in:1";
	/* Without --allow-cluster-changes: refused, naming what would change. */
	assert_int_equal(
	    ccb_fault_validate(&o, ccb_cli_command_find("rados write")->mask, 0, err, sizeof(err)),
	    -EINVAL);
	assert_non_null(strstr(err, "needs --allow-cluster-changes"));
	assert_non_null(strstr(err, "mark osd.1 out at 5.0 s"));
	assert_non_null(strstr(err, "mark osd.1 in once the cluster is clean"));
	assert_non_null(strstr(err, "nothing was changed"));
	o.allow_cluster_changes = true;
	assert_int_equal(
	    ccb_fault_validate(&o, ccb_cli_command_find("rados write")->mask, 0, err, sizeof(err)),
	    0);
	assert_int_equal(ccb_fault_validate(&o, ccb_cli_command_find("rados write")->mask, 10000000,
	                                    err, sizeof(err)),
	                 0);
	/* A time past the run. */
	assert_int_equal(ccb_fault_validate(&o, ccb_cli_command_find("rados write")->mask, 5000000,
	                                    err, sizeof(err)),
	                 -EINVAL);
	assert_non_null(strstr(err, "not within the run (--duration 5.0 s)"));
	/* Not with a capacity search, a group, --until-steady. */
	assert_int_equal(ccb_fault_validate(&o, CCB_CMD_CAPACITY, 0, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "capacity search"));
	o.group = "g";
	assert_int_equal(
	    ccb_fault_validate(&o, ccb_cli_command_find("rados write")->mask, 0, err, sizeof(err)),
	    -EINVAL);
	assert_non_null(strstr(err, "--group"));
	o.group = NULL;
	o.until_steady.on = true;
	assert_int_equal(
	    ccb_fault_validate(&o, ccb_cli_command_find("rados write")->mask, 0, err, sizeof(err)),
	    -EINVAL);
	assert_non_null(strstr(err, "--until-steady"));
	/* No fault: nothing to check. */
	ccb_opts_defaults(&o);
	assert_int_equal(
	    ccb_fault_validate(&o, ccb_cli_command_find("rados write")->mask, 1, err, sizeof(err)),
	    0);
}

/* ---- the timeline's histograms and ticks ----------------------------------------- */

static void test_sech(void **state)
{
	struct ccb_sech h = {0}, g = {0};
	static const uint64_t v[] = {700, 5000, 123456, 9999999, 2000000000ull, 3600000000000ull};

	(void)state;
	assert_int_equal(ccb_sech_percentile(&h, 99), 0);
	/* One value: every percentile is it, to the bucket (within 7 %). */
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct ccb_sech one = {0};
		double got;

		ccb_sech_record(&one, v[i]);
		got = (double)ccb_sech_percentile(&one, 50);
		if (v[i] >= 8192 && v[i] < (1ull << 40))
			assert_true(fabs(got - (double)v[i]) <= 0.07 * (double)v[i]);
		assert_true(got <= (double)v[i]); /* never above the exact maximum */
	}
	/* 99 fast, 1 slow: p50 fast, p99 fast, p100 the slow one. */
	for (int i = 0; i < 99; i++)
		ccb_sech_record(&h, 1000000);
	ccb_sech_record(&h, 2000000000ull);
	assert_true(ccb_sech_percentile(&h, 50) < 1100000);
	assert_true(ccb_sech_percentile(&h, 99) < 1100000);
	assert_int_equal(ccb_sech_percentile(&h, 100), 2000000000ull);
	ccb_sech_merge(&g, &h);
	ccb_sech_merge(&g, &h);
	assert_int_equal(g.count, 200);
	assert_int_equal(g.max_nsec, 2000000000ull);
}

static void test_timeline(void **state)
{
	struct ccb_timeline t;
	struct ccb_tl_client a = {0}, b = {0};

	(void)state;
	ccb_timeline_init(&t);
	/* Client a: seconds 0 and 1; an op that started in second 0 and came
	 * back in second 3 (through a stall) counts in second 0. */
	ccb_timeline_op(&t, &a, 100000000, 110000000, 10000000);
	ccb_timeline_op(&t, &a, 1200000000, 1210000000, 10000000);
	ccb_timeline_op(&t, &a, 900000000, 3500000000ull, 2600000000ull);
	ccb_timeline_error(&t, &a, 3600000000ull);
	/* Client b: second 1 only. */
	ccb_timeline_op(&t, &b, 1500000000, 1505000000, 5000000);
	ccb_timeline_client_end(&t, &a);
	ccb_timeline_client_end(&t, &b);
	assert_true(t.n_secs >= 4);
	assert_int_equal(t.secs[0].count, 2);
	assert_int_equal(t.secs[0].max_nsec, 2600000000ull);
	assert_int_equal(t.secs[1].count, 2);
	assert_int_equal(t.secs[2].count, 0);
	assert_int_equal(t.secs[3].errors, 1);
	/* Ticks: completions at 0.11, 1.21, 3.5 (a) and 1.505 (b). */
	assert_true(ccb_timeline_done_in(&t, 11));
	assert_true(ccb_timeline_done_in(&t, 121));
	assert_true(ccb_timeline_done_in(&t, 150));
	assert_true(ccb_timeline_done_in(&t, 350));
	assert_false(ccb_timeline_done_in(&t, 200));
	assert_false(ccb_timeline_done_in(&t, 100000));
	assert_false(t.truncated);
	ccb_tl_client_free(&a);
	ccb_tl_client_free(&b);
	ccb_timeline_free(&t);
}

/* ---- phases on synthetic timelines -------------------------------------------------- */

#define RUN_S 20

struct synth {
	double bytes[RUN_S], ops[RUN_S];
	struct ccb_sech secs[RUN_S];
	struct ccb_fault_sample samples[RUN_S];
	uint64_t done[(RUN_S * 100) / 64 + 1];
	double faults[4];
	struct ccb_fault_phase_in in;
};

/* 100 ops a second of 1 ms (@p slow_from..@p slow_to: 50 ms), completions
 * in every tick but [@p stall_a, @p stall_b); samples at each whole second. */
static void synth_init(struct synth *s, double stall_a, double stall_b, int slow_from, int slow_to)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < RUN_S; i++) {
		uint64_t lat = i >= slow_from && i < slow_to ? 50000000 : 1000000;

		s->ops[i] = 100;
		s->bytes[i] = 100 * 4096;
		for (int k = 0; k < 100; k++)
			ccb_sech_record(&s->secs[i], lat);
		s->samples[i] = (struct ccb_fault_sample){.t_s = i,
		                                          .ok = true,
		                                          .epoch = 10,
		                                          .osds = 3,
		                                          .up = 3,
		                                          .in = 3,
		                                          .pgs = 64,
		                                          .clean = 64};
	}
	for (int t = 0; t < RUN_S * 100; t++)
		if (!(t >= (int)lround(stall_a * 100) && t < (int)lround(stall_b * 100)))
			s->done[t / 64] |= 1ull << (t % 64);
	s->in = (struct ccb_fault_phase_in){.run_s = RUN_S,
	                                    .bytes = s->bytes,
	                                    .ops = s->ops,
	                                    .secs = s->secs,
	                                    .n_secs = RUN_S,
	                                    .samples = s->samples,
	                                    .n_samples = RUN_S,
	                                    .fault_s = s->faults,
	                                    .done = s->done,
	                                    .done_words = sizeof(s->done) / sizeof(s->done[0]),
	                                    .tick_s = 0.01};
}

static void set_state(struct synth *s, int from, int to, uint32_t clean, uint32_t degraded,
                      uint32_t recovering)
{
	for (int i = from; i < to && i < RUN_S; i++) {
		s->samples[i].clean = clean;
		s->samples[i].degraded = degraded;
		s->samples[i].recovering = recovering;
	}
}

static const char *phase_at(const json_t *ph, size_t i, double *from, double *to)
{
	const json_t *p = json_array_get(json_object_get(ph, "phases"), i);

	if (!p)
		return NULL;
	*from = json_number_value(json_object_get(p, "from_s"));
	*to = json_number_value(json_object_get(p, "to_s"));
	return json_string_value(json_object_get(p, "phase"));
}

static double fig(const json_t *ph, const char *key)
{
	return json_number_value(json_object_get(json_object_get(ph, "figures"), key));
}

/* An OSD killed at 4.9 s: I/O stops until 7.0 s; the mon says degraded from
 * 6 s, recovering from 8 s (restarted), clean from 13 s; the recovery's ops
 * are slow. */
static void test_phases_kill(void **state)
{
	struct synth *s = calloc(1, sizeof(*s));
	const char *want[] = {"before", "degraded", "stalled", "degraded", "recovering", "clean"};
	const double from[] = {0, 4.9, 5.0, 7.0, 8.0, 13.0},
	             to[] = {4.9, 5.0, 7.0, 8.0, 13.0, 20.0};
	double a, b;
	json_t *ph, *p;

	(void)state;
	synth_init(s, 5.0, 7.0, 8, 13);
	s->faults[0] = 4.9;
	s->in.n_faults = 1;
	s->ops[5] = s->ops[6] = 0;
	s->bytes[5] = s->bytes[6] = 0;
	memset(&s->secs[5], 0, sizeof(s->secs[5]));
	memset(&s->secs[6], 0, sizeof(s->secs[6]));
	set_state(s, 6, 8, 0, 64, 0);
	set_state(s, 8, 13, 40, 24, 24);
	ph = ccb_fault_phases(&s->in);
	assert_non_null(ph);
	for (size_t i = 0; i < 6; i++) {
		const char *name = phase_at(ph, i, &a, &b);

		if (!name || strcmp(name, want[i]) != 0 || fabs(a - from[i]) > 0.011 ||
		    fabs(b - to[i]) > 0.011)
			fail_msg("phase %zu: want %s [%.2f, %.2f), got %s [%.2f, %.2f)", i, want[i],
			         from[i], to[i], name ? name : "(none)", a, b);
	}
	assert_null(phase_at(ph, 6, &a, &b));
	/* The pause: 2.0 s from 5.0, and 2.1 s from the fault to the first completion. */
	assert_true(fabs(fig(ph, "pause_s") - 2.0) < 0.011);
	assert_true(fabs(fig(ph, "pause_from_s") - 5.0) < 0.011);
	/* Ops to PGs without the OSD came back until the stall began. */
	assert_true(fabs(fig(ph, "first_completion_after_s")) < 0.011);
	assert_false(json_is_true(json_object_get(json_object_get(ph, "figures"), "pause_open")));
	/* Clean again 8.1 s after the fault; the recovery 50 times slower at p99. */
	assert_true(fabs(fig(ph, "time_to_clean_s") - 8.1) < 0.011);
	assert_true(fabs(fig(ph, "recovering_s") - 5.0) < 0.011);
	assert_true(fabs(fig(ph, "stalled_s") - 2.0) < 0.011);
	assert_true(fig(ph, "recovery_slowdown") > 40 && fig(ph, "recovery_slowdown") < 60);
	assert_true(fabs(fig(ph, "before_p99_us") - 1000) < 70);
	/* The stalled phase has no ops; the others theirs. */
	p = json_array_get(json_object_get(ph, "phases"), 2);
	assert_true(json_number_value(json_object_get(p, "ops")) == 0);
	assert_true(json_is_null(json_object_get(p, "p99_us")));
	p = json_array_get(json_object_get(ph, "phases"), 0);
	assert_true(fabs(json_number_value(json_object_get(p, "iops")) - 100) < 1);
	/* Each second's phase, for the series. */
	assert_string_equal(
	    json_string_value(json_array_get(json_object_get(ph, "second_phase"), 5)), "stalled");
	assert_string_equal(
	    json_string_value(json_array_get(json_object_get(ph, "second_phase"), 19)), "clean");
	json_decref(ph);
	/* The fault at the stall's start: 2.0 s to the first completion. */
	s->faults[0] = 5.0;
	ph = ccb_fault_phases(&s->in);
	assert_true(fabs(fig(ph, "first_completion_after_s") - 2.0) < 0.011);
	assert_string_equal(phase_at(ph, 0, &a, &b), "before");
	assert_true(fabs(b - 5.0) < 0.011);
	assert_string_equal(phase_at(ph, 1, &a, &b), "stalled");
	json_decref(ph);
	free(s);
}

/* A fault the cluster never shows (a flag): the phase before goes on; a
 * stretch with no completion shorter than the threshold is no stall, but
 * is the pause. */
static void test_phases_no_effect(void **state)
{
	struct synth *s = calloc(1, sizeof(*s));
	json_t *ph;
	double a, b;

	(void)state;
	synth_init(s, 9.0, 9.3, 0, 0);
	s->faults[0] = 5.0;
	s->in.n_faults = 1;
	ph = ccb_fault_phases(&s->in);
	assert_non_null(ph);
	assert_string_equal(phase_at(ph, 0, &a, &b), "before");
	assert_true(a == 0 && b == RUN_S);
	assert_null(phase_at(ph, 1, &a, &b));
	assert_true(fabs(fig(ph, "pause_s") - 0.3) < 0.011);
	assert_true(
	    json_is_null(json_object_get(json_object_get(ph, "figures"), "time_to_clean_s")));
	json_decref(ph);
	/* No fault fired: all before, no pause. */
	s->in.n_faults = 0;
	ph = ccb_fault_phases(&s->in);
	assert_string_equal(phase_at(ph, 0, &a, &b), "before");
	assert_null(phase_at(ph, 1, &a, &b));
	assert_null(json_object_get(json_object_get(ph, "figures"), "pause_s"));
	json_decref(ph);
	free(s);
}

/* The stall threshold is twice the longest stretch before the first fault;
 * a stretch still open at the end is the pause, open. */
static void test_phases_threshold(void **state)
{
	struct synth *s = calloc(1, sizeof(*s));
	json_t *ph;
	double a, b;

	(void)state;
	synth_init(s, 2.0, 2.4, 0, 0); /* 0.4 s before the fault: threshold 0.8 s */
	for (int t = 1000; t < 1060; t++)
		s->done[t / 64] &= ~(1ull << (t % 64)); /* 0.6 s after the fault */
	s->faults[0] = 5.0;
	s->in.n_faults = 1;
	ph = ccb_fault_phases(&s->in);
	assert_true(fabs(fig(ph, "stall_threshold_s") - 0.8) < 0.011);
	assert_true(fabs(fig(ph, "pause_s") - 0.6) < 0.011);
	assert_true(fabs(fig(ph, "stalled_s")) < 1e-9);
	json_decref(ph);
	for (int t = 1500; t < RUN_S * 100; t++)
		s->done[t / 64] &= ~(1ull << (t % 64)); /* nothing from 15 s on */
	ph = ccb_fault_phases(&s->in);
	assert_true(fabs(fig(ph, "pause_s") - 5.0) < 0.011);
	assert_true(json_is_true(json_object_get(json_object_get(ph, "figures"), "pause_open")));
	assert_string_equal(phase_at(ph, 1, &a, &b), "stalled");
	assert_true(fabs(a - 15.0) < 0.011 && b == RUN_S);
	json_decref(ph);
	free(s);
}

/* ---- the cluster's samples ------------------------------------------------------------- */

static void test_parse_status(void **state)
{
	const char *flat =
	    "{\"osdmap\": {\"epoch\": 27, \"num_osds\": 3, \"num_up_osds\": 2, \"num_in_osds\": 3},"
	    " \"pgmap\": {\"num_pgs\": 65, \"recovering_objects_per_sec\": 246,"
	    " \"degraded_objects\": 19183, \"pgs_by_state\": ["
	    "{\"state_name\": \"active+clean\", \"count\": 27},"
	    "{\"state_name\": \"peering\", \"count\": 18},"
	    "{\"state_name\": \"active+undersized+degraded\", \"count\": 11},"
	    "{\"state_name\": \"active+recovery_wait+undersized+degraded+remapped\", \"count\": 6},"
	    "{\"state_name\": \"stale+active+clean\", \"count\": 2},"
	    "{\"state_name\": \"active+clean+scrubbing+deep\", \"count\": 1}]}}";
	const char *nested =
	    "{\"osdmap\": {\"osdmap\": {\"epoch\": 5, \"num_osds\": 1, "
	    "\"num_up_osds\": 1, \"num_in_osds\": 1}}, \"pgmap\": {\"num_pgs\": 8, "
	    "\"pgs_by_state\": [{\"state_name\": \"active+clean\", \"count\": 8}]}}";
	struct ccb_fault_sample s = {.t_s = 3.5};
	json_t *j = json_loads(flat, 0, NULL);

	(void)state;
	assert_true(ccb_fault_parse_status(j, &s));
	assert_true(s.t_s == 3.5);
	assert_int_equal(s.epoch, 27);
	assert_int_equal(s.up, 2);
	assert_int_equal(s.pgs, 65);
	assert_int_equal(s.clean, 28); /* 27 + the deep scrub; not the stale ones */
	assert_int_equal(s.peering, 18);
	assert_int_equal(s.degraded, 17);
	assert_int_equal(s.recovering, 6);
	assert_int_equal(s.stale, 2);
	assert_int_equal(s.inactive, 18);
	assert_true(s.recovering_objects_s == 246);
	assert_true(strstr(s.states, "18 peering") != NULL);
	assert_false(ccb_fault_sample_clean(&s));
	assert_true(ccb_fault_sample_moving(&s));
	json_decref(j);
	j = json_loads(nested, 0, NULL);
	assert_true(ccb_fault_parse_status(j, &s));
	assert_int_equal(s.epoch, 5);
	assert_true(ccb_fault_sample_clean(&s));
	json_decref(j);
	j = json_loads("{\"health\": {}}", 0, NULL);
	assert_false(ccb_fault_parse_status(j, &s));
	json_decref(j);
}

/* ---- undo records --------------------------------------------------------------------- */

static json_t *record_of(const char *fault, const json_t *before)
{
	struct ccb_fault_schedule *s = calloc(1, sizeof(*s));
	struct ccb_opts o;
	char err[1024];
	json_t *rec;

	ccb_opts_defaults(&o);
	o.conf = "/etc/ceph/ceph.conf";
	assert_int_equal(parse(s, err, sizeof(err), fault, NULL), 0);
	rec = ccb_fault_undo_record(&o, FSID, "/tmp", s, 0, before);
	free(s);
	return rec;
}

static void test_records(void **state)
{
	static const char *const ok[] = {"5s:osd-out:1",
	                                 "5s:osd-in:2",
	                                 "5s:set:noout",
	                                 "5s:unset:nobackfill",
	                                 "5s:config:osd/osd_max_backfills=4",
	                                 "5s:exec:true;undo:echo back 'two words'"};
	char why[512];
	json_t *rec, *before = json_string("1");

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		rec = record_of(ok[i], before);
		assert_non_null(rec);
		if (ccb_fault_check_record(rec, why, sizeof(why)) != 0)
			fail_msg("%s: %s", ok[i], why);
		json_decref(rec);
	}
	/* No undo: no record. */
	assert_null(record_of("5s:osd-down:1", NULL));
	assert_null(record_of("5s:exec:true", NULL));
	/* The shapes: what undo each fault has. */
	rec = record_of("5s:osd-out:1", NULL);
	assert_string_equal(json_string_value(json_object_get(rec, "undo")), "osd-in");
	assert_string_equal(json_string_value(json_object_get(rec, "fsid")), FSID);
	assert_string_equal(json_string_value(json_object_get(rec, "entity")), "client.admin");
	/* Tampered: refused, nothing touched. */
	json_object_set_new(rec, "osd", json_integer(-3));
	assert_int_equal(ccb_fault_check_record(rec, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "osd is not an OSD id"));
	json_object_set_new(rec, "osd", json_integer(1));
	json_object_set_new(rec, "fsid", json_string("not-a-fsid"));
	assert_int_equal(ccb_fault_check_record(rec, why, sizeof(why)), -EINVAL);
	json_object_set_new(rec, "fsid", json_string(FSID));
	json_object_set_new(rec, "undo", json_string("osd-purge"));
	assert_int_equal(ccb_fault_check_record(rec, why, sizeof(why)), -EINVAL);
	json_decref(rec);
	rec = record_of("5s:set:noout", NULL);
	json_object_set_new(rec, "flag", json_string("sortbitwise"));
	assert_int_equal(ccb_fault_check_record(rec, why, sizeof(why)), -EINVAL);
	json_decref(rec);
	rec = record_of("5s:exec:true;undo:true", NULL);
	assert_null(json_object_get(rec, "fsid")); /* a command: this host's only */
	json_object_set_new(rec, "dir", json_string("relative/dir"));
	assert_int_equal(ccb_fault_check_record(rec, why, sizeof(why)), -EINVAL);
	json_object_set_new(rec, "dir", json_string("/tmp"));
	json_array_append_new(json_object_get(rec, "argv"), json_integer(3));
	assert_int_equal(ccb_fault_check_record(rec, why, sizeof(why)), -EINVAL);
	json_object_set_new(rec, "argv", json_array());
	assert_int_equal(ccb_fault_check_record(rec, why, sizeof(why)), -EINVAL);
	json_decref(rec);
	json_decref(before);
}

/* What `restore -c` takes from the cluster: a mon fault's record, never a
 * command to run. */
static void test_record_cluster_copy(void **state)
{
	const char *key = "ccbench/run/0c6b3f1e-2a4d-4e8f-9b7a-6d5c4b3a2f10/4242-1796194515-3";
	json_t *run = json_pack("{s:s, s:s, s:s, s:i, s:i, s:s, s:i}", "host", "a", "boot_id",
	                        "0c6b3f1e-2a4d-4e8f-9b7a-6d5c4b3a2f10", "pid_ns", "pid:[1]", "pid",
	                        4242, "starttime", 1796194515, "command", "ccbench", "time", 1);
	static const char *const faults[] = {"5s:osd-out:1", "5s:set:noout",
	                                     "5s:config:osd/osd_max_backfills=4",
	                                     "5s:exec:true;undo:true"};

	(void)state;
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		json_t *rec = record_of(faults[i], NULL), *doc = NULL, *copy;
		char *text;
		const char *why;

		json_object_set_new(rec, "what", json_string("w"));
		json_object_set_new(rec, "cluster_key", json_string(key));
		if (!json_object_get(rec, "fsid"))
			json_object_set_new(rec, "fsid", json_string(FSID));
		copy = json_pack("{s:i, s:O, s:o}", "ccbench_cluster_record", 1, "run", run,
		                 "record", rec);
		text = json_dumps(copy, JSON_COMPACT);
		why = ccb_restore_check_copy(key, text, FSID, &doc);
		if (i < 3 && why)
			fail_msg("%s: refused: %s", faults[i], why);
		if (i == 3)
			assert_non_null(why);
		json_decref(doc);
		free(text);
		json_decref(copy);
	}
	json_decref(run);
}

/* A run killed with a command's undo pending: its record in the state
 * file, which `restore` runs (in the run's directory) from another
 * process. */
static void test_record_roundtrip(void **state)
{
	char dir[] = "/tmp/ccb-fault-test.XXXXXX", work[PATH_MAX], mark[PATH_MAX + 8], msg[2048];
	json_t *files = NULL, *entries;
	int st;
	pid_t pid;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(work, sizeof(work), "%s/work", dir);
	assert_int_equal(mkdir(work, 0700), 0);
	snprintf(mark, sizeof(mark), "%s/marker", work);
	setenv("CCB_STATE_DIR", dir, 1);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct ccb_fault_schedule *s = calloc(1, sizeof(*s));
		struct ccb_opt_list l = {.v = {"5s:exec:true;undo:touch marker"}, .n = 1};
		struct ccb_opts o;
		char err[512];
		json_t *rec;

		ccb_opts_defaults(&o);
		if (!s || ccb_fault_parse(&l, s, err, sizeof(err)) < 0)
			_exit(2);
		rec = ccb_fault_undo_record(&o, FSID, work, s, 0, NULL);
		if (ccb_undo_push_state("run `touch marker`", NULL, NULL, NULL, rec) <= 0)
			_exit(3);
		_exit(0); /* killed: no unwind */
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(ccb_undo_state_stranded(&files), 0);
	assert_int_equal(json_array_size(files), 1);
	entries = json_object_get(json_array_get(files, 0), "entries");
	assert_int_equal(json_array_size(entries), 1);
	assert_int_equal(ccb_fault_check_record(json_array_get(entries, 0), msg, sizeof(msg)), 0);
	assert_int_equal(access(mark, F_OK), -1);
	assert_int_equal(ccb_fault_restore(json_array_get(entries, 0), NULL, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "ran `touch marker`"));
	assert_int_equal(access(mark, F_OK), 0);
	assert_int_equal(
	    ccb_undo_state_resolve(
	        json_string_value(json_object_get(json_array_get(files, 0), "file")), NULL),
	    0);
	json_decref(files);
	unlink(mark);
	rmdir(work);
	assert_int_equal(rmdir(dir), 0);
	unsetenv("CCB_STATE_DIR");
}

/* ---- explain's fault kinds, from a saved result alone ------------------------------ */

/* The text of the first entry of @p kind in ccb_explain(@p r), or "". */
static const char *explained(json_t *r, const char *kind, json_t **keep)
{
	json_t *ex = ccb_explain(r, NULL), *e;
	size_t i;

	*keep = ex;
	json_array_foreach(ex, i,
	                   e) if (strcmp(json_string_value(json_object_get(e, "kind")), kind) ==
	                          0) return json_string_value(json_object_get(e, "text"));
	return "";
}

static void test_explain(void **state)
{
	const char *doc =
	    "{\"seconds\": 20, \"fault\": {"
	    "\"schedule\": [{\"fault\": \"3s:exec:kill -KILL 7\", \"action\": \"exec\", "
	    "\"fired\": true, \"fired_s\": 3.0},"
	    " {\"fault\": \"15s:undo:osd-start\", \"action\": \"undo\", \"fired\": true, "
	    "\"fired_s\": 15.0}],"
	    "\"events\": [{\"t_s\": 10.0, \"kind\": \"osd-down\", \"text\": \"osd.1 marked down\"},"
	    " {\"t_s\": 16.0, \"kind\": \"osd-up\", \"text\": \"osd.1 up\"}],"
	    "\"settings\": {\"values\": {\"osd_heartbeat_grace\": \"6\", \"osd_op_queue\": "
	    "\"mclock_scheduler\", \"osd_mclock_profile\": \"balanced\"}},"
	    "\"phases\": [{\"phase\": \"before\"}, {\"phase\": \"recovering\"}, {\"phase\": "
	    "\"clean\"}],"
	    "\"left\": [\"osd.2 down at the end\"],"
	    "\"figures\": {\"pause_s\": 9.9, \"pause_from_s\": 3.1, \"pause_to_s\": 13.0, "
	    "\"pause_open\": false, \"before_p99_us\": 10000, \"recovery_p99_us\": 34000, "
	    "\"recovering_s\": 4, \"degraded_s\": 2, \"time_to_clean_s\": 16}}}";
	json_t *r, *ex;
	const char *t;

	(void)state;
	r = json_loads(doc, 0, NULL);
	t = explained(r, "fault-pause", &ex);
	/* Marked down 7 s after the kill, after the 6 s grace: the grace set it. */
	assert_non_null(strstr(t, "client I/O stopped for 9.9 s at 3.1 s"));
	assert_non_null(strstr(t, "marked osd.1 down 7 s after the fault"));
	assert_non_null(strstr(t, "osd_heartbeat_grace (6 s)"));
	json_decref(ex);
	t = explained(r, "fault-slowdown", &ex);
	assert_non_null(strstr(t, "3.4 times its level before"));
	assert_non_null(strstr(t, "mClock profile `balanced`"));
	json_decref(ex);
	t = explained(r, "fault-clean", &ex);
	assert_non_null(strstr(t, "active+clean again 16.0 s after the first fault"));
	json_decref(ex);
	t = explained(r, "fault-left", &ex);
	assert_string_equal(t, "osd.2 down at the end");
	json_decref(ex);
	/* Marked down 1 s after: sooner than the grace, a refused connection. */
	json_object_set_new(
	    json_array_get(json_object_get(json_object_get(r, "fault"), "events"), 0), "t_s",
	    json_real(4.0));
	t = explained(r, "fault-pause", &ex);
	assert_non_null(strstr(t, "osd_fast_fail_on_connection_refused"));
	json_decref(ex);
	/* A pause that began after the restart: the OSD coming back. */
	json_object_set_new(json_object_get(json_object_get(r, "fault"), "figures"), "pause_from_s",
	                    json_real(15.8));
	json_object_set_new(json_object_get(json_object_get(r, "fault"), "figures"), "pause_to_s",
	                    json_real(17.0));
	t = explained(r, "fault-pause", &ex);
	assert_non_null(strstr(t, "osd.1 up at 16 s, and its PGs peered again"));
	json_decref(ex);
	/* Under a second: no pause to speak of. */
	json_object_set_new(json_object_get(json_object_get(r, "fault"), "figures"), "pause_s",
	                    json_real(0.4));
	t = explained(r, "fault-pause", &ex);
	assert_non_null(strstr(t, "no pause to speak of"));
	json_decref(ex);
	json_decref(r);
}

/* osd-down of a live OSD: it contests it, down and up between two samples
 * of the map (t_fault_paths: a 2.8 s pause on librbd); never the grace. */
static void test_explain_osd_down(void **state)
{
	const char *doc =
	    "{\"seconds\": 6, \"fault\": {"
	    "\"schedule\": [{\"fault\": \"2s:osd-down:0\", \"action\": \"osd-down\", "
	    "\"fired\": true, \"fired_s\": 2.0}],"
	    "\"events\": [{\"t_s\": 3.0, \"kind\": \"osd-down\", \"text\": \"osd.0 marked down\"},"
	    " {\"t_s\": 3.0, \"kind\": \"osd-up\", \"text\": \"osd.0 up again\"}],"
	    "\"settings\": {\"values\": {\"osd_heartbeat_grace\": \"6\"}},"
	    "\"phases\": [{\"phase\": \"before\"}, {\"phase\": \"stalled\"}, {\"phase\": "
	    "\"clean\"}],"
	    "\"figures\": {\"pause_s\": 2.8, \"pause_from_s\": 2.1, \"pause_to_s\": 4.9, "
	    "\"pause_open\": false}}}";
	json_t *r = json_loads(doc, 0, NULL), *ex;
	const char *t;

	(void)state;
	assert_non_null(r);
	t = explained(r, "fault-pause", &ex);
	assert_non_null(strstr(t, "client I/O stopped for 2.8 s at 2.1 s"));
	assert_non_null(strstr(t, "contested it, up again at 3 s"));
	assert_null(strstr(t, "grace"));
	json_decref(ex);
	/* Not one tick without a completion (libcephfs' buffer, t_fault_paths
	 * in CI): the pause line says so, never nothing. */
	json_object_set_new(json_object_get(json_object_get(r, "fault"), "figures"), "pause_s",
	                    json_real(0.0));
	json_object_set_new(json_object_get(json_object_get(r, "fault"), "figures"), "pause_from_s",
	                    json_null());
	json_object_set_new(json_object_get(r, "fault"), "resolution_s", json_real(0.01));
	t = explained(r, "fault-pause", &ex);
	assert_non_null(strstr(t, "no pause: a completion in every 10 ms after the first fault "
	                          "('2s:osd-down:0' at 2.0 s); an OSD marked down"));
	json_decref(ex);
	json_decref(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_ok),
	    cmocka_unit_test(test_parse_bad),
	    cmocka_unit_test(test_validate),
	    cmocka_unit_test(test_sech),
	    cmocka_unit_test(test_timeline),
	    cmocka_unit_test(test_phases_kill),
	    cmocka_unit_test(test_phases_no_effect),
	    cmocka_unit_test(test_phases_threshold),
	    cmocka_unit_test(test_parse_status),
	    cmocka_unit_test(test_records),
	    cmocka_unit_test(test_record_cluster_copy),
	    cmocka_unit_test(test_record_roundtrip),
	    cmocka_unit_test(test_explain),
	    cmocka_unit_test(test_explain_osd_down),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
