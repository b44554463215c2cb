/*
 * The --until-steady value, parsed (steady_spec.h): an option's type, so
 * it sits with the option table's parsers; the detector that uses it is
 * src/run/steady.c.
 */
#include <ccbench/steady_spec.h>
#include <ccbench/units.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	enum ccb_steady_metric metric;
	bool slope;
} metrics[] = {
    {"bw", CCB_STEADY_BW, false},          {"iops", CCB_STEADY_IOPS, false},
    {"lat", CCB_STEADY_LAT, false},        {"bw_slope", CCB_STEADY_BW, true},
    {"iops_slope", CCB_STEADY_IOPS, true}, {"lat_slope", CCB_STEADY_LAT, true},
};

#define N_METRICS (sizeof(metrics) / sizeof(metrics[0]))

const char *ccb_steady_metric_name(enum ccb_steady_metric m)
{
	return m == CCB_STEADY_IOPS  ? "iops"
	       : m == CCB_STEADY_LAT ? "lat_mean_us"
	                             : "bandwidth_mib_s";
}

static const char *spec_word(const struct ccb_steady_spec *sp)
{
	for (size_t i = 0; i < N_METRICS; i++)
		if (metrics[i].metric == sp->metric && metrics[i].slope == sp->slope)
			return metrics[i].name;
	return "?";
}

int ccb_steady_parse(const char *s, uint64_t window_min_usec, uint64_t window_max_usec,
                     struct ccb_steady_spec *out, char *err, size_t err_len)
{
	struct ccb_steady_spec sp;
	const char *colon, *tol, *slash;
	char part[64], lo[32], hi[32], tb[24];
	size_t i, l;

	/* Zeroed whole, padding too: equal specs compare equal byte for byte. */
	memset(&sp, 0, sizeof(sp));
	sp.on = true;
	sp.metric = CCB_STEADY_BW;
	sp.window_usec = CCB_STEADY_WINDOW_DEFAULT_USEC;

	if (!s || !*s) {
		snprintf(err, err_len, "empty: expected [METRIC:]TOL[/WINDOW] such as bw:5%%/5s");
		return -EINVAL;
	}
	colon = strchr(s, ':');
	tol = s;
	if (colon) {
		l = (size_t)(colon - s);
		for (i = 0; i < N_METRICS; i++)
			if (strlen(metrics[i].name) == l && strncmp(metrics[i].name, s, l) == 0)
				break;
		if (i == N_METRICS) {
			snprintf(
			    err, err_len,
			    "METRIC '%.*s': expected bw, iops or lat (or bw_slope, iops_slope, "
			    "lat_slope)",
			    (int)(l > 32 ? 32 : l), s);
			return -EINVAL;
		}
		sp.metric = metrics[i].metric;
		sp.slope = metrics[i].slope;
		tol = colon + 1;
	}
	slash = strchr(tol, '/');
	l = slash ? (size_t)(slash - tol) : strlen(tol);
	if (l >= sizeof(part)) {
		snprintf(err, err_len, "TOL '%.32s...': too long", tol);
		return -EINVAL;
	}
	memcpy(part, tol, l);
	part[l] = '\0';
	int r = ccb_parse_pct_centi(part, &sp.tol_centipct);
	if (r == -EINVAL) {
		snprintf(err, err_len, "TOL '%s': expected a percentage such as 5%% or 2.5%%",
		         part);
		return -EINVAL;
	}
	ccb_format_pct_centi(CCB_STEADY_TOL_MIN, lo, sizeof(lo));
	ccb_format_pct_centi(CCB_STEADY_TOL_MAX, hi, sizeof(hi));
	if (r < 0 || sp.tol_centipct < CCB_STEADY_TOL_MIN || sp.tol_centipct > CCB_STEADY_TOL_MAX) {
		snprintf(err, err_len, "TOL '%s': out of range (%s to %s)", part, lo, hi);
		return -EINVAL;
	}
	if (slash) {
		const char *w = slash + 1;

		r = ccb_parse_duration_usec(w, &sp.window_usec);
		if (r == -EINVAL) {
			snprintf(err, err_len, "WINDOW '%.32s': expected a duration such as 5s", w);
			return -EINVAL;
		}
		ccb_format_duration(window_min_usec, lo, sizeof(lo));
		ccb_format_duration(window_max_usec, hi, sizeof(hi));
		if (r < 0 || sp.window_usec < window_min_usec || sp.window_usec > window_max_usec) {
			snprintf(err, err_len, "WINDOW '%.32s': out of range (%s to %s)", w, lo,
			         hi);
			return -EINVAL;
		}
		/* One sample a second: a window of 2.5 samples cannot be held. */
		if (sp.window_usec % 1000000) {
			snprintf(err, err_len,
			         "WINDOW '%.32s': whole seconds (one sample is taken a second)", w);
			return -EINVAL;
		}
	}
	ccb_format_pct_centi(sp.tol_centipct, tb, sizeof(tb));
	/* At most "iops_slope:" + "100%" + "/3600s": always fits. */
	snprintf(sp.text, sizeof(sp.text), "%.11s:%.8s/%llus", spec_word(&sp), tb,
	         (unsigned long long)(sp.window_usec / 1000000 % 100000));
	*out = sp;
	return 0;
}
