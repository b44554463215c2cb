/* Unit tests for src/paths/device_lock.c and the read_ahead_kb undo of
 * sysfs.c that holds it: lock records parsed as untrusted text, a second
 * holder refused with the first's pid, a dead holder's record reported,
 * names that are not a lock file of ccbench's refused, and the in-process
 * undo writing back only a value that is still the run's. Against a
 * temporary state directory and a fake sysfs tree. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "../../src/paths/krbd/read_ahead.h"
#include "ccbench/sysfs.h"
#include "ccbench/undo.h"
#include "../../src/paths/krbd/device_lock.h"

static char dir[256], statedir[300], sysroot[300];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	char p[PATH_MAX];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ccb-devlock-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(statedir, sizeof(statedir), "%s/state", dir);
	snprintf(sysroot, sizeof(sysroot), "%s/sys", dir);
	setenv("CCB_STATE_DIR", statedir, 1);
	setenv("CCB_SYSFS_ROOT", sysroot, 1);
	snprintf(p, sizeof(p), "mkdir -p %s/block/fake0/queue", sysroot);
	if (system(p) != 0)
		return -1;
	snprintf(p, sizeof(p), "%s/block/fake0/dev", sysroot);
	put(p, "250:7\n");
	snprintf(p, sizeof(p), "%s/block/fake0/queue/read_ahead_kb", sysroot);
	put(p, "128\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void parse_checks_every_field(void **state)
{
	struct ccb_devlock_rec r;
	const char *ok = "{\"ccbench_devlock\": 1, \"pid\": 4242, \"boot_id\": "
	                 "\"0c3e1a2b-aaaa-4bbb-8ccc-0123456789ab\", \"device\": \"7:3\", "
	                 "\"disk\": \"loop3\", \"command\": \"ccbench krbd read\\u001b[2J\"}";
	char bad[1024];

	(void)state;
	assert_int_equal(ccb_devlock_parse(ok, strlen(ok), &r), 0);
	assert_int_equal(r.pid, 4242);
	assert_string_equal(r.device, "7:3");
	assert_string_equal(r.disk, "loop3");
	/* A terminal escape from the file is never printed as one. */
	assert_string_equal(r.command, "ccbench krbd read?[2J");
	assert_int_equal(ccb_devlock_parse("", 0, &r), -ENODATA);
	assert_int_equal(ccb_devlock_parse("garbage", 7, &r), -EINVAL);
	/* Each field out of shape. */
	const char *subst[][2] = {
	    {"\"pid\": 4242", "\"pid\": 0"},
	    {"\"pid\": 4242", "\"pid\": \"4242\""},
	    {"\"pid\": 4242", "\"pid\": 99999999999"},
	    {"0c3e1a2b-aaaa", "../../etc"},
	    {"\"7:3\"", "\"7:3x\""},
	    {"\"loop3\"", "\"../sda\""},
	    {"\"ccbench_devlock\": 1", "\"ccbench_devlock\": 2"},
	};
	for (size_t i = 0; i < sizeof(subst) / sizeof(subst[0]); i++) {
		const char *at = strstr(ok, subst[i][0]);

		assert_non_null(at);
		snprintf(bad, sizeof(bad), "%.*s%s%s", (int)(at - ok), ok, subst[i][1],
		         at + strlen(subst[i][0]));
		assert_int_equal(ccb_devlock_parse(bad, strlen(bad), &r), -EINVAL);
	}
	assert_int_equal(ccb_devlock_parse(ok, CCB_DEVLOCK_MAX + 1, &r), -EINVAL);
}

static void own_record_parses(void **state)
{
	struct ccb_devlock_rec r;
	char *text = ccb_devlock_record(makedev(7, 1), "loop1");

	(void)state;
	assert_non_null(text);
	assert_int_equal(ccb_devlock_parse(text, strlen(text), &r), 0);
	assert_int_equal(r.pid, (long)getpid());
	assert_string_equal(r.device, "7:1");
	assert_true(strlen(r.boot_id) > 0);
	free(text);
}

static void second_holder_is_refused(void **state)
{
	struct ccb_devlock *a = NULL, *b = NULL;
	struct ccb_devlock_rec prev;
	char err[1024], want[64], path[PATH_MAX];
	bool stale = true;
	struct stat st;

	(void)state;
	assert_int_equal(
	    ccb_devlock_acquire(makedev(7, 9), "loop9", &a, &stale, NULL, err, sizeof(err)), 0);
	assert_false(stale);
	snprintf(path, sizeof(path), "%s/dev-7:9.lock", statedir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	/* A second open file description: flock conflicts within one process too. */
	assert_int_equal(
	    ccb_devlock_acquire(makedev(7, 9), "loop9", &b, NULL, &prev, err, sizeof(err)), -EBUSY);
	assert_null(b);
	snprintf(want, sizeof(want), "pid %ld (", (long)getpid());
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, "loop9 (7:9) is being tuned by another ccbench run"));
	assert_int_equal(prev.pid, (long)getpid());
	ccb_devlock_release(a);
	assert_int_equal(stat(path, &st), -1);
	/* Free again. */
	assert_int_equal(
	    ccb_devlock_acquire(makedev(7, 9), "loop9", &b, NULL, NULL, err, sizeof(err)), 0);
	ccb_devlock_release(b);
}

static void dead_holder_is_reported(void **state)
{
	struct ccb_devlock *a = NULL;
	struct ccb_devlock_rec prev;
	char err[1024], path[PATH_MAX];
	bool stale = false;

	(void)state;
	snprintf(path, sizeof(path), "%s/dev-7:8.lock", statedir);
	put(path, "{\"ccbench_devlock\": 1, \"pid\": 777, \"boot_id\": \"ab-12\", \"device\": "
	          "\"7:8\", \"disk\": \"loop8\", \"command\": \"ccbench krbd read -d 1h\"}");
	chmod(path, 0600);
	assert_int_equal(
	    ccb_devlock_acquire(makedev(7, 8), "loop8", &a, &stale, &prev, err, sizeof(err)), 0);
	assert_true(stale);
	assert_int_equal(prev.pid, 777);
	assert_string_equal(prev.command, "ccbench krbd read -d 1h");
	ccb_devlock_release(a);
}

static void planted_names_are_refused(void **state)
{
	struct ccb_devlock *a = NULL;
	char err[1024], path[PATH_MAX], victim[PATH_MAX];
	struct stat st;

	(void)state;
	/* A link at the name: not followed (O_NOFOLLOW), nothing created at its target. */
	snprintf(path, sizeof(path), "%s/dev-7:7.lock", statedir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	assert_int_equal(symlink(victim, path), 0);
	assert_true(ccb_devlock_acquire(makedev(7, 7), "loop7", &a, NULL, NULL, err, sizeof(err)) <
	            0);
	assert_int_equal(lstat(victim, &st), -1);
	unlink(path);
	/* A file others can write. */
	put(path, "");
	chmod(path, 0666);
	assert_int_equal(
	    ccb_devlock_acquire(makedev(7, 7), "loop7", &a, NULL, NULL, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "not a lock file of ccbench's"));
	unlink(path);
}

static uint64_t ra_now(void)
{
	char path[PATH_MAX];
	uint64_t v = 0;

	ccb_sysfs_queue_attr(sysroot, "fake0", "read_ahead_kb", path, sizeof(path));
	assert_int_equal(ccb_sysfs_read_u64(path, &v), 0);
	return v;
}

static void undo_writes_back_only_its_own_value(void **state)
{
	char path[PATH_MAX], err[1024], lock[PATH_MAX];
	uint64_t before, during;
	int h, h2;
	struct stat st;

	(void)state;
	ccb_sysfs_queue_attr(sysroot, "fake0", "read_ahead_kb", path, sizeof(path));
	snprintf(lock, sizeof(lock), "%s/dev-250:7.lock", statedir);

	/* Untouched since: the original goes back, the lock goes. */
	assert_int_equal(
	    ccb_sysfs_set_read_ahead_kb("fake0", 4096, &before, &during, &h, err, sizeof(err)), 0);
	assert_int_equal(before, 128);
	assert_int_equal(ra_now(), 4096);
	assert_int_equal(stat(lock, &st), 0);
	/* A second tuner of the same device, while the first holds it. */
	assert_int_equal(
	    ccb_sysfs_set_read_ahead_kb("fake0", 512, &before, &during, &h2, err, sizeof(err)),
	    -EBUSY);
	assert_int_equal(ra_now(), 4096);
	assert_int_equal(ccb_undo_run(h), 0);
	assert_int_equal(ra_now(), 128);
	assert_int_equal(stat(lock, &st), -1);

	/* Changed by someone else meanwhile: theirs stays. */
	assert_int_equal(
	    ccb_sysfs_set_read_ahead_kb("fake0", 4096, &before, &during, &h, err, sizeof(err)), 0);
	assert_int_equal(ccb_sysfs_write_u64(path, 768), 0);
	assert_int_equal(ccb_undo_run(h), 0);
	assert_int_equal(ra_now(), 768);
	assert_int_equal(stat(lock, &st), -1);
	assert_int_equal(ccb_sysfs_write_u64(path, 128), 0);
}

/* The crash restore waits for a live tuner: it touches nothing while one holds the device. */
static void crash_restore_leaves_a_held_device(void **state)
{
	struct ccb_devlock *a = NULL;
	char err[1024], msg[1024], path[PATH_MAX];

	(void)state;
	ccb_sysfs_queue_attr(sysroot, "fake0", "read_ahead_kb", path, sizeof(path));
	assert_int_equal(ccb_sysfs_write_u64(path, 4096), 0);
	assert_int_equal(
	    ccb_devlock_acquire(makedev(250, 7), "fake0", &a, NULL, NULL, err, sizeof(err)), 0);
	assert_int_equal(ccb_sysfs_restore_read_ahead_kb("fake0", 128, 4096, msg, sizeof(msg)),
	                 -EBUSY);
	assert_non_null(strstr(msg, "kept for a later restore"));
	assert_int_equal(ra_now(), 4096);
	ccb_devlock_release(a);
	assert_int_equal(ccb_sysfs_restore_read_ahead_kb("fake0", 128, 4096, msg, sizeof(msg)), 0);
	assert_int_equal(ra_now(), 128);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(parse_checks_every_field),
	    cmocka_unit_test(own_record_parses),
	    cmocka_unit_test(second_holder_is_refused),
	    cmocka_unit_test(dead_holder_is_reported),
	    cmocka_unit_test(planted_names_are_refused),
	    cmocka_unit_test(undo_writes_back_only_its_own_value),
	    cmocka_unit_test(crash_restore_leaves_a_held_device),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, setup, teardown);
}
