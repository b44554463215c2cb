/*
 * What a sweep's figures cannot be read as, said from the document alone
 * (so a saved sweep, also one made before these checks, gets them):
 *
 * - latency on one side only: a path whose points ran with another
 *   injected latency than another path's (librbd under --sim-osd-latency,
 *   the kernel client under none: the first year's seed-002 chart) is not
 *   comparable with it;
 * - the OSDs lost their injected latency during some runs (an OSD
 *   restarted);
 * - a kernel series that ran through fuse-loop (rbd-fuse serves one
 *   request of at most 128K at a time) cannot show readahead: its flat
 *   line is the set-up's, not a finding;
 * - points whose client ran on an emulated CPU that was the limit (the
 *   krbd-vm guest at large readaheads): the emulator's figures.
 */
#include <ccbench/sweep_report.h>
#include <ccbench/units.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The latency a run saw: "osd 20ms", "client 2ms", "osd 20ms + client 2ms", "none". */
static void run_side(const json_t *run, char *buf, size_t len)
{
	const json_t *li = json_object_get(run, "latency_injection");
	const json_t *sim =
	    json_object_get(json_object_get(run, "layout"), "simulated_osd_latency_us");
	uint64_t osd = (uint64_t)json_integer_value(json_object_get(li, "osd_us"));
	uint64_t client = li ? (uint64_t)json_integer_value(json_object_get(li, "client_us"))
	                     : (uint64_t)json_integer_value(sim); /* results before the field */
	char a[32], b[32];

	ccb_format_duration(osd, a, sizeof(a));
	ccb_format_duration(client, b, sizeof(b));
	if (osd && client)
		snprintf(buf, len, "%s on the OSDs and %s on the client", a, b);
	else if (osd)
		snprintf(buf, len, "%s on the OSDs (--osd-latency)", a);
	else if (client)
		snprintf(buf, len, "%s on the client only (--sim-osd-latency)", b);
	else
		snprintf(buf, len, "none injected");
}

/* Whether a run measured anything (set-up failures carry no layout). */
static bool measured(const json_t *run)
{
	return json_object_get(run, "layout") || json_object_get(run, "latency_injection");
}

/* {path: {side: true}} over every run of the sweep. */
static json_t *sides_by_path(const json_t *doc)
{
	json_t *by = json_object(), *p, *run;
	size_t i, j;
	char side[160];

	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		json_array_foreach(json_object_get(p, "runs"), j, run)
		{
			const char *path = json_string_value(json_object_get(run, "path"));
			json_t *s;

			if (!path || !measured(run))
				continue;
			run_side(run, side, sizeof(side));
			s = json_object_get(by, path);
			if (!s) {
				s = json_object();
				json_object_set_new(by, path, s);
			}
			json_object_set_new(s, side, json_true());
		}
	}
	return by;
}

static void add(json_t *list, const char *kind, const char *severity, json_t *series,
                const char *text)
{
	json_t *c = json_pack("{s:s, s:s, s:s}", "kind", kind, "severity", severity, "text", text);

	if (series)
		json_object_set_new(c, "series", series);
	json_array_append_new(list, c);
}

/* "path=krbd order=20": a point's matrix values but the row key's. */
static void series_of(const json_t *matrix, const char *row_key, char *buf, size_t len)
{
	const char *k;
	json_t *v;

	buf[0] = '\0';
	json_object_foreach((json_t *)matrix, k, v)
	{
		size_t l = strlen(buf);
		char vb[64];
		const char *vs = json_string_value(v);

		if (strcmp(k, row_key) == 0)
			continue;
		if (!vs) {
			snprintf(vb, sizeof(vb), "%lld", (long long)json_integer_value(v));
			vs = vb;
		}
		snprintf(buf + l, len - l, "%s%s=%s", l ? " " : "", k, vs);
	}
}

bool ccb_sweep_point_fuse_loop(const json_t *point)
{
	const json_t *run;
	size_t i;

	json_array_foreach(json_object_get(point, "runs"), i, run)
	{
		const char *via =
		    json_string_value(json_object_get(json_object_get(run, "layout"), "map_via"));
		if (via && strcmp(via, "fuse-loop") == 0)
			return true;
	}
	return false;
}

bool ccb_sweep_point_emulated_limit(const json_t *point)
{
	const json_t *run, *e;
	size_t i, j;

	json_array_foreach(json_object_get(point, "runs"), i, run)
	{
		json_array_foreach(json_object_get(run, "explain"), j, e)
		{
			const char *kind = json_string_value(json_object_get(e, "kind"));
			const char *sev = json_string_value(json_object_get(e, "severity"));
			if (kind && sev && strcmp(kind, "client-cpu") == 0 &&
			    strcmp(sev, "info") != 0 &&
			    json_object_get(json_object_get(e, "figures"), "emulated"))
				return true;
		}
	}
	return false;
}

/* Per series, the row values at which the emulated client CPU was the limit. */
static void emulated_limits(const json_t *doc, const char *row_key, json_t *list)
{
	json_t *rows = json_object(), *lim, *p, *v;
	const char *k;
	size_t i;
	char text[1024], s[256];

	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		const json_t *rv = json_object_get(json_object_get(p, "matrix"), row_key);
		char vb[64];
		const char *vs = json_string_value(rv);

		series_of(json_object_get(p, "matrix"), row_key, s, sizeof(s));
		lim = json_object_get(rows, s[0] ? s : "(all)");
		if (!lim) {
			lim = json_pack("{s:[], s:[]}", "limited", "free");
			json_object_set_new(rows, s[0] ? s : "(all)", lim);
		}
		if (!vs) {
			/* No row value (a sweep without a row_key): "-", as the table. */
			if (rv)
				snprintf(vb, sizeof(vb), "%lld", (long long)json_integer_value(rv));
			else
				snprintf(vb, sizeof(vb), "-");
			vs = vb;
		}
		json_array_append_new(
		    json_object_get(lim, ccb_sweep_point_emulated_limit(p) ? "limited" : "free"),
		    json_string(vs));
	}
	json_object_foreach(rows, k, v)
	{
		const json_t *l = json_object_get(v, "limited"), *f = json_object_get(v, "free");
		char ls[256] = "", fs[256] = "";

		if (!json_array_size(l))
			continue;
		for (size_t j = 0; j < json_array_size(l); j++)
			snprintf(ls + strlen(ls), sizeof(ls) - strlen(ls), "%s%s", j ? ", " : "",
			         json_string_value(json_array_get(l, j)));
		for (size_t j = 0; j < json_array_size(f); j++)
			snprintf(fs + strlen(fs), sizeof(fs) - strlen(fs), "%s%s", j ? ", " : "",
			         json_string_value(json_array_get(f, j)));
		snprintf(text, sizeof(text),
		         "%s: at %s %s the client's emulated CPU was the limit (explain's "
		         "client-cpu): those figures are the emulator's, not the cluster's%s%s%s",
		         k, row_key, ls, fs[0] ? "; the cluster's: " : "; none is the cluster's",
		         fs, fs[0] ? "" : "");
		add(list, "emulated-limit", "warn", json_string(k), text);
	}
	json_decref(rows);
}

json_t *ccb_sweep_caveats(const json_t *doc)
{
	json_t *list = json_array(), *by = sides_by_path(doc), *sides, *p, *run;
	const char *row_key = json_string_value(json_object_get(doc, "row_key"));
	const char *path, *side, *k;
	json_t *seen = json_object(), *v;
	char text[1024], what[512] = "";
	size_t i, j, n_lost = 0;
	bool differ = false;

	/* Latency on one side only: each path's set of sides, compared. */
	const json_t *first = NULL;
	json_object_foreach(by, path, sides)
	{
		if (first && !json_equal(first, sides))
			differ = true;
		if (!first)
			first = sides;
	}
	if (differ) {
		json_object_foreach(by, path, sides)
		{
			size_t l = strlen(what);
			snprintf(what + l, sizeof(what) - l, "%s%s points: ", l ? "; " : "", path);
			size_t m = 0;
			json_object_foreach(sides, side, v)
			{
				l = strlen(what);
				snprintf(what + l, sizeof(what) - l, "%s%s", m++ ? " or " : "",
				         side);
			}
		}
		snprintf(
		    text, sizeof(text),
		    "not comparable: the paths ran under different injected latency (%s): "
		    "client-side latency (--sim-osd-latency) reaches librbd only; give both the "
		    "same OSD-side latency (--osd-latency) or compare each path with itself",
		    what);
		add(list, "latency-sides", "distrust", NULL, text);
	}
	json_decref(by);

	/* Runs during which an OSD lost its injected latency. */
	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		json_array_foreach(json_object_get(p, "runs"), j, run)
		{
			const json_t *lost =
			    json_object_get(json_object_get(run, "latency_injection"), "lost");
			if (json_array_size(lost)) {
				if (!n_lost)
					snprintf(what, sizeof(what), "%s",
					         json_string_value(json_array_get(lost, 0)));
				n_lost++;
			}
		}
	}
	if (n_lost) {
		snprintf(text, sizeof(text),
		         "%zu run%s ran after an OSD lost the injected latency (%s): %s figures "
		         "are not under the latency the sweep records",
		         n_lost, n_lost == 1 ? "" : "s", what, n_lost == 1 ? "its" : "their");
		add(list, "osd-latency-lost", "distrust", NULL, text);
	}

	/* A sweep without a row_key reads as "", as in its views (sweep_report.c). */
	if (!row_key)
		row_key = "";
	/* Kernel series through fuse-loop, where the rows are readahead. */
	if (strcmp(row_key, "readahead") == 0 || strcmp(row_key, "read-ahead-kb") == 0) {
		json_array_foreach(json_object_get(doc, "points"), i, p)
		{
			char s[256];

			if (!ccb_sweep_point_fuse_loop(p))
				continue;
			series_of(json_object_get(p, "matrix"), row_key, s, sizeof(s));
			json_object_set_new(seen, s[0] ? s : "(all)", json_true());
		}
		json_object_foreach(seen, k, v)
		{
			snprintf(
			    text, sizeof(text),
			    "%s ran through fuse-loop (rbd-fuse and a loop device): rbd-fuse "
			    "serves "
			    "one request of at most 128K at a time, so this series cannot show "
			    "readahead; its line is the set-up's, not a finding (the real driver: "
			    "--runner krbd=..., docs/osd-latency.md)",
			    k);
			add(list, "fuse-loop", "distrust", json_string(k), text);
		}
	}
	json_decref(seen);
	emulated_limits(doc, row_key, list);
	return list;
}
