/*
 * Fuzz target: the unit parser (src/base/units.c). The input is one string;
 * every parser must refuse it or accept it, and whatever a parser accepts
 * must print (ccb_format_*) as text that parses back to the same value --
 * the round trip the formatters promise and --help and the JSON rely on.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/commands.h>
#include <ccbench/path.h>
#include <ccbench/steady.h>
#include <ccbench/units.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_round_trip(const char *what, const char *in, uint64_t v, const char *text,
                             int (*parse)(const char *, uint64_t *))
{
	uint64_t back = 0;
	int r = parse(text, &back);

	if (r != 0 || back != v) {
		fprintf(stderr,
		        "%s: '%s' parsed to %llu, printed as '%s', which parses to %llu (%d)\n",
		        what, in, (unsigned long long)v, text, (unsigned long long)back, r);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), buf[64];
	uint64_t v;

	/* Once; later calls return at once (the option table is built). */
	if (ccb_commands_init() < 0)
		abort();
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0'; /* the parsers read C strings: an embedded NUL ends it */

	if (ccb_parse_bytes(s, &v) == 0) {
		ccb_format_bytes(v, buf, sizeof(buf));
		check_round_trip("bytes", s, v, buf, ccb_parse_bytes);
	}
	if (ccb_parse_duration_usec(s, &v) == 0) {
		ccb_format_duration(v, buf, sizeof(buf));
		check_round_trip("duration", s, v, buf, ccb_parse_duration_usec);
	}
	if (ccb_parse_pct_centi(s, &v) == 0) {
		ccb_format_pct_centi(v, buf, sizeof(buf));
		check_round_trip("percent", s, v, buf, ccb_parse_pct_centi);
	}
	/* An --until-steady spec: accepted means in range, and its
	 * normalised text parses to the same spec. */
	{
		struct ccb_steady_spec a, b;
		char err[256];

		if (ccb_steady_parse(s, 2000000, 3600000000ull, &a, err, sizeof(err)) == 0 &&
		    (a.tol_centipct < CCB_STEADY_TOL_MIN || a.tol_centipct > CCB_STEADY_TOL_MAX ||
		     a.window_usec < 2000000 || a.window_usec % 1000000 ||
		     ccb_steady_parse(a.text, 2000000, 3600000000ull, &b, err, sizeof(err)) != 0 ||
		     memcmp(&a, &b, sizeof(a)) != 0)) {
			fprintf(stderr,
			        "steady: '%s' accepted as '%s', which does not round-trip\n", s,
			        a.text);
			abort();
		}
	}
	if (ccb_parse_u64(s, &v) == 0) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
		check_round_trip("u64", s, v, buf, ccb_parse_u64);
	}
	/* The input's first 8 bytes as a value: formatting any value must round-trip. */
	if (size >= 8) {
		memcpy(&v, data, sizeof(v));
		ccb_format_bytes(v, buf, sizeof(buf));
		check_round_trip("format bytes", "(raw)", v, buf, ccb_parse_bytes);
		ccb_format_duration(v, buf, sizeof(buf));
		check_round_trip("format duration", "(raw)", v, buf, ccb_parse_duration_usec);
		ccb_format_pct_centi(v, buf, sizeof(buf));
		check_round_trip("format percent", "(raw)", v, buf, ccb_parse_pct_centi);
		/* Short buffers truncate, never overflow. */
		ccb_format_bytes(v, buf, 1 + data[0] % 8);
		ccb_format_duration(v, buf, 1 + data[1] % 8);
	}
	free(s);
	return 0;
}
