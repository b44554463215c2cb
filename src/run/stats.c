/*
 * Per-second series. One per client, grown geometrically so recording an
 * op never allocates except when a new second outgrows the arrays.
 */
#include <ccbench/stats.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ccb_series_init(struct ccb_series *s)
{
	memset(s, 0, sizeof(*s));
}

void ccb_series_free(struct ccb_series *s)
{
	free(s->bytes);
	free(s->ops);
	free(s->lat_sum_nsec);
	ccb_series_init(s);
}

static int grow(struct ccb_series *s, size_t n_secs)
{
	size_t cap = s->cap ? s->cap : 64;
	uint64_t *b, *o, *l;

	if (n_secs <= s->cap)
		goto done;
	while (cap < n_secs)
		cap *= 2;
	b = realloc(s->bytes, cap * sizeof(*b));
	if (!b)
		return -ENOMEM;
	s->bytes = b;
	o = realloc(s->ops, cap * sizeof(*o));
	if (!o)
		return -ENOMEM;
	s->ops = o;
	l = realloc(s->lat_sum_nsec, cap * sizeof(*l));
	if (!l)
		return -ENOMEM;
	s->lat_sum_nsec = l;
	memset(b + s->cap, 0, (cap - s->cap) * sizeof(*b));
	memset(o + s->cap, 0, (cap - s->cap) * sizeof(*o));
	memset(l + s->cap, 0, (cap - s->cap) * sizeof(*l));
	s->cap = cap;
done:
	if (n_secs > s->n_secs)
		s->n_secs = n_secs;
	return 0;
}

int ccb_series_add(struct ccb_series *s, size_t sec, uint64_t bytes, uint64_t lat_nsec)
{
	int r = grow(s, sec + 1);

	if (r < 0)
		return r;
	s->bytes[sec] += bytes;
	s->ops[sec]++;
	s->lat_sum_nsec[sec] += lat_nsec;
	return 0;
}

int ccb_series_merge(struct ccb_series *dst, const struct ccb_series *src)
{
	int r;

	if (!src->n_secs)
		return 0;
	r = grow(dst, src->n_secs);
	if (r < 0)
		return r;
	for (size_t i = 0; i < src->n_secs; i++) {
		dst->bytes[i] += src->bytes[i];
		dst->ops[i] += src->ops[i];
		dst->lat_sum_nsec[i] += src->lat_sum_nsec[i];
	}
	return 0;
}

void ccb_series_bw_summary(const struct ccb_series *s, uint64_t run_nsec,
                           struct ccb_bw_summary *out)
{
	size_t whole = (size_t)(run_nsec / 1000000000ull);
	double sum = 0, sumsq = 0;

	memset(out, 0, sizeof(*out));
	if (whole > s->n_secs)
		whole = s->n_secs;
	if (whole == 0) {
		/* A sub-second run has one sample: its own average. */
		uint64_t bytes = 0;
		for (size_t i = 0; i < s->n_secs; i++)
			bytes += s->bytes[i];
		if (run_nsec) {
			double bw = (double)bytes / 1048576.0 / ((double)run_nsec / 1e9);
			out->mean_mib_s = out->min_mib_s = out->max_mib_s = bw;
			out->samples = 1;
		}
		return;
	}
	out->min_mib_s = INFINITY;
	for (size_t i = 0; i < whole; i++) {
		double bw = (double)s->bytes[i] / 1048576.0;
		sum += bw;
		sumsq += bw * bw;
		if (bw < out->min_mib_s)
			out->min_mib_s = bw;
		if (bw > out->max_mib_s)
			out->max_mib_s = bw;
	}
	out->samples = whole;
	out->mean_mib_s = sum / (double)whole;
	/* Sample stddev, as rados bench reports it. */
	out->stddev_mib_s =
	    whole > 1 ? sqrt(fmax(0, (sumsq - sum * sum / (double)whole) / (double)(whole - 1)))
	              : 0;
}

double ccb_t95(size_t df)
{
	static const double table[] = {
	    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	const double z = 1.959964, n = (double)df;

	if (df == 0)
		return INFINITY;
	if (df <= sizeof(table) / sizeof(table[0]))
		return table[df - 1];
	return z + (z * z * z + z) / (4 * n) +
	       (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * n * n);
}

double ccb_mean_ci95(const double *v, size_t n, double *half)
{
	double sum = 0, ss = 0, mean;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	mean = n ? sum / (double)n : 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	*half = n > 1 ? ccb_t95(n - 1) * sqrt(ss / (double)(n - 1)) / sqrt((double)n) : INFINITY;
	return mean;
}

double ccb_welch_half95(double sd1, size_t n1, double sd2, size_t n2)
{
	double v1, v2, df;

	if (n1 < 2 || n2 < 2)
		return INFINITY;
	v1 = sd1 * sd1 / (double)n1;
	v2 = sd2 * sd2 / (double)n2;
	if (v1 + v2 == 0)
		return 0;
	df = (v1 + v2) * (v1 + v2) / (v1 * v1 / (double)(n1 - 1) + v2 * v2 / (double)(n2 - 1));
	return ccb_t95(df < 1 ? 1 : (size_t)df) * sqrt(v1 + v2);
}

double ccb_jain_index(const double *v, size_t n)
{
	double sum = 0, sumsq = 0;

	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		sumsq += v[i] * v[i];
	}
	return (n && sumsq > 0) ? sum * sum / ((double)n * sumsq) : 0;
}
