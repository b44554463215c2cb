/* Unit tests for src/base/units.c: strict parsing and exact formatting. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/units.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define KIB (1ull << 10)
#define MIB (1ull << 20)
#define GIB (1ull << 30)
#define TIB (1ull << 40)
#define PIB (1ull << 50)
#define SEC 1000000ull

struct parse_case {
	const char *in;
	int ret;
	uint64_t val; /* only checked when ret == 0 */
};

typedef int (*parse_fn)(const char *, uint64_t *);

static void run_cases(parse_fn fn, const struct parse_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		/* A sentinel shows whether a failing parse wrote through the pointer. */
		uint64_t v = 0xdeadbeefull;
		int ret = fn(cases[i].in, &v);

		if (ret != cases[i].ret)
			fail_msg("\"%s\": ret %d, want %d", cases[i].in, ret, cases[i].ret);
		if (ret == 0 && v != cases[i].val)
			fail_msg("\"%s\": %llu, want %llu", cases[i].in, (unsigned long long)v,
			         (unsigned long long)cases[i].val);
		if (ret != 0 && v != 0xdeadbeefull)
			fail_msg("\"%s\": output written on failure", cases[i].in);
	}
}

/* Rejected by every parser, whatever its suffixes. */
static const struct parse_case common_bad[] = {
    {"", -EINVAL, 0},
    {" ", -EINVAL, 0},
    {" 4", -EINVAL, 0},
    {"4 ", -EINVAL, 0},
    {"\t4", -EINVAL, 0},
    {"4\n", -EINVAL, 0},
    {"-1", -EINVAL, 0},
    {"+1", -EINVAL, 0},
    {"-0", -EINVAL, 0},
    {"0x10", -EINVAL, 0},
    {"1e3", -EINVAL, 0},
    {"4.5", -EINVAL, 0},
    {".5", -EINVAL, 0},
    {"abc", -EINVAL, 0},
    {"1,000", -EINVAL, 0},
    {"1_000", -EINVAL, 0},
    /* Malformed beats out-of-range: the syntax is what to fix first. */
    {"99999999999999999999x", -EINVAL, 0},
};

static void test_parse_u64(void **state)
{
	static const struct parse_case cases[] = {
	    {"0", 0, 0},
	    {"000", 0, 0},
	    {"1", 0, 1},
	    {"007", 0, 7},
	    {"4096", 0, 4096},
	    {"18446744073709551615", 0, UINT64_MAX},
	    {"018446744073709551615", 0, UINT64_MAX},
	    {"18446744073709551616", -ERANGE, 0},
	    {"18446744073709551620", -ERANGE, 0},
	    {"99999999999999999999", -ERANGE, 0},
	    {"4K", -EINVAL, 0},
	    {"4B", -EINVAL, 0},
	    {"10s", -EINVAL, 0},
	    {"4k", -EINVAL, 0},
	};

	(void)state;
	run_cases(ccb_parse_u64, cases, ARRAY_SIZE(cases));
	run_cases(ccb_parse_u64, common_bad, ARRAY_SIZE(common_bad));
}

static void test_parse_bytes(void **state)
{
	static const struct parse_case cases[] = {
	    {"0", 0, 0},
	    {"0K", 0, 0},
	    {"1", 0, 1},
	    {"4096", 0, 4096},
	    {"4096B", 0, 4096},
	    {"4096b", 0, 4096},
	    {"4K", 0, 4 * KIB},
	    {"4k", 0, 4 * KIB},
	    {"4KB", 0, 4 * KIB},
	    {"4kb", 0, 4 * KIB},
	    {"4KiB", 0, 4 * KIB},
	    {"4kib", 0, 4 * KIB},
	    {"4KIB", 0, 4 * KIB},
	    {"4M", 0, 4 * MIB},
	    {"4m", 0, 4 * MIB},
	    {"4MB", 0, 4 * MIB},
	    {"4MiB", 0, 4 * MIB},
	    {"1G", 0, GIB},
	    {"1GB", 0, GIB},
	    {"1GiB", 0, GIB},
	    {"2T", 0, 2 * TIB},
	    {"2TB", 0, 2 * TIB},
	    {"2TiB", 0, 2 * TIB},
	    {"3P", 0, 3 * PIB},
	    {"3PB", 0, 3 * PIB},
	    {"3PiB", 0, 3 * PIB},
	    {"1024P", 0, 1ull << 60},
	    {"16383P", 0, 16383 * PIB},
	    {"16777215T", 0, 16777215 * TIB},
	    {"17179869183G", 0, 17179869183ull * GIB},
	    {"18446744073709551615", 0, UINT64_MAX},
	    {"18446744073709551615B", 0, UINT64_MAX},
	    /* Overflow in the multiplication ... */
	    {"16384P", -ERANGE, 0},
	    {"16777216T", -ERANGE, 0},
	    {"17179869184G", -ERANGE, 0},
	    {"17592186044416M", -ERANGE, 0},
	    {"18014398509481984K", -ERANGE, 0},
	    /* ... and in the digits themselves. */
	    {"18446744073709551616", -ERANGE, 0},
	    {"99999999999999999999", -ERANGE, 0},
	    {"99999999999999999999K", -ERANGE, 0},
	    /* Malformed suffixes and trailing junk. */
	    {"K", -EINVAL, 0},
	    {"KB", -EINVAL, 0},
	    {"4Mx", -EINVAL, 0},
	    {"4 M", -EINVAL, 0},
	    {"4M ", -EINVAL, 0},
	    {"4.5M", -EINVAL, 0},
	    {"-4M", -EINVAL, 0},
	    {"+4M", -EINVAL, 0},
	    {"4MM", -EINVAL, 0},
	    {"4KK", -EINVAL, 0},
	    {"4MiBx", -EINVAL, 0},
	    {"4Mi", -EINVAL, 0},
	    {"4iB", -EINVAL, 0},
	    {"4BB", -EINVAL, 0},
	    {"4E", -EINVAL, 0},
	    {"4EiB", -EINVAL, 0},
	    {"4X", -EINVAL, 0},
	    {"4s", -EINVAL, 0},
	};

	(void)state;
	run_cases(ccb_parse_bytes, cases, ARRAY_SIZE(cases));
	run_cases(ccb_parse_bytes, common_bad, ARRAY_SIZE(common_bad));
}

static void test_parse_duration(void **state)
{
	static const struct parse_case cases[] = {
	    {"0", 0, 0},
	    {"0s", 0, 0},
	    {"0us", 0, 0},
	    {"10", 0, 10 * SEC},
	    {"10s", 0, 10 * SEC},
	    {"10sec", 0, 10 * SEC},
	    {"1us", 0, 1},
	    {"1500us", 0, 1500},
	    {"500ms", 0, 500000},
	    {"2m", 0, 120 * SEC},
	    {"2min", 0, 120 * SEC},
	    {"1h", 0, 3600 * SEC},
	    {"18446744073709551615us", 0, UINT64_MAX},
	    {"18446744073709551ms", 0, 18446744073709551000ull},
	    {"18446744073709", 0, 18446744073709ull * SEC},
	    {"18446744073709s", 0, 18446744073709ull * SEC},
	    {"307445734561m", 0, 307445734561ull * 60 * SEC},
	    {"5124095576h", 0, 5124095576ull * 3600 * SEC},
	    {"18446744073709551616us", -ERANGE, 0},
	    {"18446744073709552ms", -ERANGE, 0},
	    {"18446744073710", -ERANGE, 0},
	    {"18446744073710s", -ERANGE, 0},
	    {"18446744073710sec", -ERANGE, 0},
	    {"307445734562m", -ERANGE, 0},
	    {"307445734562min", -ERANGE, 0},
	    {"5124095577h", -ERANGE, 0},
	    {"99999999999999999999", -ERANGE, 0},
	    {"99999999999999999999ms", -ERANGE, 0},
	    {"s", -EINVAL, 0},
	    {"ms", -EINVAL, 0},
	    {"10 s", -EINVAL, 0},
	    {"10s ", -EINVAL, 0},
	    {"-10s", -EINVAL, 0},
	    {"+10s", -EINVAL, 0},
	    {"1.5s", -EINVAL, 0},
	    {"10ss", -EINVAL, 0},
	    {"10sx", -EINVAL, 0},
	    {"10msec", -EINVAL, 0},
	    {"10mss", -EINVAL, 0},
	    {"10ns", -EINVAL, 0},
	    {"10d", -EINVAL, 0},
	    {"10K", -EINVAL, 0},
	    {"10u", -EINVAL, 0},
	    {"1h30m", -EINVAL, 0},
	    /* Case-sensitive on purpose: "M" could as well mean mega. */
	    {"10S", -EINVAL, 0},
	    {"10MS", -EINVAL, 0},
	    {"2M", -EINVAL, 0},
	    {"1H", -EINVAL, 0},
	};

	(void)state;
	run_cases(ccb_parse_duration_usec, cases, ARRAY_SIZE(cases));
	run_cases(ccb_parse_duration_usec, common_bad, ARRAY_SIZE(common_bad));
}

static void test_parse_null(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(ccb_parse_u64(NULL, &v), -EINVAL);
	assert_int_equal(ccb_parse_bytes(NULL, &v), -EINVAL);
	assert_int_equal(ccb_parse_duration_usec(NULL, &v), -EINVAL);
	assert_int_equal(ccb_parse_u64("1", NULL), -EINVAL);
	assert_int_equal(ccb_parse_bytes("1", NULL), -EINVAL);
	assert_int_equal(ccb_parse_duration_usec("1", NULL), -EINVAL);
}

struct format_case {
	uint64_t val;
	const char *out;
};

static void test_format_bytes(void **state)
{
	static const struct format_case cases[] = {
	    {0, "0"},
	    {1, "1"},
	    {1000, "1000"},
	    {1023, "1023"},
	    {1024, "1K"},
	    {1536, "1536"},
	    {65536, "64K"},
	    {4 * MIB, "4M"},
	    {4 * MIB + KIB, "4097K"},
	    {GIB, "1G"},
	    {1536 * MIB, "1536M"},
	    {TIB, "1T"},
	    {PIB, "1P"},
	    {1ull << 60, "1024P"},
	    {UINT64_MAX, "18446744073709551615"},
	    {UINT64_MAX - 1023, "18014398509481983K"},
	};
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ccb_format_bytes(cases[i].val, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].out);
	}
}

static void test_format_duration(void **state)
{
	static const struct format_case cases[] = {
	    {0, "0s"},
	    {1, "1us"},
	    {1500, "1500us"},
	    {1000, "1ms"},
	    {500000, "500ms"},
	    {1500000, "1500ms"},
	    {SEC, "1s"},
	    {10 * SEC, "10s"},
	    {90 * SEC, "90s"},
	    {120 * SEC, "2m"},
	    {90 * 60 * SEC, "90m"},
	    {3600 * SEC, "1h"},
	    {48 * 3600 * SEC, "48h"},
	    {UINT64_MAX, "18446744073709551615us"},
	};
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ccb_format_duration(cases[i].val, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].out);
	}
}

/* Short buffers truncate like snprintf and never overrun. */
static void test_format_truncates(void **state)
{
	char buf[8];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	ccb_format_bytes(UINT64_MAX, buf, 4);
	assert_string_equal(buf, "184");
	assert_int_equal(buf[4], 'x');
	ccb_format_duration(500000, buf, 4);
	assert_string_equal(buf, "500");
	ccb_format_bytes(4 * MIB, buf, 1);
	assert_string_equal(buf, "");
	buf[0] = 'x';
	ccb_format_bytes(4 * MIB, buf, 0);
	assert_int_equal(buf[0], 'x');
}

/* What the user typed comes back unchanged when it was already canonical. */
static void test_round_trip_text(void **state)
{
	static const char *const sizes[] = {"4K", "4M", "1G", "64K", "1000", "0", "3P", "1536M"};
	static const char *const durations[] = {"500ms", "10s", "2m", "1h", "1500us", "0s"};
	char buf[32];
	uint64_t v;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		assert_int_equal(ccb_parse_bytes(sizes[i], &v), 0);
		ccb_format_bytes(v, buf, sizeof(buf));
		assert_string_equal(buf, sizes[i]);
	}
	for (i = 0; i < ARRAY_SIZE(durations); i++) {
		assert_int_equal(ccb_parse_duration_usec(durations[i], &v), 0);
		ccb_format_duration(v, buf, sizeof(buf));
		assert_string_equal(buf, durations[i]);
	}
}

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/* Whatever is formatted must parse back to the same value. */
static void test_round_trip_values(void **state)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	char buf[32];
	uint64_t v, back;
	int i;

	(void)state;
	for (i = 0; i < 100000; i++) {
		/* Random magnitudes and random runs of trailing zero bits, so every suffix shows
		 * up. */
		v = xorshift64(&seed) >> (xorshift64(&seed) % 64);
		if (i % 2)
			v &= ~0ull << (xorshift64(&seed) % 64);
		ccb_format_bytes(v, buf, sizeof(buf));
		assert_int_equal(ccb_parse_bytes(buf, &back), 0);
		assert_true(back == v);

		/* Durations: multiples of every unit, up to the full range. */
		if (i % 3 == 0)
			v = (v % 1000000) * 3600 * SEC;
		else if (i % 3 == 1)
			v = (v % 1000000) * 60 * SEC;
		ccb_format_duration(v, buf, sizeof(buf));
		assert_int_equal(ccb_parse_duration_usec(buf, &back), 0);
		assert_true(back == v);
	}
}

static void test_parse_pct(void **state)
{
	static const struct parse_case cases[] = {
	    {"0", 0, 0},
	    {"0%", 0, 0},
	    {"5", 0, 500},
	    {"5%", 0, 500},
	    {"2.5%", 0, 250},
	    {"2.5", 0, 250},
	    {"0.25%", 0, 25},
	    {"0.1", 0, 10},
	    {"0.01%", 0, 1},
	    {"100%", 0, 10000},
	    {"1000.99", 0, 100099},
	    {"007.50%", 0, 750},
	    {"184467440737095516", 0, 18446744073709551600ull},
	    {"184467440737095516.15", 0, UINT64_MAX},
	    /* Overflow: of the digits, and of the hundredths. */
	    {"184467440737095516.16", -ERANGE, 0},
	    {"184467440737095517", -ERANGE, 0},
	    {"99999999999999999999", -ERANGE, 0},
	    /* One spelling per number, nothing strtod would add. */
	    {"5.", -EINVAL, 0},
	    {".5", -EINVAL, 0},
	    {"5.125%", -EINVAL, 0},
	    {"5%%", -EINVAL, 0},
	    {"%5", -EINVAL, 0},
	    {"%", -EINVAL, 0},
	    {"5 %", -EINVAL, 0},
	    {"5%x", -EINVAL, 0},
	    {"5,5", -EINVAL, 0},
	    {"nan", -EINVAL, 0},
	    {"inf", -EINVAL, 0},
	    {"1e1", -EINVAL, 0},
	    {"0x5", -EINVAL, 0},
	    {"5.5.5", -EINVAL, 0},
	    {"", -EINVAL, 0},
	    {"-5%", -EINVAL, 0},
	    {"+5%", -EINVAL, 0},
	    {" 5%", -EINVAL, 0},
	    {"5% ", -EINVAL, 0},
	    {"99999999999999999999x", -EINVAL, 0},
	};

	(void)state;
	run_cases(ccb_parse_pct_centi, cases, ARRAY_SIZE(cases));
	assert_int_equal(ccb_parse_pct_centi(NULL, NULL), -EINVAL);
}

static void test_format_pct(void **state)
{
	static const struct {
		uint64_t v;
		const char *want;
	} cases[] = {{0, "0%"},    {500, "5%"},  {250, "2.5%"},   {25, "0.25%"},
	             {1, "0.01%"}, {10, "0.1%"}, {10000, "100%"}, {100099, "1000.99%"}};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t back = 0;

		ccb_format_pct_centi(cases[i].v, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].want);
		/* What it prints parses back to the same value. */
		assert_int_equal(ccb_parse_pct_centi(buf, &back), 0);
		assert_true(back == cases[i].v);
	}
}

/* An fsid as Ceph prints it: --osd-latency-cluster and a crash record's. */
static void test_fsid(void **state)
{
	(void)state;
	assert_true(ccb_is_fsid("851b3071-421f-462f-9581-928bca62601d"));
	assert_true(ccb_is_fsid("851B3071-421F-462F-9581-928BCA62601D"));
	assert_false(ccb_is_fsid("851b3071-421f-462f-9581-928bca62601"));
	assert_false(ccb_is_fsid("851b3071-421f-462f-9581-928bca62601dd"));
	assert_false(ccb_is_fsid("851b3071x421f-462f-9581-928bca62601d"));
	assert_false(ccb_is_fsid("g51b3071-421f-462f-9581-928bca62601d"));
	assert_false(ccb_is_fsid(""));
	assert_false(ccb_is_fsid(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_u64),         cmocka_unit_test(test_parse_bytes),
	    cmocka_unit_test(test_parse_duration),    cmocka_unit_test(test_parse_null),
	    cmocka_unit_test(test_format_bytes),      cmocka_unit_test(test_format_duration),
	    cmocka_unit_test(test_format_truncates),  cmocka_unit_test(test_round_trip_text),
	    cmocka_unit_test(test_round_trip_values), cmocka_unit_test(test_parse_pct),
	    cmocka_unit_test(test_format_pct),        cmocka_unit_test(test_fsid),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
