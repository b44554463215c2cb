/*
 * What the attribution unit tests share (test_pg_map.c, test_osd_perf.c,
 * test_osd_ops.c): the releases whose replies were recorded, and reading
 * one of them (tests/unit/data/attr/REL/FILE, made by record_attr.sh).
 * Include after cmocka.h.
 */
#ifndef CCB_TEST_ATTR_DATA_H
#define CCB_TEST_ATTR_DATA_H

#include <stdio.h>

#include <jansson.h>

static const char *const releases[] = {"pacific", "reef", "tentacle"};
#define N_RELEASES (sizeof(releases) / sizeof(releases[0]))

/* The recorded reply FILE of release REL; fails the test when it does not parse. */
static inline json_t *load(const char *rel, const char *file)
{
	char path[512];
	json_error_t e;
	json_t *j;

	snprintf(path, sizeof(path), "%s/tests/unit/data/attr/%s/%s", CCB_TEST_SOURCE_DIR, rel,
	         file);
	j = json_load_file(path, 0, &e);
	if (!j)
		fail_msg("%s: %s (line %d)", path, e.text, e.line);
	return j;
}

#endif
