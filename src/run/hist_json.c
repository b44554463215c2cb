/*
 * A histogram as a record and back (see hist_json.h). The record keeps
 * the exact bucket counts, so merging records read back gives the same
 * percentiles as one histogram fed every sample: never an average of
 * percentiles.
 */
#include <ccbench/hist_json.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>

/* Counts beyond 2^53 would not survive a JSON reader that uses doubles. */
#define COUNT_MAX (1ull << 53)

json_t *ccb_hist_to_json(const struct ccb_hist *h)
{
	json_t *b = json_array(), *j;

	if (!b)
		return NULL;
	for (unsigned i = 0; i < CCB_HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		if (json_array_append_new(b, json_integer((json_int_t)i)) < 0 ||
		    json_array_append_new(b, json_integer((json_int_t)h->buckets[i])) < 0) {
			json_decref(b);
			return NULL;
		}
	}
	j = json_pack("{s:i, s:I, s:I, s:I, s:f, s:f, s:o}", "sub_bits", CCB_HIST_SUB_BITS, "count",
	              (json_int_t)h->count, "min_ns", (json_int_t)(h->count ? h->min_nsec : 0),
	              "max_ns", (json_int_t)h->max_nsec, "sum_ns", h->sum_nsec, "sumsq_ns",
	              h->sumsq_nsec, "buckets", b);
	return j;
}

static int bad(struct ccb_hist *h, char *why, size_t len, const char *reason)
{
	ccb_hist_init(h);
	snprintf(why, len, "latency_hist: %s", reason);
	return -EINVAL;
}

/* A non-negative integer below COUNT_MAX, else -1. */
static long long count_of(const json_t *v)
{
	json_int_t x = json_integer_value(v);

	return json_is_integer(v) && x >= 0 && (unsigned long long)x < COUNT_MAX ? x : -1;
}

int ccb_hist_from_json(const json_t *j, struct ccb_hist *h, char *why, size_t why_len)
{
	const json_t *b = json_object_get(j, "buckets");
	long long count = count_of(json_object_get(j, "count"));
	long long min = count_of(json_object_get(j, "min_ns"));
	long long max = count_of(json_object_get(j, "max_ns"));
	const json_t *sum = json_object_get(j, "sum_ns"), *sumsq = json_object_get(j, "sumsq_ns");
	size_t n = json_array_size(b);
	unsigned long long seen = 0;
	long long prev = -1, first = -1, last = -1;

	ccb_hist_init(h);
	if (!json_is_object(j))
		return bad(h, why, why_len, "not an object");
	if (json_integer_value(json_object_get(j, "sub_bits")) != CCB_HIST_SUB_BITS ||
	    !json_is_integer(json_object_get(j, "sub_bits")))
		return bad(h, why, why_len, "sub_bits is not this build's bucket layout");
	if (count < 0 || min < 0 || max < 0)
		return bad(h, why, why_len, "count, min_ns or max_ns not an integer in 0..2^53");
	if (!json_is_number(sum) || !json_is_number(sumsq) || !isfinite(json_number_value(sum)) ||
	    !isfinite(json_number_value(sumsq)) || json_number_value(sum) < 0 ||
	    json_number_value(sumsq) < 0)
		return bad(h, why, why_len, "sum_ns or sumsq_ns not a finite number >= 0");
	if (!json_is_array(b) || n % 2 || n > 2 * (size_t)CCB_HIST_BUCKETS)
		return bad(h, why, why_len, "buckets is not a list of index, count pairs");
	for (size_t i = 0; i < n; i += 2) {
		long long idx = count_of(json_array_get(b, i));
		long long c = count_of(json_array_get(b, i + 1));

		if (idx <= prev || idx >= (long long)CCB_HIST_BUCKETS || c <= 0)
			return bad(h, why, why_len,
			           "a bucket index out of order or range, or a count not > 0");
		seen += (unsigned long long)c;
		if (seen > (unsigned long long)count)
			return bad(h, why, why_len, "bucket counts add up to more than count");
		h->buckets[idx] = (uint64_t)c;
		if (first < 0)
			first = idx;
		last = prev = idx;
	}
	if (seen != (unsigned long long)count)
		return bad(h, why, why_len, "bucket counts do not add up to count");
	if (count > 0 && (ccb_hist_bucket_of((uint64_t)min) != (unsigned)first ||
	                  ccb_hist_bucket_of((uint64_t)max) != (unsigned)last))
		return bad(h, why, why_len, "min_ns or max_ns outside the first or last bucket");
	h->count = (uint64_t)count;
	h->min_nsec = count ? (uint64_t)min : UINT64_MAX;
	h->max_nsec = (uint64_t)max;
	h->sum_nsec = json_number_value(sum);
	h->sumsq_nsec = json_number_value(sumsq);
	return 0;
}
