/*
 * The HTML page (html.h): its structure (the answer and the why lines at
 * the top, warn and distrust marked, then charts, tables, settings), its
 * escaping (markup as entities, an escape sequence kept \x1b as text
 * shows it), redaction, and that the page of a saved result is the
 * page its run wrote, byte for byte.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ccbench/html.h>
#include <ccbench/report.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A run's result. Its bandwidth, 168.1449999999871, is 168.14 to two
 * decimals, but its saved JSON (10 digits) holds 168.145, which is 168.15:
 * a page built from the run's numbers as they are would differ from the
 * saved result's. */
static const char run_json[] =
    "{\"ccbench_version\": \"0.1.0\", \"schema\": 1, \"command\": \"rados write\","
    " \"path\": \"rados\", \"mode\": \"write\","
    " \"argv\": [\"ccbench\", \"rados\", \"write\", \"-p\", \"rbd\", \"-o\","
    "  \"key=AQBx5pZnAAAAABAAbm90YXJlYWxrZXlub3RhcmVhbA==\"],"
    " \"parameters\": {\"pool\": \"rbd\", \"op-size\": 4194304},"
    " \"status\": \"ok\", \"reason\": \"--duration reached\", \"seconds\": 2.12345678901234,"
    " \"bytes\": 427819008, \"ops\": 102, \"errors\": 0,"
    " \"bandwidth_mib_s\": 168.1449999999871, \"iops\": 42.0360085912345,"
    " \"latency_us\": {\"n\": 102, \"min\": 3777.5, \"mean\": 371296.511, \"p50\": 240123.9,"
    "  \"p90\": 935329.7, \"p99\": 1266679.808123456, \"p99_9\": 1266679.8, \"max\": 1273015.1},"
    " \"clients_n\": 1, \"queue_depth\": 16, \"op_bytes\": 4194304, \"layout\": {\"pool\": "
    "\"rbd\"},"
    " \"series\": [{\"t\": 1, \"bandwidth_mib_s\": 244.123456789123, \"lat_mean_us\": 188839.6479},"
    "  {\"t\": 2, \"bandwidth_mib_s\": 100.987654321987, \"lat_mean_us\": 371296.1234567}],"
    " \"clients\": [], \"warnings\": [\"<b>readahead</b> \\u001b[31m\"],"
    " \"explain\": [{\"kind\": \"a\", \"severity\": \"distrust\","
    "   \"text\": \"cached \\u001b[2J read <script>x</script>\"},"
    "  {\"kind\": \"b\", \"severity\": \"warn\", \"text\": \"a warning & more\"},"
    "  {\"kind\": \"c\", \"severity\": \"info\", \"text\": \"latency-bound\"}]}";

/* The page of @p doc (free()); @p rc its status. */
static char *page(const json_t *doc, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	*rc = ccb_html_render(doc, f);
	fclose(f);
	return text;
}

static json_t *load(const char *s)
{
	json_error_t e;
	json_t *d = json_loads(s, 0, &e);

	if (!d)
		fail_msg("fixture: %s at %d", e.text, e.line);
	return d;
}

/* What the page must be, whatever its kind: one document, no script,
 * nothing fetched, no raw control character, the answer at the top. */
static void common(const char *html)
{
	const char *answer = strstr(html, "<div class=\"answer\">");

	assert_true(strncmp(html, "<!DOCTYPE html>\n<html lang=\"en\">", 32) == 0);
	assert_non_null(strstr(html, "</html>\n"));
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "src="));
	assert_null(strstr(html, "href="));
	assert_null(strchr(html, '\x1b'));
	assert_non_null(answer);
	/* The answer right under the title, before the charts and tables. */
	assert_true(answer < strstr(html, "<h2>Charts</h2>"));
	assert_true(strstr(html, "<h2>Charts</h2>") < strstr(html, "<h2>Tables</h2>"));
	assert_true(strstr(html, "<h2>Tables</h2>") < strstr(html, "<h2>Settings</h2>"));
	assert_true(answer - strstr(html, "</h1>") < 16);
}

static void test_run_page(void **state)
{
	json_t *doc = load(run_json);
	int rc;
	char *html = page(doc, &rc);
	const char *ex;

	(void)state;
	assert_int_equal(rc, 0);
	common(html);
	assert_non_null(strstr(html, "<title>ccbench rados write</title>"));
	assert_non_null(strstr(html, "<div class=\"answer\"><div>rados write: 168.15 MiB/s"));
	/* The why lines right under it, distrust and warn marked. */
	ex = strstr(html, "<ul class=\"explain\">");
	assert_non_null(ex);
	assert_true(ex < strstr(html, "<h2>Charts</h2>"));
	assert_non_null(strstr(html, "<li class=\"distrust\"><span class=\"sev\">DISTRUST</span>"
	                             "cached \\x1b[2J read &lt;script&gt;x&lt;/script&gt;</li>"));
	assert_non_null(strstr(html, "<li class=\"warn\"><span class=\"sev\">warning</span>a "
	                             "warning &amp; more</li>"));
	assert_non_null(strstr(html, "<li class=\"info\">"));
	/* Two charts (bandwidth and latency of each second), inline. */
	assert_non_null(strstr(html, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	assert_null(strstr(html, "<?xml"));
	/* The text view holds the warning escaped; the key is redacted. */
	assert_non_null(strstr(html, "&lt;b&gt;readahead&lt;/b&gt; \\x1b[31m"));
	assert_null(strstr(html, "AQBx5pZn"));
	assert_non_null(strstr(html, "key=&lt;redacted&gt;"));
	free(html);
	json_decref(doc);
}

/* The page from the run's document and from its saved JSON (as `report`
 * loads it) are the same bytes, though the run's numbers have more digits. */
static void test_run_and_report_identical(void **state)
{
	json_t *doc = load(run_json), *saved;
	char *json = NULL, *a, *b;
	size_t len = 0;
	FILE *f = open_memstream(&json, &len);
	int rc;

	(void)state;
	assert_non_null(f);
	assert_int_equal(ccb_report_write(doc, CCB_FMT_JSON, f), 0);
	fclose(f);
	saved = load(json);
	a = page(doc, &rc);
	assert_int_equal(rc, 0);
	b = page(saved, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(a, b);
	free(a);
	free(b);
	free(json);
	json_decref(saved);
	json_decref(doc);
}

static const char sweep_json[] =
    "{\"kind\": \"sweep\", \"ccbench_version\": \"0.1.0\","
    " \"config\": {\"name\": \"n<1>\", \"command\": \"rados write\","
    "  \"matrix\": {\"clients\": [1, 2], \"namespace\": [\"a<b\", \"c\\u001bd\"]}},"
    " \"row_key\": \"clients\", \"knees\": [], \"status\": \"ok\", \"points\": ["
    "  {\"matrix\": {\"clients\": 1, \"namespace\": \"a<b\"}, \"runs\": [],"
    "   \"aggregate\": {\"runs\": 1, \"runs_ok\": 1, \"bandwidth_mib_s\": {\"mean\": 10,"
    "   \"stddev\": 0}}},"
    "  {\"matrix\": {\"clients\": 2, \"namespace\": \"a<b\"}, \"runs\": [],"
    "   \"aggregate\": {\"runs\": 1, \"runs_ok\": 1, \"bandwidth_mib_s\": {\"mean\": 18,"
    "   \"stddev\": 0}}},"
    "  {\"matrix\": {\"clients\": 1, \"namespace\": \"c\\u001bd\"}, \"runs\": [],"
    "   \"aggregate\": {\"runs\": 1, \"runs_ok\": 1, \"bandwidth_mib_s\": {\"mean\": 11,"
    "   \"stddev\": 0}}},"
    "  {\"matrix\": {\"clients\": 2, \"namespace\": \"c\\u001bd\"}, \"runs\": [],"
    "   \"aggregate\": {\"runs\": 1, \"runs_ok\": 1, \"bandwidth_mib_s\": {\"mean\": 19,"
    "   \"stddev\": 0}}}]}";

static void test_sweep_page(void **state)
{
	json_t *doc = load(sweep_json);
	int rc;
	char *html = page(doc, &rc);

	(void)state;
	assert_int_equal(rc, 0);
	common(html);
	assert_non_null(strstr(html, "<title>ccbench sweep n&lt;1&gt;</title>"));
	/* The table names the series escaped, one row each; one run: no ± claimed. */
	assert_non_null(strstr(html, "<th class=\"l\">namespace=a&lt;b</th>"));
	assert_non_null(strstr(html, "<th class=\"l\">namespace=c\\x1bd</th>"));
	assert_null(strstr(html, "<td>10.0 ± 0.0</td>"));
	assert_non_null(strstr(html, "<td>10.0</td>"));
	/* The chart's legend: only what differs, escaped. */
	assert_non_null(strstr(html, ">a&lt;b</text>"));
	free(html);
	json_decref(doc);
}

static const char cap_json[] =
    "{\"kind\": \"capacity\", \"ccbench_version\": \"0.1.0\", \"workload\": \"rados write\","
    " \"slo\": {\"text\": \"p99<=20ms\", \"terms\": [{\"percentile\": \"p99\", \"limit_us\": "
    "20000}]},"
    " \"capacity_ops_s\": 985.1, \"status\": \"ok\", \"seconds\": 60,"
    " \"steps\": [{\"step\": 1, \"phase\": \"up\", \"target_ops_s\": 500, \"achieved_ops_s\": 499,"
    "   \"completed\": 1000, \"verdict\": \"meets SLO\", \"response_time_us\": {\"p50\": 3000,"
    "   \"p99\": 9000, \"p99_9\": 11000}, \"service_time_us\": {\"p50\": 2900, \"p99\": 8800}},"
    "  {\"step\": 2, \"phase\": \"up\", \"target_ops_s\": 1029, \"achieved_ops_s\": 1029,"
    "   \"completed\": 2000, \"verdict\": \"over SLO\", \"slo_broken\": \"p99 33.8 ms > 20 ms\","
    "   \"response_time_us\": {\"p50\": 6000, \"p99\": 33800, \"p99_9\": 64700},"
    "   \"service_time_us\": {\"p50\": 5600, \"p99\": 31300}}],"
    " \"headroom\": [{\"share_pct\": 70, \"achieved_ops_s\": 689.6, \"verdict\": \"meets SLO\","
    "   \"response_time_us\": {\"p50\": 3750, \"p99\": 8850}}],"
    " \"closed_loop\": [{\"in_flight\": 1, \"ops_s\": 300, \"latency_us\": {\"p50\": 3000,"
    "   \"p99\": 5000}}, {\"in_flight\": 4, \"ops_s\": 900, \"latency_us\": {\"p50\": 4000,"
    "   \"p99\": 12000}}],"
    " \"explain\": [{\"kind\": \"capacity-limit\", \"severity\": \"distrust\","
    "   \"text\": \"the client lagged\"}]}";

static void test_capacity_page(void **state)
{
	json_t *doc = load(cap_json);
	int rc;
	char *html = page(doc, &rc);

	(void)state;
	assert_int_equal(rc, 0);
	common(html);
	/* The capacity and the headroom in one line. */
	assert_non_null(strstr(html, "<div class=\"answer\"><div>capacity 985.1 ops/s for rados "
	                             "write at p99&lt;=20ms; at 70 % of it, response p99 8.85 ms "
	                             "(meets SLO)</div>"));
	assert_non_null(strstr(html, "<li class=\"distrust\">"));
	assert_non_null(strstr(html, "SLO p99 &lt;= 20 ms"));
	assert_non_null(strstr(html, "closed loop p99"));
	assert_non_null(strstr(html, "over SLO: p99 33.8 ms &gt; 20 ms"));
	free(html);
	json_decref(doc);
}

static const char group_json[] =
    "{\"kind\": \"group_report\", \"group\": \"g<1>\", \"status\": \"complete\","
    " \"params\": {\"command\": \"rados write\"}, \"members_expected\": 2,"
    " \"window\": {\"seconds\": 2, \"start_realtime_us\": 1000000},"
    " \"aggregate\": {\"members\": 2, \"bandwidth_mib_s\": 200, \"bytes\": 419430400,"
    "  \"seconds\": 2, \"series\": [{\"offset_s\": 0, \"seconds\": 1, \"bandwidth_mib_s\": 190},"
    "  {\"offset_s\": 1, \"seconds\": 1, \"bandwidth_mib_s\": 210}]},"
    " \"members\": [{\"member\": \"h.1\", \"host\": \"h\", \"state\": \"done\", \"status\": \"ok\","
    "   \"start_realtime_us\": 1000000, \"bandwidth_mib_s\": 100, \"iops\": 25,"
    "   \"latency_us\": {\"p50\": 1000, \"p99\": 5000},"
    "   \"result\": {\"seconds\": 2, \"series\": [{\"bytes\": 104857600}, {\"bytes\": 104857600}],"
    "    \"explain\": [{\"kind\": \"x\", \"severity\": \"warn\", \"text\": \"member warned\"}]}},"
    "  {\"member\": \"h.2\", \"host\": \"h\", \"state\": \"done\", \"status\": \"ok\","
    "   \"start_realtime_us\": 1000000, \"bandwidth_mib_s\": 100, \"iops\": 25,"
    "   \"latency_us\": {\"p50\": 1000, \"p99\": 5000},"
    "   \"result\": {\"seconds\": 2, \"series\": [{\"bytes\": 104857600}, {\"bytes\": "
    "104857600}]}}],"
    " \"explain\": []}";

static void test_group_and_compare_pages(void **state)
{
	json_t *doc = load(group_json);
	int rc;
	char *html = page(doc, &rc);

	(void)state;
	assert_int_equal(rc, 0);
	common(html);
	assert_non_null(strstr(html, "group g&lt;1&gt;: 200.00 MiB/s from 2 members"));
	assert_non_null(strstr(html, "<li class=\"warn\"><span class=\"sev\">warning</span>h.1: "
	                             "member warned</li>"));
	free(html);
	json_decref(doc);
	doc = load("{\"kind\": \"compare\", \"baseline\": \"a.json\", \"current\": \"b.json\","
	           " \"metric\": \"bandwidth (MiB/s)\", \"tolerance\": \"10%\","
	           " \"summary\": \"1 of 2 points regressed beyond 10% (bandwidth)\", \"rows\": ["
	           "  {\"point\": \"p<1>\", \"baseline\": 10, \"current\": 5, \"delta_pct\": -50,"
	           "   \"verdict\": \"REGRESSED\"},"
	           "  {\"point\": \"p2\", \"baseline\": 10, \"current\": 10, \"delta_pct\": 0,"
	           "   \"verdict\": \"ok\"}], \"releases\": {\"baseline\": {}, \"current\": {}}}");
	html = page(doc, &rc);
	assert_int_equal(rc, 0);
	common(html);
	assert_non_null(strstr(html, "<div class=\"answer\"><div>1 of 2 points regressed"));
	assert_non_null(strstr(html, "<td class=\"l\">p&lt;1&gt;</td>"));
	assert_non_null(strstr(html, "<rect x="));
	free(html);
	json_decref(doc);
	/* A document of no kind the page knows. */
	doc = load("{\"kind\": \"nothing\"}");
	html = page(doc, &rc);
	assert_int_equal(rc, -EINVAL);
	free(html);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_run_page),
	    cmocka_unit_test(test_run_and_report_identical),
	    cmocka_unit_test(test_sweep_page),
	    cmocka_unit_test(test_capacity_page),
	    cmocka_unit_test(test_group_and_compare_pages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
