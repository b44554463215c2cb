/*
 * A result's "attribution" as data (attr_json.h): built from the merged
 * arrays, merged across results, and summarized for its readers.
 */
#include <ccbench/attr_json.h>
#include <ccbench/hist_json.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_t *ccb_attr_osd_entry(json_t *osds, int osd)
{
	json_t *e;
	size_t i;

	json_array_foreach(osds, i, e) if (json_integer_value(json_object_get(e, "osd")) == osd &&
	                                   json_is_integer(json_object_get(e, "osd"))) return e;
	e = json_pack("{s:i}", "osd", osd);
	if (!e || json_array_append_new(osds, e) < 0)
		return NULL;
	return e;
}

void ccb_attr_client_json(json_t *e, const struct ccb_attr_stat *st, const struct ccb_hist *h,
                          uint64_t total_ops)
{
	json_t *lat;

	if (!e)
		return;
	lat = json_pack("{s:I, s:f, s:f}", "n", (json_int_t)st->ops, "mean",
	                st->ops ? (double)st->sum_nsec / (double)st->ops / 1e3 : 0.0, "max",
	                (double)st->max_nsec / 1e3);
	if (h && h->count) {
		json_object_set_new(lat, "p50",
		                    json_real((double)ccb_hist_percentile(h, 50) / 1e3));
		json_object_set_new(lat, "p90",
		                    json_real((double)ccb_hist_percentile(h, 90) / 1e3));
		json_object_set_new(lat, "p99",
		                    json_real((double)ccb_hist_percentile(h, 99) / 1e3));
		json_object_set_new(e, "hist", ccb_hist_to_json(h));
	} else {
		json_object_del(e, "hist");
	}
	json_object_set_new(e, "ops", json_integer((json_int_t)st->ops));
	json_object_set_new(e, "bytes", json_integer((json_int_t)st->bytes));
	json_object_set_new(e, "share",
	                    json_real(total_ops ? (double)st->ops / (double)total_ops : 0.0));
	json_object_set_new(e, "latency_us", lat);
}

static int by_osd(const void *x, const void *y)
{
	json_int_t a = json_integer_value(json_object_get(*(json_t *const *)x, "osd"));
	json_int_t b = json_integer_value(json_object_get(*(json_t *const *)y, "osd"));

	return a < b ? -1 : a > b;
}

void ccb_attr_sort_osds(json_t *osds)
{
	size_t n = json_array_size(osds);
	json_t **v = calloc(n ? n : 1, sizeof(*v));

	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(osds, i));
	qsort(v, n, sizeof(*v), by_osd);
	json_array_clear(osds);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(osds, v[i]);
	free(v);
}

/* An entry's client figures as a stat (and its histogram, when it checks). */
static bool entry_stat(const json_t *e, struct ccb_attr_stat *st, struct ccb_hist *h, bool *has_h,
                       char *why, size_t why_len)
{
	const json_t *lat = json_object_get(e, "latency_us");
	json_int_t ops = json_integer_value(json_object_get(e, "ops"));
	json_int_t bytes = json_integer_value(json_object_get(e, "bytes"));
	double mean = json_number_value(json_object_get(lat, "mean"));
	double max = json_number_value(json_object_get(lat, "max"));

	memset(st, 0, sizeof(*st));
	*has_h = false;
	if (!json_is_integer(json_object_get(e, "ops")) || ops < 0 || bytes < 0 ||
	    !isfinite(mean) || mean < 0 || !isfinite(max) || max < 0 || max > 1e15 ||
	    mean * 1e3 * (double)ops > 1e19)
		return false;
	st->ops = (uint64_t)ops;
	st->bytes = (uint64_t)bytes;
	st->sum_nsec = (uint64_t)(mean * 1e3 * (double)ops);
	st->max_nsec = (uint64_t)(max * 1e3);
	if (json_object_get(e, "hist")) {
		if (ccb_hist_from_json(json_object_get(e, "hist"), h, why, why_len) == 0 &&
		    h->count == st->ops) {
			*has_h = true;
			/* The histogram's sums are exact; the mean was rounded. */
			st->sum_nsec = (uint64_t)h->sum_nsec;
		} else if (why[0] == '\0')
			snprintf(why, why_len, "osd.%lld: histogram count is not its ops",
			         (long long)json_integer_value(json_object_get(e, "osd")));
	}
	return true;
}

/* Add @p src's client figures of one OSD into @p dst's entry. */
static void merge_entry(json_t *d, const json_t *s, char *why, size_t why_len)
{
	struct ccb_attr_stat a, b;
	struct ccb_hist *ha = malloc(sizeof(*ha)), *hb = malloc(sizeof(*hb));
	bool fresh = !json_object_get(d, "ops"), has_a = false, has_b = false;

	if (!ha || !hb || !entry_stat(s, &b, hb, &has_b, why, why_len))
		goto out;
	/* A new entry starts from nothing: an empty histogram is every
	 * member's so far. */
	if (fresh || !entry_stat(d, &a, ha, &has_a, why, why_len)) {
		memset(&a, 0, sizeof(a));
		ccb_hist_init(ha);
		has_a = fresh;
	}
	a.ops += b.ops;
	a.bytes += b.bytes;
	a.sum_nsec += b.sum_nsec;
	if (b.max_nsec > a.max_nsec)
		a.max_nsec = b.max_nsec;
	/* Percentiles only from a histogram of every member's ops. */
	if (has_a && has_b)
		ccb_hist_merge(ha, hb);
	ccb_attr_client_json(d, &a, has_a && has_b ? ha : NULL, 0);
out:
	free(ha);
	free(hb);
}

/* Shares read again over the merged total: the client's ops, which count
 * the ops of no OSD too, else the entries' sum. */
static void reshare(json_t *osds, const json_t *client)
{
	uint64_t total = 0;
	json_t *e;
	size_t i;

	json_array_foreach(osds, i, e) total +=
	    (uint64_t)json_integer_value(json_object_get(e, "ops"));
	if (json_integer_value(json_object_get(client, "ops")) > (json_int_t)total)
		total = (uint64_t)json_integer_value(json_object_get(client, "ops"));
	json_array_foreach(osds, i, e) json_object_set_new(
	    e, "share",
	    json_real(total ? (double)json_integer_value(json_object_get(e, "ops")) / (double)total
	                    : 0.0));
}

int ccb_attr_merge(json_t *dst, const json_t *src, char *why, size_t why_len)
{
	json_t *dosds = json_object_get(dst, "osds");
	const json_t *sosds = json_object_get(src, "osds"), *e, *dc, *sc;
	size_t i;

	why[0] = '\0';
	if (!json_is_object(src) || !json_is_array(sosds) || !json_is_array(dosds)) {
		snprintf(why, why_len, "not an attribution (no osds list)");
		return -EINVAL;
	}
	json_array_foreach(sosds, i, e)
	{
		json_t *d;
		json_int_t osd = json_integer_value(json_object_get(e, "osd"));

		if (!json_is_integer(json_object_get(e, "osd")) || osd < 0 || osd > 1000000)
			continue;
		d = ccb_attr_osd_entry(dosds, (int)osd);
		if (!d)
			return -ENOMEM;
		if (json_object_get(e, "ops"))
			merge_entry(d, e, why, why_len);
		/* The OSD's own view: the same OSD, about the same window. */
		if (!json_object_get(d, "perf") && json_object_get(e, "perf"))
			json_object_set(d, "perf", json_object_get(e, "perf"));
	}
	ccb_attr_sort_osds(dosds);
	dc = json_object_get(dst, "client");
	sc = json_object_get(src, "client");
	if (json_is_object(dc) && json_is_object(sc)) {
		static const char *const keys[] = {"ops", "unmapped_ops", "spanning_ops"};

		for (size_t k = 0; k < 3; k++)
			json_object_set_new(
			    (json_t *)dc, keys[k],
			    json_integer(json_integer_value(json_object_get(dc, keys[k])) +
			                 json_integer_value(json_object_get(sc, keys[k]))));
	} else if (!json_is_object(dc) && json_is_object(sc)) {
		json_object_set(dst, "client", (json_t *)sc);
	}
	reshare(dosds, json_object_get(dst, "client"));
	if (!json_object_get(dst, "slow_ops") && json_object_get(src, "slow_ops"))
		json_object_set(dst, "slow_ops", json_object_get(src, "slow_ops"));
	return 0;
}

static double pct_of(const json_t *e, const char *key)
{
	const json_t *v = json_object_get(json_object_get(e, "latency_us"), key);

	return json_is_number(v) && json_number_value(v) >= 0 ? json_number_value(v) : -1;
}

static double p99_of(const json_t *e)
{
	return pct_of(e, "p99");
}

static double mean_of(const json_t *e)
{
	return json_number_value(json_object_get(json_object_get(e, "latency_us"), "mean"));
}

double ccb_attr_osd_p99(const json_t *attribution, int osd)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(attribution, "osds"), i,
	                   e) if (json_integer_value(json_object_get(e, "osd")) == osd &&
	                          json_integer_value(json_object_get(e, "ops")) >
	                              0) return p99_of(e);
	return -1;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* Median of @p v (@p n of them, sorted here). */
static double median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The OSDs with enough ops but @p skip: the median of their @p key
 * percentile into *@p med, their ops-weighted mean into *@p mean.
 * @p buf holds one double per OSD. */
static void others_of(const json_t *osds, int skip, const char *key, double *buf, double *med,
                      double *mean)
{
	const json_t *e;
	size_t i, k = 0;
	double sum = 0;
	uint64_t ops_all = 0;

	json_array_foreach(osds, i, e)
	{
		json_int_t ops = json_integer_value(json_object_get(e, "ops"));
		double p = pct_of(e, key);

		if (ops < CCB_ATTR_MIN_OPS || p < 0 ||
		    json_integer_value(json_object_get(e, "osd")) == skip)
			continue;
		buf[k++] = p;
		ops_all += (uint64_t)ops;
		sum += mean_of(e) * (double)ops;
	}
	*med = median(buf, k);
	*mean = ops_all ? sum / (double)ops_all : 0;
}

bool ccb_attr_summarize(const json_t *attribution, struct ccb_attr_sum *s)
{
	const json_t *osds = json_object_get(attribution, "osds"), *e;
	size_t n = json_array_size(osds), i, all = 0;
	double *buf = calloc(n ? n : 1, sizeof(*buf)), *every = calloc(n ? n : 1, sizeof(*every));
	double unused;

	memset(s, 0, sizeof(*s));
	s->worst = s->high_few = s->slow = -1;
	if (!buf || !every) {
		free(buf);
		free(every);
		return false;
	}
	s->per_op = json_is_object(json_object_get(attribution, "client"));
	json_array_foreach(osds, i, e)
	{
		json_int_t ops = json_integer_value(json_object_get(e, "ops"));
		double p = p99_of(e), p50 = pct_of(e, "p50");
		int id = (int)json_integer_value(json_object_get(e, "osd"));

		if (ops <= 0)
			continue;
		s->n_osds++;
		s->ops += (uint64_t)ops;
		if (p < 0)
			continue;
		every[all++] = p;
		if (ops < CCB_ATTR_MIN_OPS)
			continue;
		s->n_enough++;
		if (s->worst < 0 || p > s->worst_p99_us) {
			s->worst = id;
			s->worst_p99_us = p;
			s->worst_ops = (uint64_t)ops;
			s->worst_share = json_number_value(json_object_get(e, "share"));
			s->worst_mean_us = mean_of(e);
		}
		if (p50 >= 0 && (s->slow < 0 || p50 > s->slow_p50_us)) {
			s->slow = id;
			s->slow_p50_us = p50;
			s->slow_p99_us = p;
			s->slow_ops = (uint64_t)ops;
			s->slow_share = json_number_value(json_object_get(e, "share"));
			s->slow_mean_us = mean_of(e);
		}
	}
	s->median_p99_us = median(every, all);
	/* The others: every OSD with enough ops but the worst (the slow one). */
	others_of(osds, s->worst, "p99", buf, &s->others_p99_us, &s->others_mean_us);
	others_of(osds, s->slow, "p50", buf, &s->slow_others_p50_us, &s->slow_others_mean_us);
	others_of(osds, s->slow, "p99", buf, &s->slow_others_p99_us, &unused);
	/* The highest p99 among OSDs with too few ops to compare. */
	json_array_foreach(osds, i, e)
	{
		json_int_t ops = json_integer_value(json_object_get(e, "ops"));
		double p = p99_of(e);

		if (ops <= 0 || ops >= CCB_ATTR_MIN_OPS || p <= s->high_few_p99_us)
			continue;
		s->high_few = (int)json_integer_value(json_object_get(e, "osd"));
		s->high_few_p99_us = p;
		s->high_few_ops = (uint64_t)ops;
	}
	free(buf);
	free(every);
	return s->per_op && s->n_osds > 0;
}
