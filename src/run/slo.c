/*
 * A latency target: percentiles of the response time and their limits
 * (slo.h). Written as operators write one ("p99<=10ms"), read back from a
 * saved capacity result by the same parser.
 */
#include <ccbench/slo.h>
#include <ccbench/units.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The percentiles a result reports, as written and as its keys. */
static const struct {
	const char *name, *key;
	double q;
} pcts[] = {{"p50", "p50", 50}, {"p90", "p90", 90}, {"p99.9", "p99_9", 99.9}, {"p99", "p99", 99}};

static int parse_term(const char *t, size_t len, struct ccb_slo_term *term, char *why,
                      size_t why_len)
{
	char buf[64];
	const char *le;
	size_t i;

	if (len == 0 || len >= sizeof(buf)) {
		snprintf(why, why_len, "an empty or overlong term");
		return -EINVAL;
	}
	memcpy(buf, t, len);
	buf[len] = '\0';
	le = strstr(buf, "<=");
	if (!le) {
		snprintf(why, why_len, "'%s': expected pQ<=DUR, e.g. p99<=10ms", buf);
		return -EINVAL;
	}
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		if ((size_t)(le - buf) == strlen(pcts[i].name) &&
		    strncmp(buf, pcts[i].name, strlen(pcts[i].name)) == 0)
			break;
	if (i == sizeof(pcts) / sizeof(pcts[0])) {
		snprintf(why, why_len, "'%.*s': expected a percentile p50, p90, p99 or p99.9",
		         (int)(le - buf), buf);
		return -EINVAL;
	}
	/* A bare number would be read as seconds elsewhere: a latency target
	 * without its unit is too easy to get wrong by a thousandfold. */
	if (!strpbrk(le + 2, "munsh") || ccb_parse_duration_usec(le + 2, &term->limit_usec) < 0 ||
	    term->limit_usec == 0) {
		snprintf(why, why_len, "'%s': expected a duration above 0 with its unit (10ms)",
		         le + 2);
		return -EINVAL;
	}
	term->key = pcts[i].key;
	term->name = pcts[i].name;
	term->q = pcts[i].q;
	return 0;
}

int ccb_slo_parse(const char *text, struct ccb_slo *slo, char *err, size_t err_len)
{
	char why[160];
	const char *p = text;

	memset(slo, 0, sizeof(*slo));
	if (!text || !*text) {
		snprintf(err, err_len, "--slo '': expected pQ<=DUR[,pQ<=DUR], e.g. p99<=10ms");
		return -EINVAL;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		struct ccb_slo_term term;

		if (slo->n == CCB_SLO_MAX_TERMS) {
			snprintf(why, sizeof(why), "more than %d terms", CCB_SLO_MAX_TERMS);
			goto bad;
		}
		if (parse_term(p, len, &term, why, sizeof(why)) < 0)
			goto bad;
		for (unsigned i = 0; i < slo->n; i++)
			if (slo->terms[i].q == term.q) {
				snprintf(why, sizeof(why), "%s given twice", term.name);
				goto bad;
			}
		slo->terms[slo->n++] = term;
		if (!p[len])
			return 0;
		p += len + 1;
	}
bad:
	snprintf(err, err_len, "--slo '%s': %s", text, why);
	return -EINVAL;
}

bool ccb_slo_met(const struct ccb_slo *slo, const json_t *lat_us, unsigned *broken, char *why,
                 size_t why_len)
{
	for (unsigned i = 0; i < slo->n; i++) {
		const struct ccb_slo_term *t = &slo->terms[i];
		const json_t *v = json_object_get(lat_us, t->key);
		double us = json_number_value(v);

		if (json_is_number(v) && us <= (double)t->limit_usec)
			continue;
		if (broken)
			*broken = i;
		if (why && json_is_number(v))
			snprintf(why, why_len, "%s %.3g ms > %.3g ms", t->name, us / 1e3,
			         (double)t->limit_usec / 1e3);
		else if (why)
			snprintf(why, why_len, "%s not measured", t->name);
		return false;
	}
	return true;
}

uint64_t ccb_slo_samples_needed(double q)
{
	return (uint64_t)ceil(2.0 / (1.0 - q / 100.0) - 1e-9);
}

json_t *ccb_slo_json(const struct ccb_slo *slo, const char *text)
{
	json_t *terms = json_array();

	for (unsigned i = 0; i < slo->n; i++)
		json_array_append_new(terms, json_pack("{s:s, s:s, s:f, s:I}", "percentile",
		                                       slo->terms[i].name, "key", slo->terms[i].key,
		                                       "q", slo->terms[i].q, "limit_us",
		                                       (json_int_t)slo->terms[i].limit_usec));
	return json_pack("{s:s, s:o}", "text", text ? text : "", "terms", terms);
}
