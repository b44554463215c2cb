/*
 * Unit tests for src/report/sweep_space.c (a sweep's space table and CSV
 * columns) and the row axis a pool comparison gets (src/sweep/sweep.c
 * ccb_sweep_row_key).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/sweep_report.h>
#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/sweep.h"
#include "../../src/sweep/sweep_aggregate.h"
#include "../../src/report/sweep_space.h"

static void test_row_key(void **state)
{
	json_t *m;

	(void)state;
	/* ec-vs-replicated: the pools are the rows. */
	m = json_pack("{s:[s,s], s:[s,s], s:[s,s]}", "command", "rbd randwrite", "rbd write",
	              "io-size", "4K", "1M", "data-pool", "ccb-r3", "ccb-ec21");
	assert_string_equal(ccb_sweep_row_key(m), "data-pool");
	json_decref(m);
	m = json_pack("{s:[s,s], s:[s,s]}", "op-size", "4K", "1M", "pool", "a", "b");
	assert_string_equal(ccb_sweep_row_key(m), "pool");
	json_decref(m);
	/* A readahead sweep over pools stays a readahead sweep. */
	m = json_pack("{s:[s,s], s:[s,s]}", "pool", "a", "b", "readahead", "128K", "1M");
	assert_string_equal(ccb_sweep_row_key(m), "readahead");
	json_decref(m);
	/* One pool is no comparison. */
	m = json_pack("{s:[s], s:[s,s]}", "data-pool", "a", "io-size", "4K", "1M");
	assert_string_equal(ccb_sweep_row_key(m), "io-size");
	json_decref(m);
}

static json_t *point(const char *pool, const char *type, int k, double amp, int reliable)
{
	json_t *data = json_pack("{s:s, s:s, s:i}", "name", pool, "type", type, "size", 3);

	if (k)
		json_object_set_new(data, "erasure", json_pack("{s:i, s:i}", "k", k, "m", 1));
	return json_pack("{s:s, s:{s:s}, s:[{s:{s:o}, s:{s:f, s:f, s:b}}]}", "command", "rbd write",
	                 "matrix", "data-pool", pool, "runs", "pools", "data", data, "space",
	                 "amplification", amp, "raw_per_stored", amp, "reliable", reliable);
}

static void test_space_table(void **state)
{
	json_t *doc =
	    json_pack("{s:[o,o,{s:s, s:[]}]}", "points", point("ccb-r3", "replicated", 0, 3.0, 1),
	              point("ccb-ec21", "erasure", 2, 1.5, 0), "command", "rbd read", "runs");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	ccb_sweep_space_table(doc, f);
	fclose(f);
	assert_non_null(strstr(buf, "space: amplification"));
	assert_non_null(strstr(buf, "rbd write data-pool=ccb-r3"));
	assert_non_null(strstr(buf, "replicated x3"));
	assert_non_null(strstr(buf, "3.00"));
	assert_non_null(strstr(buf, "EC 2+1"));
	assert_non_null(strstr(buf, "1.50   1.50 !"));
	/* The read point has no space: no line of its own. */
	assert_null(strstr(buf, "  3  "));
	free(buf);
	json_decref(doc);
	/* Nothing at all without space. */
	doc = json_pack("{s:[]}", "points");
	buf = NULL;
	f = open_memstream(&buf, &len);
	ccb_sweep_space_table(doc, f);
	fclose(f);
	assert_int_equal(len, 0);
	free(buf);
	json_decref(doc);
}

/* The sweep CSV carries the same figures: three columns before explain,
 * empty for a point with no space record. */
static void test_space_csv(void **state)
{
	json_t *doc =
	    json_pack("{s:[o,o,{s:s, s:[]}]}", "points", point("ccb-r3", "replicated", 0, 3.0, 1),
	              point("ccb-ec21", "erasure", 2, 1.5, 0), "command", "rbd read", "runs");
	char *buf = NULL, *line;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(ccb_sweep_render_csv(doc, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, ",amplification_mean,raw_per_stored_mean,space_unreliable_runs,"
	                            "osd_worst,osd_worst_p99_us,osd_median_p99_us,explain\n"));
	line = strstr(buf, "\n1,");
	assert_non_null(line);
	assert_non_null(strstr(line, ",3.000,3.000,0,"));
	line = strstr(buf, "\n2,");
	assert_non_null(line);
	assert_non_null(strstr(line, ",1.500,1.500,1,"));
	line = strstr(buf, "\n3,");
	assert_non_null(line);
	assert_null(strstr(line, ".500"));
	assert_non_null(strstr(line, ",,,,"));
	free(buf);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_row_key),
	    cmocka_unit_test(test_space_table),
	    cmocka_unit_test(test_space_csv),
	};
	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
