/* Unit tests for src/paths/mapping.c, child.c, map_kernel.c, fs_mount.c and map_restore.c: the
 * kernel map and mount options ccbench adds; the helper runner (pipes, own session, Ctrl-C, a
 * bound); and `restore` against hand-made records in a temporary state directory and a fake sysfs
 * tree, checking that nothing but ccbench's own is ever touched. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/clock.h"
#include "ccbench/engine.h"
#include "ccbench/fs_mount.h"
#include "../../src/paths/krbd/mapping.h"
#include "ccbench/restore.h"
#include "ccbench/restore_cmd.h"
#include "ccbench/options.h"
#include "ccbench/spawn.h"
#include "ccbench/undo.h"

#include "../../src/paths/child.h"
#include "../../src/paths/krbd/path_krbd.h"
#include "../../src/paths/krbd/krbd_opts.h"

#define V1   CCB_MONS_V1
#define V2   CCB_MONS_V2
#define BOTH (CCB_MONS_V1 | CCB_MONS_V2)

static void test_v2_only_mons_get_prefer_crc(void **state)
{
	struct ccb_mapping m;

	(void)state;
	/* Whatever release the rbd CLI is: legacy cannot talk to them. */
	for (int rbd = 16; rbd <= 21; rbd += 2) {
		assert_int_equal(ccb_map_kernel_options(NULL, V2, rbd, true, &m), 0);
		assert_string_equal(m.options, "ms_mode=prefer-crc");
		assert_string_equal(m.ms_mode, "prefer-crc");
		assert_string_equal(m.ms_mode_used, "prefer-crc");
		assert_non_null(strstr(m.ms_mode_why, "v2 only"));
		assert_false(m.noudev);
	}
}

/* Pacific and Reef's rbd device map pass no ms_mode: legacy, said so,
 * and never passed (kernels before 5.11 know no ms_mode option). */
static void test_v1_mons_keep_the_default(void **state)
{
	struct ccb_mapping m;

	(void)state;
	assert_int_equal(ccb_map_kernel_options("queue_depth=64", BOTH, 18, true, &m), 0);
	assert_string_equal(m.options, "queue_depth=64");
	assert_string_equal(m.ms_mode, "");
	assert_string_equal(m.ms_mode_used, "legacy");
	assert_non_null(strstr(m.ms_mode_why, "legacy"));
	assert_non_null(strstr(m.ms_mode_why, "rbd 18"));
	assert_int_equal(ccb_map_kernel_options(NULL, V1, 16, true, &m), 0);
	assert_string_equal(m.options, "");
	assert_string_equal(m.ms_mode_used, "legacy");
	/* Unknown mon map: the default, said so. */
	assert_int_equal(ccb_map_kernel_options(NULL, -EIO, 16, true, &m), 0);
	assert_string_equal(m.options, "");
	assert_non_null(strstr(m.ms_mode_why, "could not be read"));
	/* Unknown CLI release: nothing passed, nothing claimed. */
	assert_int_equal(ccb_map_kernel_options(NULL, BOTH, -ENOENT, true, &m), 0);
	assert_string_equal(m.options, "");
	assert_string_equal(m.ms_mode_used, "");
	assert_non_null(strstr(m.ms_mode_why, "unknown"));
}

/* Tentacle's rbd device map appends ms_mode=prefer-crc and picks the
 * mons' v2 addresses: ccbench passes it itself, so the record says it;
 * and legacy where the mons speak v1 only, which the CLI's default
 * could not reach. */
static void test_tentacle_cli_defaults_to_msgr2(void **state)
{
	struct ccb_mapping m;

	(void)state;
	assert_int_equal(ccb_map_kernel_options(NULL, BOTH, 20, true, &m), 0);
	assert_string_equal(m.options, "ms_mode=prefer-crc");
	assert_string_equal(m.ms_mode_used, "prefer-crc");
	assert_non_null(strstr(m.ms_mode_why, "Tentacle"));
	assert_int_equal(ccb_map_kernel_options("queue_depth=8", -EIO, 21, true, &m), 0);
	assert_string_equal(m.options, "queue_depth=8,ms_mode=prefer-crc");
	assert_int_equal(ccb_map_kernel_options(NULL, V1, 20, true, &m), 0);
	assert_string_equal(m.options, "ms_mode=legacy");
	assert_string_equal(m.ms_mode, "legacy");
	assert_non_null(strstr(m.ms_mode_why, "v1 only"));
	/* The same mons and a Reef CLI: no option at all. */
	assert_int_equal(ccb_map_kernel_options(NULL, V1, 18, true, &m), 0);
	assert_string_equal(m.options, "");
}

static void test_given_ms_mode_wins(void **state)
{
	struct ccb_mapping m;

	(void)state;
	for (int rbd = 16; rbd <= 20; rbd += 4) {
		assert_int_equal(
		    ccb_map_kernel_options("alloc_size=65536,ms_mode=secure", V2, rbd, true, &m),
		    0);
		assert_string_equal(m.options, "alloc_size=65536,ms_mode=secure");
		assert_string_equal(m.ms_mode, "secure");
		assert_string_equal(m.ms_mode_used, "secure");
		assert_non_null(strstr(m.ms_mode_why, "given"));
	}
	/* A prefix of the key is another option. */
	assert_int_equal(ccb_map_kernel_options("ms_modex=1", V2, 16, true, &m), 0);
	assert_string_equal(m.options, "ms_modex=1,ms_mode=prefer-crc");
}

static void test_noudev_without_udev(void **state)
{
	struct ccb_mapping m;

	(void)state;
	assert_int_equal(ccb_map_kernel_options(NULL, BOTH, 16, false, &m), 0);
	assert_string_equal(m.options, "noudev");
	assert_true(m.noudev);
	assert_int_equal(ccb_map_kernel_options("lock_on_read", V2, 16, false, &m), 0);
	assert_string_equal(m.options, "lock_on_read,noudev,ms_mode=prefer-crc");
	/* The user's own udev choice stands. */
	assert_int_equal(ccb_map_kernel_options("udev", BOTH, 16, false, &m), 0);
	assert_string_equal(m.options, "udev");
	assert_false(m.noudev);
	assert_int_equal(ccb_map_kernel_options("noudev", BOTH, 16, false, &m), 0);
	assert_string_equal(m.options, "noudev");
	assert_false(m.noudev);
}

/* A key in --map-options never reaches rbd's argv: refused, by every way,
 * named as redaction shows it; options without one pass. */
static void test_map_options_with_a_key_are_refused(void **state)
{
	struct ccb_opts o;
	enum ccb_map_via via;
	char err[512];

	(void)state;
	assert_int_equal(ccb_map_options_check(NULL, err, sizeof(err)), 0);
	assert_int_equal(ccb_map_options_check("", err, sizeof(err)), 0);
	assert_int_equal(
	    ccb_map_options_check("rw,noshare,ms_mode=crc,queue_depth=128", err, sizeof(err)), 0);
	assert_int_equal(ccb_map_options_check("rw,secret=SEKRET0123,noshare", err, sizeof(err)),
	                 -EINVAL);
	assert_non_null(strstr(err, "--map-options: secret=<redacted> carries key material"));
	assert_null(strstr(err, "SEKRET0123"));
	assert_int_equal(
	    ccb_map_options_check("key=AQBxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyz", err, sizeof(err)),
	    -EINVAL);
	assert_null(strstr(err, "AQBxyz"));
	/* ccb_map_choose() refuses it first, whatever --map-via says. */
	ccb_opts_defaults(&o);
	CCB_KRBD_OPTS_W(&o)->map = "rbd/img";
	CCB_KRBD_OPTS_W(&o)->map_options = "ms_mode=crc,secret=SEKRET0123";
	CCB_KRBD_OPTS_W(&o)->map_via = "fuse-loop";
	assert_int_equal(ccb_map_choose(&o, &via, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "carries key material"));
	assert_null(strstr(err, "SEKRET0123"));
}

static void test_too_long(void **state)
{
	struct ccb_mapping m;
	char big[sizeof(m.options) + 8];

	(void)state;
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(ccb_map_kernel_options(big, V2, 16, false, &m), -ENAMETOOLONG);
	memset(big, 'a', sizeof(m.options) - 5);
	big[sizeof(m.options) - 5] = '\0';
	assert_int_equal(ccb_map_kernel_options(big, V2, 16, false, &m), -ENAMETOOLONG);
}

/* ---- ccb_child_run ----------------------------------------------------- */

extern char **environ;

static void test_run_cmd_captures_output(void **state)
{
	char *argv[] = {"sh", "-c", "echo hello; echo world; echo oops >&2; exit 3", NULL};
	char out[64], err[64];

	(void)state;
	assert_int_equal(ccb_child_run(argv, environ, out, sizeof(out), err, sizeof(err)), 3);
	assert_string_equal(out, "hello");
	assert_string_equal(err, "oops");
}

static void test_run_cmd_big_output_does_not_block(void **state)
{
	/* More than a pipe holds, on both streams. */
	char *argv[] = {"sh", "-c",
	                "yes x | tr -d '\\n' | head -c 300000; "
	                "yes y | tr -d '\\n' | head -c 300000 >&2; echo; exit 0",
	                NULL};
	char out[16], err[16];

	(void)state;
	assert_int_equal(ccb_child_run(argv, environ, out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "xxxxxxxxxxxxxxx");
	assert_string_equal(err, "yyyyyyyyyyyyyyy");
}

static void test_run_cmd_says_exec_failed(void **state)
{
	char *argv[] = {"/nonexistent/ccbench-no-such-tool", NULL};
	char out[64], err[128];

	(void)state;
	assert_int_equal(ccb_child_run(argv, environ, out, sizeof(out), err, sizeof(err)), 127);
	assert_string_equal(out, "");
	assert_non_null(strstr(err, "exec failed"));
}

/* With /tmp read-only (a guest, a locked-down host), the command still
 * runs and its output still comes back: nothing depends on /tmp. Checked
 * in a child with a mount namespace of its own. */
static void test_run_cmd_without_writable_tmp(void **state)
{
	int st;
	pid_t pid;

	(void)state;
	if (geteuid() != 0)
		skip();
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *argv[] = {"sh", "-c", "echo ran", NULL};
		char out[64] = "", err[256] = "";
		int r;

		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
			_exit(77);
		if (mount("ro", "/tmp", "tmpfs", MS_RDONLY, NULL) < 0)
			_exit(77);
		r = ccb_child_run(argv, environ, out, sizeof(out), err, sizeof(err));
		if (r != 0 || strcmp(out, "ran") != 0) {
			fprintf(stderr, "run_cmd with read-only /tmp: %d, out '%s', err '%s'\n", r,
			        out, err);
			_exit(1);
		}
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* The helper runs in a session of its own, so the terminal's Ctrl-C
 * cannot reach it; a signal ccbench caught stops it, and it is waited for. */
static void test_run_cmd_own_session_and_ctrl_c(void **state)
{
	char *sid[] = {"sh", "-c", "cut -d' ' -f6 /proc/$$/stat", NULL};
	char *sleeper[] = {"sleep", "30", NULL};
	char out[64], err[64], mine[32];
	uint64_t t0;

	(void)state;
	assert_int_equal(ccb_child_run(sid, environ, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(mine, sizeof(mine), "%d", (int)getsid(0));
	assert_string_not_equal(out, mine);

	ccb_signal_pending = SIGINT;
	t0 = ccb_now_nsec();
	assert_int_equal(ccb_child_run(sleeper, environ, out, sizeof(out), err, sizeof(err)),
	                 128 + SIGTERM);
	assert_true(ccb_now_nsec() - t0 < 10000000000ull);
	ccb_signal_pending = 0;
}

/* ---- restore: hand-made records -------------------------------------------- */

static char top[256], statedir[PATH_MAX], sysroot[PATH_MAX];

static void pathf(char *buf, const char *rel)
{
	snprintf(buf, PATH_MAX, "%s/%s", top, rel);
}

static void mkdirs(const char *rel)
{
	char p[PATH_MAX];

	pathf(p, rel);
	for (char *s = p + strlen(top) + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0700);
			*s = '/';
		}
	}
	mkdir(p, 0700);
}

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	pathf(p, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static bool exists(const char *rel)
{
	char p[PATH_MAX];
	struct stat st;

	pathf(p, rel);
	return lstat(p, &st) == 0;
}

static void slurp(const char *rel, char *buf, size_t len)
{
	char p[PATH_MAX];
	FILE *f;
	size_t n;

	pathf(p, rel);
	f = fopen(p, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* rbd devices 0 (rbd/img), 1 (other/thing), 2 (rbd/img), a loop device
 * 98765 over a file nobody made, and files of somebody else's. */
static int setup_restore(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/ccb-restore-XXXXXX");
	if (!mkdtemp(top))
		return -1;
	chmod(top, 0700);
	pathf(statedir, "state");
	pathf(sysroot, "sys");
	mkdirs("state");
	mkdirs("sys/bus/rbd/devices/0");
	mkdirs("sys/bus/rbd/devices/1");
	mkdirs("sys/bus/rbd/devices/2");
	mkdirs("sys/block/loop98765/loop");
	mkdirs("elsewhere/emptydir");
	put("sys/bus/rbd/devices/0/pool", "rbd\n");
	put("sys/bus/rbd/devices/0/name", "img\n");
	put("sys/bus/rbd/devices/0/current_snap", "-\n");
	put("sys/bus/rbd/devices/1/pool", "other\n");
	put("sys/bus/rbd/devices/1/name", "thing\n");
	put("sys/bus/rbd/devices/1/current_snap", "-\n");
	put("sys/bus/rbd/devices/2/pool", "rbd\n");
	put("sys/bus/rbd/devices/2/name", "img\n");
	put("sys/bus/rbd/devices/2/current_snap", "-\n");
	put("sys/bus/rbd/remove_single_major", "");
	put("sys/block/loop98765/loop/backing_file", "/srv/somebody/disk.img\n");
	put("elsewhere/victim", "precious\n");
	setenv("CCB_STATE_DIR", statedir, 1);
	setenv("CCB_SYSFS_ROOT", sysroot, 1);
	return 0;
}

static int teardown_restore(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	unsetenv("CCB_STATE_DIR");
	unsetenv("CCB_SYSFS_ROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

/* Restore one record given as JSON text; the message into @p msg. */
static int restore_text(const char *text, char *msg, size_t len)
{
	json_t *rec = json_loads(text, 0, NULL);
	int r;

	assert_non_null(rec);
	msg[0] = '\0';
	/* As restore.c's table sends them: CephFS mounts to the fs path. */
	if (strcmp(json_string_value(json_object_get(rec, "kind")), "fs_mount") == 0)
		r = ccb_fsmount_restore(rec, msg, len);
	else
		r = ccb_map_restore(rec, msg, len);
	json_decref(rec);
	return r;
}

static void assert_nothing_unmapped(void)
{
	char buf[64];

	slurp("sys/bus/rbd/remove_single_major", buf, sizeof(buf));
	assert_string_equal(buf, "");
}

static void test_fuse_log_outside_is_not_unlinked(void **state)
{
	char text[3 * PATH_MAX], msg[PATH_MAX + 256];

	(void)state;
	snprintf(text, sizeof(text),
	         "{\"kind\": \"fuse\", \"mountpoint\": \"%s/mnt-abc123\", \"log\": "
	         "\"%s/elsewhere/victim\", \"pid\": 0}",
	         statedir, top);
	assert_int_equal(restore_text(text, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "invalid record"));
	assert_true(exists("elsewhere/victim"));
}

static void test_fuse_mountpoint_outside_is_not_removed(void **state)
{
	char text[3 * PATH_MAX], msg[PATH_MAX + 256];

	(void)state;
	snprintf(text, sizeof(text),
	         "{\"kind\": \"fuse\", \"mountpoint\": \"%s/elsewhere/emptydir\", \"log\": "
	         "\"%s/elsewhere/emptydir.log\", \"pid\": 0}",
	         top, top);
	assert_int_equal(restore_text(text, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "invalid record"));
	assert_true(exists("elsewhere/emptydir"));
	/* A mount point of ours, a log of another name. */
	snprintf(text, sizeof(text),
	         "{\"kind\": \"fuse\", \"mountpoint\": \"%s/mnt-abc123\", \"log\": "
	         "\"%s/mnt-abc123/../../elsewhere/victim\", \"pid\": 0}",
	         statedir, statedir);
	assert_int_equal(restore_text(text, msg, sizeof(msg)), -EINVAL);
	assert_true(exists("elsewhere/victim"));
	/* ".." in the mount point itself. */
	snprintf(text, sizeof(text),
	         "{\"kind\": \"fuse\", \"mountpoint\": \"%s/mnt-abc123/../../elsewhere/emptydir\", "
	         "\"pid\": 0}",
	         statedir);
	assert_int_equal(restore_text(text, msg, sizeof(msg)), -EINVAL);
	assert_true(exists("elsewhere/emptydir"));
}

static void test_fuse_record_of_ours_is_cleaned(void **state)
{
	char text[3 * PATH_MAX], msg[PATH_MAX + 256];

	(void)state;
	mkdirs("state/mnt-Zz9xY0");
	put("state/mnt-Zz9xY0.log", "rbd-fuse said something\n");
	snprintf(text, sizeof(text),
	         "{\"kind\": \"fuse\", \"mountpoint\": \"%s/mnt-Zz9xY0\", \"log\": "
	         "\"%s/mnt-Zz9xY0.log\", \"pid\": 0}",
	         statedir, statedir);
	assert_int_equal(restore_text(text, msg, sizeof(msg)), 0);
	assert_false(exists("state/mnt-Zz9xY0"));
	assert_false(exists("state/mnt-Zz9xY0.log"));
}

static void test_krbd_dev_with_dotdot_unmaps_nothing(void **state)
{
	char msg[PATH_MAX + 256];

	(void)state;
	/* Device 0 maps rbd/img: the old name check read devices/1/../0. */
	assert_int_equal(restore_text("{\"kind\": \"krbd_map\", \"pool\": \"rbd\", \"image\": "
	                              "\"img\", \"dev\": \"/dev/rbd1/../0\"}",
	                              msg, sizeof(msg)),
	                 -EINVAL);
	assert_non_null(strstr(msg, "invalid record"));
	assert_nothing_unmapped();
	assert_int_equal(restore_text("{\"kind\": \"krbd_map\", \"pool\": \"rbd\", \"image\": "
	                              "\"img\", \"dev\": \"/dev/rbd01\"}",
	                              msg, sizeof(msg)),
	                 -EINVAL);
	assert_nothing_unmapped();
}

static void test_krbd_short_dev_is_invalid(void **state)
{
	char msg[PATH_MAX + 256];

	(void)state;
	/* Shorter than "/dev/rbd": the old code read past the string. */
	assert_int_equal(restore_text("{\"kind\": \"krbd_map\", \"pool\": \"rbd\", \"image\": "
	                              "\"img\", \"dev\": \"/dev/r\"}",
	                              msg, sizeof(msg)),
	                 -EINVAL);
	assert_non_null(strstr(msg, "invalid record"));
	assert_int_equal(restore_text("{\"kind\": \"krbd_map\", \"pool\": \"rbd\", \"image\": "
	                              "\"img\", \"dev\": \"/dev/rbd\"}",
	                              msg, sizeof(msg)),
	                 -EINVAL);
	assert_int_equal(restore_text("{\"kind\": \"krbd_map\", \"pool\": \"../rbd\", \"image\": "
	                              "\"img\", \"dev\": \"/dev/rbd0\"}",
	                              msg, sizeof(msg)),
	                 -EINVAL);
	assert_nothing_unmapped();
}

static void test_krbd_record_of_ours_is_unmapped(void **state)
{
	char msg[PATH_MAX + 256], buf[64];

	(void)state;
	/* Device 1 maps another image: not ours to remove. */
	assert_int_equal(restore_text("{\"kind\": \"krbd_map\", \"pool\": \"rbd\", \"image\": "
	                              "\"img\", \"dev\": \"/dev/rbd1\"}",
	                              msg, sizeof(msg)),
	                 0);
	assert_non_null(strstr(msg, "no longer maps"));
	assert_nothing_unmapped();
	/* An unfinished map: the device added since is named, not removed. */
	assert_int_equal(
	    restore_text("{\"kind\": \"krbd_map\", \"pool\": \"rbd\", \"image\": "
	                 "\"img\", \"snap\": \"-\", \"dev\": \"\", \"preexisting\": [0]}",
	                 msg, sizeof(msg)),
	    0);
	assert_non_null(strstr(msg, "/dev/rbd2"));
	assert_null(strstr(msg, "/dev/rbd0"));
	assert_nothing_unmapped();
	assert_int_equal(restore_text("{\"kind\": \"krbd_map\", \"pool\": \"rbd\", \"image\": "
	                              "\"img\", \"dev\": \"/dev/rbd2\"}",
	                              msg, sizeof(msg)),
	                 0);
	slurp("sys/bus/rbd/remove_single_major", buf, sizeof(buf));
	assert_string_equal(buf, "2\n");
	put("sys/bus/rbd/remove_single_major", "");
}

static void test_loop_empty_backing_is_invalid(void **state)
{
	char text[3 * PATH_MAX], msg[PATH_MAX + 256];

	(void)state;
	/* "" was a prefix of every backing file. */
	assert_int_equal(restore_text("{\"kind\": \"loop\", \"dev\": \"/dev/loop98765\", "
	                              "\"backing\": \"\"}",
	                              msg, sizeof(msg)),
	                 -EINVAL);
	assert_non_null(strstr(msg, "invalid record"));
	assert_int_equal(restore_text("{\"kind\": \"loop\", \"dev\": \"/dev/loop98765\", "
	                              "\"backing\": \"/srv/somebody/disk.img\"}",
	                              msg, sizeof(msg)),
	                 -EINVAL);
	/* A prefix of the real backing file is not the file. */
	snprintf(text, sizeof(text),
	         "{\"kind\": \"loop\", \"dev\": \"/dev/loop98765\", \"backing\": "
	         "\"%s/mnt-abc123/im\"}",
	         statedir);
	put("sys/block/loop98765/loop/backing_file", "");
	{
		char bf[PATH_MAX + 32];
		snprintf(bf, sizeof(bf), "%s/mnt-abc123/img\n", statedir);
		put("sys/block/loop98765/loop/backing_file", bf);
	}
	assert_int_equal(restore_text(text, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "no longer attached"));
	assert_int_equal(restore_text("{\"kind\": \"loop\", \"dev\": \"/dev/loop7/../0\", "
	                              "\"backing\": \"x\"}",
	                              msg, sizeof(msg)),
	                 -EINVAL);
	put("sys/block/loop98765/loop/backing_file", "/srv/somebody/disk.img\n");
}

/* The whole `krbd restore`: a state file whose fuse record names a file
 * of someone else's, in a directory others could write to. */
static void write_state_file(const char *rel)
{
	char text[4 * PATH_MAX];

	snprintf(text, sizeof(text),
	         "{\"ccbench_state\": 1, \"pid\": 4194000, \"starttime\": 1, \"command\": \"x\", "
	         "\"entries\": [{\"kind\": \"fuse\", \"mountpoint\": \"%s/mnt-abc123\", \"log\": "
	         "\"%s/elsewhere/victim\", \"pid\": 0, \"what\": \"w\"}]}",
	         statedir, top);
	put(rel, text);
}

static void test_restore_refuses_insecure_state_dir(void **state)
{
	struct ccb_opts o;
	char err[PATH_MAX + 128], p[PATH_MAX];

	(void)state;
	memset(&o, 0, sizeof(o));
	o.quiet = true;
	assert_int_equal(ccb_undo_state_dir_check(err, sizeof(err)), 0);
	write_state_file("state/run-4194000-1.json");
	chmod(statedir, 0777);
	assert_int_equal(ccb_undo_state_dir_check(err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "writable"));
	assert_int_not_equal(ccb_restore_command(&o), 0);
	assert_true(exists("elsewhere/victim"));
	chmod(statedir, 0700);
	/* Owned by somebody else. */
	if (geteuid() == 0) {
		assert_int_equal(chown(statedir, 65534, 65534), 0);
		assert_int_equal(ccb_undo_state_dir_check(err, sizeof(err)), -EPERM);
		assert_non_null(strstr(err, "not root"));
		assert_int_equal(chown(statedir, 0, 0), 0);
	}
	/* A symbolic link to a directory. */
	pathf(p, "statelink");
	assert_int_equal(symlink(statedir, p), 0);
	setenv("CCB_STATE_DIR", p, 1);
	assert_int_equal(ccb_undo_state_dir_check(err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "a symbolic link"));
	setenv("CCB_STATE_DIR", statedir, 1);
	unlink(p);
	/* From a sound directory, the record itself is refused, and kept. */
	assert_int_not_equal(ccb_restore_command(&o), 0);
	assert_true(exists("elsewhere/victim"));
	assert_true(exists("state/run-4194000-1.json"));
	pathf(p, "state/run-4194000-1.json");
	unlink(p);
}

static void test_restore_refuses_linked_state_file(void **state)
{
	struct ccb_opts o;
	char target[PATH_MAX], lnk[PATH_MAX];

	(void)state;
	memset(&o, 0, sizeof(o));
	o.quiet = true;
	write_state_file("elsewhere/planted.json");
	pathf(target, "elsewhere/planted.json");
	pathf(lnk, "state/run-4194000-1.json");
	assert_int_equal(symlink(target, lnk), 0);
	/* Not even read (O_NOFOLLOW): ignored, with a warning. */
	ccb_restore_command(&o);
	assert_true(exists("elsewhere/victim"));
	unlink(lnk);
	/* A second name of a file of root's elsewhere is not ours either. */
	assert_int_equal(link(target, lnk), 0);
	ccb_restore_command(&o);
	assert_true(exists("elsewhere/victim"));
	unlink(lnk);
}

/* The kernel mount's -o: the entity, the conf, noshare, the run's
 * timeouts, the file system of -o client_fs, the user's options last; never
 * a secret (mount.ceph reads the keyring). */
static void test_fsmount_kernel_options(void **state)
{
	struct ccb_opts o;
	char buf[1024], err[256];

	(void)state;
	ccb_opts_defaults(&o);
	assert_int_equal(
	    ccb_opt_set(&o, ccb_opt_find("conf"), "/etc/x/ceph.conf", err, sizeof(err)), 0);
	assert_int_equal(ccb_opt_set(&o, ccb_opt_find("id"), "bench", err, sizeof(err)), 0);
	assert_int_equal(ccb_opt_set(&o, ccb_opt_find("connect-timeout"), "20s", err, sizeof(err)),
	                 0);
	assert_int_equal(ccb_opt_set(&o, ccb_opt_find("op-timeout"), "1500ms", err, sizeof(err)),
	                 0);
	assert_int_equal(ccb_fsmount_kernel_options(&o, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "name=bench,conf=/etc/x/ceph.conf,noshare,mount_timeout=20,"
	                         "osd_request_timeout=2");
	assert_int_equal(ccb_opt_set(&o, ccb_opt_find("set"), "client_fs=fs2", err, sizeof(err)),
	                 0);
	assert_int_equal(ccb_opt_set(&o, ccb_opt_find("mount-options"),
	                             "rasize=4194304,ms_mode=crc", err, sizeof(err)),
	                 0);
	assert_int_equal(ccb_fsmount_kernel_options(&o, buf, sizeof(buf)), 0);
	assert_non_null(strstr(buf, ",fs=fs2,rasize=4194304,ms_mode=crc"));
	assert_null(strstr(buf, "secret"));
	assert_int_equal(ccb_fsmount_kernel_options(&o, buf, 40), -ENAMETOOLONG);
	assert_string_equal(ccb_fsmount_fstype(CCB_FSMOUNT_FUSE), "fuse.ceph-fuse");
	assert_string_equal(ccb_fsmount_fstype(CCB_FSMOUNT_KERNEL), "ceph");
}

/* A command past its bound: its whole session killed, status 124. */
static void test_run_cmd_bounded(void **state)
{
	char *argv[] = {"sh", "-c", "sleep 30 & echo started; wait", NULL};
	char out[64], errtxt[64];
	uint64_t t0 = ccb_now_nsec();

	(void)state;
	assert_int_equal(
	    ccb_child_run_bounded(argv, NULL, 300, out, sizeof(out), errtxt, sizeof(errtxt)), 124);
	assert_string_equal(out, "started");
	/* The bound and the 2 s it gives the pipes, not the 30 s sleep. */
	assert_true(ccb_now_nsec() - t0 < 5000000000ull);
}

/* A command that closes its pipes and runs on is still waited for only
 * within its bound, then killed: never a waitpid without end. */
static void test_run_cmd_reaps_within_its_bound(void **state)
{
	char *argv[] = {"sh", "-c", "exec >&- 2>&-; sleep 30", NULL};
	char out[64], errtxt[64];
	uint64_t t0 = ccb_now_nsec();

	(void)state;
	assert_int_equal(
	    ccb_child_run_bounded(argv, NULL, 300, out, sizeof(out), errtxt, sizeof(errtxt)), 124);
	assert_true(ccb_now_nsec() - t0 < 5000000000ull);
}

static void test_spawn_reap_and_stop_are_bounded(void **state)
{
	char *argv[] = {"sleep", "30", NULL};
	extern char **environ;
	pid_t pid = ccb_spawn(argv, environ, -1, -1);
	uint64_t t0 = ccb_now_nsec();
	int st = 0;

	(void)state;
	assert_true(pid > 0);
	assert_int_equal(ccb_spawn_reap(pid, 200, &st), -ETIMEDOUT);
	assert_true(ccb_now_nsec() - t0 < 2000000000ull);
	assert_int_equal(ccb_spawn_stop(pid, true, 1000, 2000, "sleep 30", &st), 0);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	assert_int_equal(ccb_spawn_reap(pid, 0, &st), -ECHILD);
}

/* After a failed map, a new device is adopted only when the driver's
 * record of its request is ours: read-only, our entity, our options. */
static void test_krbd_adopts_only_what_is_provably_ours(void **state)
{
	char why[160];

	(void)state;
	put("sys/bus/rbd/devices/2/config_info",
	    "10.0.0.1:6789 name=admin,key=client.admin,ro,ms_mode=legacy rbd img -\n");
	assert_true(ccb_map_krbd_is_ours(sysroot, 2, "rbd", "img", "noudev,ms_mode=legacy",
	                                 "client.admin", why, sizeof(why)));
	assert_true(
	    ccb_map_krbd_is_ours(sysroot, 2, "rbd", "img", "", "client.admin", why, sizeof(why)));
	/* Someone else's map of the same image. */
	assert_false(
	    ccb_map_krbd_is_ours(sysroot, 2, "rbd", "img", "", "client.bob", why, sizeof(why)));
	assert_non_null(strstr(why, "not mapped by client.bob"));
	assert_false(ccb_map_krbd_is_ours(sysroot, 2, "rbd", "img", "queue_depth=64",
	                                  "client.admin", why, sizeof(why)));
	assert_non_null(strstr(why, "lack queue_depth=64"));
	put("sys/bus/rbd/devices/2/config_info",
	    "10.0.0.1:6789 name=admin,key=client.admin rbd img -\n");
	assert_false(
	    ccb_map_krbd_is_ours(sysroot, 2, "rbd", "img", "", "client.admin", why, sizeof(why)));
	assert_non_null(strstr(why, "read-only"));
	/* No record to prove it by, or another image. */
	assert_false(
	    ccb_map_krbd_is_ours(sysroot, 0, "rbd", "img", "", "client.admin", why, sizeof(why)));
	assert_non_null(strstr(why, "config_info"));
	assert_false(
	    ccb_map_krbd_is_ours(sysroot, 1, "rbd", "img", "", "client.admin", why, sizeof(why)));
	char p[PATH_MAX];
	pathf(p, "sys/bus/rbd/devices/2/config_info");
	unlink(p);
}

/* fs_mount records: only a mount point of ours, its own log, a via and a
 * pid of the right shape; then the mount point and log go. */
static void test_fsmount_records(void **state)
{
	char text[3 * PATH_MAX], msg[3 * PATH_MAX];

	(void)state;
	snprintf(text, sizeof(text),
	         "{\"kind\": \"fs_mount\", \"via\": \"nfs\", \"mountpoint\": \"%s/mnt-abc123\"}",
	         statedir);
	assert_int_equal(restore_text(text, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "via is not fuse or kernel"));
	snprintf(text, sizeof(text),
	         "{\"kind\": \"fs_mount\", \"via\": \"fuse\", \"mountpoint\": "
	         "\"%s/elsewhere/emptydir\"}",
	         top);
	assert_int_equal(restore_text(text, msg, sizeof(msg)), -EINVAL);
	assert_true(exists("elsewhere/emptydir"));
	snprintf(text, sizeof(text),
	         "{\"kind\": \"fs_mount\", \"via\": \"kernel\", \"mountpoint\": "
	         "\"%s/mnt-abc123\", \"log\": \"%s/elsewhere/victim\"}",
	         statedir, top);
	assert_int_equal(restore_text(text, msg, sizeof(msg)), -EINVAL);
	assert_true(exists("elsewhere/victim"));
	snprintf(text, sizeof(text),
	         "{\"kind\": \"fs_mount\", \"via\": \"fuse\", \"mountpoint\": \"%s/mnt-abc123\", "
	         "\"pid\": \"1\"}",
	         statedir);
	assert_int_equal(restore_text(text, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "pid is not a process id"));
	/* One of ours, no longer mounted: its directory and log go; pid 1 (not
	 * a ceph-fuse of that mount point) is left alone. */
	mkdirs("state/mnt-Fs0Mnt");
	put("state/mnt-Fs0Mnt.log", "ceph-fuse said something\n");
	snprintf(text, sizeof(text),
	         "{\"kind\": \"fs_mount\", \"via\": \"fuse\", \"mountpoint\": \"%s/mnt-Fs0Mnt\", "
	         "\"log\": \"%s/mnt-Fs0Mnt.log\", \"pid\": 1, \"client_id\": \"client4242\"}",
	         statedir, statedir);
	assert_int_equal(restore_text(text, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "ceph-fuse unmounted"));
	assert_false(exists("state/mnt-Fs0Mnt"));
	assert_false(exists("state/mnt-Fs0Mnt.log"));
	assert_int_equal(kill(1, 0), 0);
	mkdirs("state/mnt-Kern01");
	snprintf(text, sizeof(text),
	         "{\"kind\": \"fs_mount\", \"via\": \"kernel\", \"mountpoint\": "
	         "\"%s/mnt-Kern01\"}",
	         statedir);
	assert_int_equal(restore_text(text, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "kernel mount unmounted"));
	assert_false(exists("state/mnt-Kern01"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_v2_only_mons_get_prefer_crc),
	    cmocka_unit_test(test_v1_mons_keep_the_default),
	    cmocka_unit_test(test_tentacle_cli_defaults_to_msgr2),
	    cmocka_unit_test(test_given_ms_mode_wins),
	    cmocka_unit_test(test_noudev_without_udev),
	    cmocka_unit_test(test_too_long),
	    cmocka_unit_test(test_map_options_with_a_key_are_refused),
	    cmocka_unit_test(test_run_cmd_captures_output),
	    cmocka_unit_test(test_run_cmd_big_output_does_not_block),
	    cmocka_unit_test(test_run_cmd_says_exec_failed),
	    cmocka_unit_test(test_run_cmd_without_writable_tmp),
	    cmocka_unit_test(test_run_cmd_own_session_and_ctrl_c),
	    cmocka_unit_test(test_run_cmd_bounded),
	    cmocka_unit_test(test_run_cmd_reaps_within_its_bound),
	    cmocka_unit_test(test_spawn_reap_and_stop_are_bounded),
	    cmocka_unit_test(test_fsmount_kernel_options),
	};
	const struct CMUnitTest restore[] = {
	    cmocka_unit_test(test_fuse_log_outside_is_not_unlinked),
	    cmocka_unit_test(test_fuse_mountpoint_outside_is_not_removed),
	    cmocka_unit_test(test_fuse_record_of_ours_is_cleaned),
	    cmocka_unit_test(test_krbd_dev_with_dotdot_unmaps_nothing),
	    cmocka_unit_test(test_krbd_short_dev_is_invalid),
	    cmocka_unit_test(test_krbd_record_of_ours_is_unmapped),
	    cmocka_unit_test(test_loop_empty_backing_is_invalid),
	    cmocka_unit_test(test_restore_refuses_insecure_state_dir),
	    cmocka_unit_test(test_restore_refuses_linked_state_file),
	    cmocka_unit_test(test_fsmount_records),
	    cmocka_unit_test(test_krbd_adopts_only_what_is_provably_ours),
	};
	if (ccb_commands_init() < 0)
		return 1;
	int failed = cmocka_run_group_tests_name("mapping", tests, NULL, NULL);

	failed += cmocka_run_group_tests_name("restore", restore, setup_restore, teardown_restore);
	return failed;
}
