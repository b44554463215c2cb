/*
 * An OSD's perf dump, read under the names each release gives its
 * counters (osd_perf.h), and the deltas around a run.
 */
#include <ccbench/osd_perf.h>

#include <errno.h>
#include <math.h>
#include <string.h>

/* A counter's section and its names, newest last; the first found wins. */
struct counter_name {
	const char *result;
	const char *section;
	const char *names[3];
};

static const struct counter_name counters[CCB_OSDC_N] = {
    [CCB_OSDC_OP_R] = {"op_r_latency", "osd", {"op_r_latency"}},
    [CCB_OSDC_OP_W] = {"op_w_latency", "osd", {"op_w_latency"}},
    [CCB_OSDC_OP_RW] = {"op_rw_latency", "osd", {"op_rw_latency"}},
    [CCB_OSDC_OP_R_PROCESS] = {"op_r_process_latency", "osd", {"op_r_process_latency"}},
    [CCB_OSDC_OP_W_PROCESS] = {"op_w_process_latency", "osd", {"op_w_process_latency"}},
    [CCB_OSDC_BEFORE_QUEUE] = {"op_before_queue_op_lat", "osd", {"op_before_queue_op_lat"}},
    [CCB_OSDC_BEFORE_DEQUEUE] = {"op_before_dequeue_op_lat", "osd", {"op_before_dequeue_op_lat"}},
    [CCB_OSDC_SUBOP_W] = {"subop_w_latency", "osd", {"subop_w_latency"}},
    /* BlueStore's transaction commit: commit_lat until Pacific, then
     * txc_commit_lat (the txc_ counters of Quincy and later). */
    [CCB_OSDC_STORE_COMMIT] = {"store_commit_latency",
                               "bluestore",
                               {"txc_commit_lat", "commit_lat"}},
};

static const char *const counts[CCB_OSDN_N] = {
    [CCB_OSDN_OP_R] = "op_r",
    [CCB_OSDN_OP_W] = "op_w",
    [CCB_OSDN_OP_RW] = "op_rw",
    [CCB_OSDN_SUBOP_W] = "subop_w",
    [CCB_OSDN_OP_IN_BYTES] = "op_in_bytes",
    [CCB_OSDN_OP_OUT_BYTES] = "op_out_bytes",
};

const char *ccb_osd_counter_name(unsigned c)
{
	return c < CCB_OSDC_N ? counters[c].result : NULL;
}

const char *ccb_osd_count_name(unsigned c)
{
	return c < CCB_OSDN_N ? counts[c] : NULL;
}

/* A count: a whole number from 0 to 2^53 (an integer, or a real when the
 * reply had to be read with reals: ccb_cluster_osd_json_lenient()). */
static bool read_count(const json_t *v, uint64_t *n)
{
	double d = json_number_value(v);

	if (!json_is_number(v) || !(d >= 0) || d > 9007199254740992.0 || d != floor(d))
		return false;
	*n = json_is_integer(v) ? (uint64_t)json_integer_value(v) : (uint64_t)d;
	return true;
}

/* {avgcount, sum}: a count and seconds, both sane. */
static bool read_avg(const json_t *v, uint64_t *n, double *sum)
{
	const json_t *s = json_object_get(v, "sum");
	double d = json_number_value(s);

	if (!read_count(json_object_get(v, "avgcount"), n) || !json_is_number(s) || !isfinite(d) ||
	    d < 0)
		return false;
	*sum = d;
	return true;
}

int ccb_osd_perf_parse(const json_t *dump, struct ccb_osd_perf *p)
{
	const json_t *osd = json_object_get(dump, "osd");

	memset(p, 0, sizeof(*p));
	if (!json_is_object(osd))
		return -EBADMSG;
	for (unsigned c = 0; c < CCB_OSDC_N; c++) {
		const json_t *sec = json_object_get(dump, counters[c].section);

		for (unsigned k = 0; k < 3 && counters[c].names[k] && !p->have[c]; k++)
			p->have[c] = read_avg(json_object_get(sec, counters[c].names[k]),
			                      &p->count[c], &p->sum_s[c]);
	}
	for (unsigned c = 0; c < CCB_OSDN_N; c++)
		p->have_n[c] = read_count(json_object_get(osd, counts[c]), &p->n[c]);
	return 0;
}

/* Counters only grow while an OSD runs: one that went back restarted. */
static bool went_back(const struct ccb_osd_perf *b, const struct ccb_osd_perf *a)
{
	for (unsigned c = 0; c < CCB_OSDC_N; c++)
		if (b->have[c] && a->have[c] && a->count[c] < b->count[c])
			return true;
	for (unsigned c = 0; c < CCB_OSDN_N; c++)
		if (b->have_n[c] && a->have_n[c] && a->n[c] < b->n[c])
			return true;
	return false;
}

json_t *ccb_osd_perf_delta(const struct ccb_osd_perf *before, const struct ccb_osd_perf *after)
{
	json_t *d, *cs;

	if (went_back(before, after))
		return json_pack("{s:b}", "restarted", 1);
	d = json_object();
	cs = json_object();
	if (!d || !cs || json_object_set_new(d, "counters", cs) < 0) {
		json_decref(d);
		return NULL;
	}
	for (unsigned c = 0; c < CCB_OSDC_N; c++) {
		uint64_t n;
		double s;

		if (!before->have[c] || !after->have[c])
			continue;
		n = after->count[c] - before->count[c];
		s = after->sum_s[c] - before->sum_s[c];
		if (!n)
			continue;
		json_object_set_new(cs, counters[c].result,
		                    json_pack("{s:I, s:f}", "n", (json_int_t)n, "mean_us",
		                              s > 0 ? s / (double)n * 1e6 : 0.0));
	}
	for (unsigned c = 0; c < CCB_OSDN_N; c++)
		if (before->have_n[c] && after->have_n[c])
			json_object_set_new(d, counts[c],
			                    json_integer((json_int_t)(after->n[c] - before->n[c])));
	return d;
}
