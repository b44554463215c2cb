/* Unit tests for src/undo/undo.c: reverse unwinding, drop, failing undos, ownership of args,
 * and what a 2nd and a 3rd signal say and do; src/undo/undo_state.c: the state directory's
 * checks, records read only as bounded regular files, a run's identity and liveness,
 * and the redacted command a record stores. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/engine.h"
#include "ccbench/restore.h"
#include "ccbench/undo.h"

#define MAX_EVENTS 512

/*
 * Each entry's argument is a struct item: what its undo returns and an id.
 * The callbacks write an event log ("undo 3", "free 3") so the tests can
 * check order, and that every argument is freed exactly once.
 */
struct item {
	int id;
	int ret;
};

static struct {
	int kind[MAX_EVENTS]; /* 'u' undo, 'f' free */
	int id[MAX_EVENTS];
	int n;
} ev;

static void record(int kind, int id)
{
	assert_true(ev.n < MAX_EVENTS);
	ev.kind[ev.n] = kind;
	ev.id[ev.n] = id;
	ev.n++;
}

static int undo_fn(void *arg)
{
	struct item *it = arg;

	record('u', it->id);
	return it->ret;
}

static void free_fn(void *arg)
{
	struct item *it = arg;

	record('f', it->id);
	free(it);
}

static int push(int id, int ret)
{
	struct item *it = malloc(sizeof(*it));
	char what[32];
	int h;

	assert_non_null(it);
	it->id = id;
	it->ret = ret;
	snprintf(what, sizeof(what), "item %d", id);
	h = ccb_undo_push(what, undo_fn, it, free_fn);
	assert_true(h > 0);
	return h;
}

static int count(int kind, int id)
{
	int c = 0;

	for (int i = 0; i < ev.n; i++)
		c += ev.kind[i] == kind && ev.id[i] == id;
	return c;
}

static int setup(void **state)
{
	(void)state;
	memset(&ev, 0, sizeof(ev));
	return ccb_undo_pending() == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	/* Leave nothing behind for the next test, even after a failure. */
	ccb_undo_unwind();
	return 0;
}

static void test_empty(void **state)
{
	(void)state;
	assert_int_equal(ccb_undo_pending(), 0);
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(ccb_undo_pending(), 0);
	assert_int_equal(ev.n, 0);
	ccb_undo_drop(1234); /* unknown handle: nothing happens */
	assert_int_equal(ccb_undo_pending(), 0);
}

static void test_reverse_order(void **state)
{
	int h[3];

	(void)state;
	for (int i = 0; i < 3; i++) {
		h[i] = push(i + 1, 0);
		assert_int_equal(ccb_undo_pending(), i + 1);
	}
	assert_true(h[0] != h[1] && h[1] != h[2] && h[0] != h[2]);
	assert_int_equal(ev.n, 0); /* pushing runs nothing */

	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(ccb_undo_pending(), 0);
	/* Newest first, each argument freed right after its undo. */
	static const int want_kind[] = {'u', 'f', 'u', 'f', 'u', 'f'};
	static const int want_id[] = {3, 3, 2, 2, 1, 1};
	assert_int_equal(ev.n, 6);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(ev.kind[i], want_kind[i]);
		assert_int_equal(ev.id[i], want_id[i]);
	}

	/* A second unwind has nothing to do. */
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(ev.n, 6);
}

/* Enough entries to outgrow the log's first allocations. */
static void test_many(void **state)
{
	const int n = 100;

	(void)state;
	for (int i = 0; i < n; i++)
		push(i, 0);
	assert_int_equal(ccb_undo_pending(), n);
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(ev.n, 2 * n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(ev.kind[2 * i], 'u');
		assert_int_equal(ev.id[2 * i], n - 1 - i);
		assert_int_equal(ev.kind[2 * i + 1], 'f');
		assert_int_equal(ev.id[2 * i + 1], n - 1 - i);
	}
}

static void test_drop(void **state)
{
	int h1, h2, h3, h4;

	(void)state;
	h1 = push(1, 0);
	h2 = push(2, 0);
	h3 = push(3, 0);
	h4 = push(4, 0);

	ccb_undo_drop(h2);
	assert_int_equal(ccb_undo_pending(), 3);
	/* Dropping frees the argument and runs nothing. */
	assert_int_equal(ev.n, 1);
	assert_int_equal(ev.kind[0], 'f');
	assert_int_equal(ev.id[0], 2);

	/* Dropping again, or an unknown handle, changes nothing. */
	ccb_undo_drop(h2);
	ccb_undo_drop(h4 + 100);
	ccb_undo_drop(0);
	ccb_undo_drop(-1);
	assert_int_equal(ccb_undo_pending(), 3);
	assert_int_equal(ev.n, 1);

	/* Drop the newest too; the rest unwind in order. */
	ccb_undo_drop(h4);
	assert_int_equal(ccb_undo_pending(), 2);
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(count('u', 1), 1);
	assert_int_equal(count('u', 3), 1);
	assert_int_equal(count('u', 2), 0);
	assert_int_equal(count('u', 4), 0);
	for (int id = 1; id <= 4; id++)
		assert_int_equal(count('f', id), 1);
	/* 3 is undone before 1. */
	int pos1 = -1, pos3 = -1;
	for (int i = 0; i < ev.n; i++) {
		if (ev.kind[i] == 'u' && ev.id[i] == 1)
			pos1 = i;
		if (ev.kind[i] == 'u' && ev.id[i] == 3)
			pos3 = i;
	}
	assert_true(pos3 >= 0 && pos1 > pos3);
	(void)h1;
	(void)h3;
}

/* Handles stay valid after other entries are dropped or the log is unwound. */
static void test_handles_unique(void **state)
{
	int h1, h2, h3;

	(void)state;
	h1 = push(1, 0);
	h2 = push(2, 0);
	ccb_undo_drop(h1);
	h3 = push(3, 0);
	assert_true(h3 != h1 && h3 != h2);
	/* h1 is gone: dropping it must not remove another entry. */
	ccb_undo_drop(h1);
	assert_int_equal(ccb_undo_pending(), 2);
	ccb_undo_drop(h3);
	assert_int_equal(ccb_undo_pending(), 1);
	assert_int_equal(count('f', 3), 1);
	assert_int_equal(count('f', 2), 0);
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(count('u', 2), 1);

	/* The log is usable after an unwind, with fresh handles. */
	int h4 = push(4, 0);
	assert_true(h4 != h1 && h4 != h2 && h4 != h3);
	assert_int_equal(ccb_undo_pending(), 1);
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(count('u', 4), 1);
}

static void test_failure_continues(void **state)
{
	(void)state;
	push(1, 0);
	push(2, -EIO);
	push(3, 0);
	assert_int_equal(ccb_undo_unwind(), -EIO);
	for (int id = 1; id <= 3; id++) {
		assert_int_equal(count('u', id), 1);
		assert_int_equal(count('f', id), 1);
	}
	assert_int_equal(ccb_undo_pending(), 0);

	/* Two failures: the first one met (the newest) is returned, and all run. */
	memset(&ev, 0, sizeof(ev));
	push(1, -ENOENT);
	push(2, 0);
	push(3, -EBUSY);
	push(4, 0);
	assert_int_equal(ccb_undo_unwind(), -EBUSY);
	for (int id = 1; id <= 4; id++)
		assert_int_equal(count('u', id), 1);
	assert_int_equal(ccb_undo_pending(), 0);
}

static int plain_undo(void *arg)
{
	(*(int *)arg)++;
	return 0;
}

/* free_arg may be NULL: the argument stays the caller's. */
static void test_null_free(void **state)
{
	int counter = 0;

	(void)state;
	assert_true(ccb_undo_push("counter", plain_undo, &counter, NULL) > 0);
	assert_true(ccb_undo_push("counter", plain_undo, &counter, NULL) > 0);
	int h = ccb_undo_push("counter", plain_undo, &counter, NULL);
	ccb_undo_drop(h);
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(counter, 2);
}

/* ---- repeated signals ---------------------------------------------------- */

static int plain_undo_noop(void *arg)
{
	(void)arg;
	return 0;
}

/* Lines of @p text in order: each needle found after the previous one. */
static void assert_in_order(const char *text, const char *const *needles, int n)
{
	const char *p = text;

	for (int i = 0; i < n; i++) {
		const char *q = strstr(p, needles[i]);

		if (!q)
			fail_msg("'%s' not found (in order) in:\n%s", needles[i], text);
		p = q + strlen(needles[i]);
	}
}

static int push_hinted(const char *what, const char *hint, int id)
{
	struct item *it = malloc(sizeof(*it));
	int h;

	assert_non_null(it);
	it->id = id;
	it->ret = 0;
	h = ccb_undo_push(what, undo_fn, it, free_fn);
	assert_true(h > 0);
	if (hint)
		assert_int_equal(ccb_undo_set_hint(h, "%s", hint), 0);
	return h;
}

/* The texts follow the log: newest first; hints in the "left" text. */
static void test_signal_texts(void **state)
{
	(void)state;
	push_hinted("close the control connection", NULL, 1);
	push_hinted("remove the run's objects", "ccbench cleanup -p p1 -N ccbench --run-name r1",
	            2);
	push_hinted("remove the temporary image", "rbd rm rbd/img1", 3);
	{
		const char *still[] = {"then: remove the temporary image",
		                       "then: remove the run's objects",
		                       "then: close the control connection"};
		const char *left[] = {"remove the temporary image: rbd rm rbd/img1",
		                      "remove the run's objects: ccbench cleanup -p p1 -N ccbench "
		                      "--run-name r1",
		                      "close the control connection (nothing to do by hand)"};
		assert_in_order(ccb_undo_signal_text(2), still, 3);
		assert_in_order(ccb_undo_signal_text(3), left, 3);
		assert_in_order(ccb_undo_signal_text(7), left, 3);
	}
	assert_int_equal(ccb_undo_set_hint(9999, "x"), -ENOENT);
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_non_null(strstr(ccb_undo_signal_text(2), "nothing"));
	assert_null(strstr(ccb_undo_signal_text(3), "rbd rm"));
}

/* Seen from inside an undo, as a signal during the unwind would see it:
 * the running entry first ("now"), the older ones after, the newer ones
 * (already undone) not at all. */
static char seen_still[8192], seen_left[8192];

static int peek_undo(void *arg)
{
	(void)arg;
	snprintf(seen_still, sizeof(seen_still), "%s", ccb_undo_signal_text(2));
	snprintf(seen_left, sizeof(seen_left), "%s", ccb_undo_signal_text(3));
	return 0;
}

static void test_signal_texts_during_unwind(void **state)
{
	int h;

	(void)state;
	push_hinted("oldest", "by hand 1", 1);
	h = ccb_undo_push("slow one", peek_undo, NULL, NULL);
	assert_true(h > 0);
	assert_int_equal(ccb_undo_set_hint(h, "by hand 2"), 0);
	push_hinted("newest", "by hand 3", 3);
	assert_int_equal(ccb_undo_unwind(), 0);
	{
		const char *still[] = {"now: slow one", "then: oldest"};
		const char *left[] = {"slow one (was running): by hand 2", "oldest: by hand 1"};
		assert_in_order(seen_still, still, 2);
		assert_in_order(seen_left, left, 2);
	}
	assert_null(strstr(seen_still, "newest"));
	assert_null(strstr(seen_left, "by hand 3"));
}

/* A log longer than the text: cut at a whole line, and says so. */
static void test_signal_text_bounded(void **state)
{
	char what[200];

	(void)state;
	memset(what, 'w', sizeof(what) - 1);
	what[sizeof(what) - 1] = '\0';
	for (int i = 0; i < 200; i++)
		push_hinted(what, "a long command line to remove it by hand, one of many", i);
	for (int n = 2; n <= 3; n++) {
		const char *t = ccb_undo_signal_text(n);
		size_t l = strlen(t);

		assert_true(l < 8192);
		assert_non_null(strstr(t, "... (more)\n"));
		assert_int_equal(t[l - 1], '\n');
	}
	assert_int_equal(ccb_undo_unwind(), 0);
}

/* An entry with a crash record and no hint: `ccbench restore` undoes
 * it, and the text names the state file that keeps its record. */
static void test_signal_text_record(void **state)
{
	char dir[] = "/tmp/ccb-undo-test.XXXXXX";
	const char *t;
	int h;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("CCB_STATE_DIR", dir, 1);
	h = ccb_undo_push_state("put read_ahead_kb of rbd0 back to 128", plain_undo_noop, NULL,
	                        NULL, json_pack("{s:s}", "kind", "read_ahead_kb"));
	assert_true(h > 0);
	t = ccb_undo_signal_text(3);
	assert_non_null(strstr(t, "put read_ahead_kb of rbd0 back to 128: ccbench restore"));
	assert_non_null(strstr(t, dir));
	assert_int_equal(ccb_undo_unwind(), 0);
	unsetenv("CCB_STATE_DIR");
	assert_int_equal(rmdir(dir), 0); /* the state file went with the clean unwind */
}

/* Run @p fn in a child with stderr into a pipe: its exit status and output. */
static int in_child(void (*fn)(void), char *out, size_t out_len)
{
	int fds[2], st = 0;
	size_t n = 0;
	ssize_t r;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDERR_FILENO);
		fn();
		_exit(99); /* fn should not return */
	}
	close(fds[1]);
	while (n < out_len - 1 && (r = read(fds[0], out + n, out_len - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* The undo log's side: 1 says nothing, 2 says what is still to be undone
 * and returns, 3 gives up with what is left and exits 128 + the first. */
static void child_on_signal(void)
{
	push_hinted("remove the run's objects", "ccbench cleanup -p p1 -N ccbench --run-name r1",
	            1);
	push_hinted("remove the temporary image", "rbd rm rbd/img1", 2);
	ccb_undo_on_signal(1, SIGHUP);
	write(STDERR_FILENO, "[after 1]\n", 10);
	ccb_undo_on_signal(2, SIGHUP);
	write(STDERR_FILENO, "[after 2]\n", 10);
	ccb_undo_on_signal(3, SIGHUP);
}

static void test_on_signal_2_and_3(void **state)
{
	char out[16384];
	const char *order[] = {"[after 1]\n\nccbench: signal again",
	                       "then: remove the temporary image",
	                       "then: remove the run's objects",
	                       "[after 2]",
	                       "giving up",
	                       "remove the temporary image: rbd rm rbd/img1",
	                       "remove the run's objects: ccbench cleanup -p p1 -N ccbench "
	                       "--run-name r1"};

	(void)state;
	assert_int_equal(in_child(child_on_signal, out, sizeof(out)), 128 + SIGHUP);
	assert_in_order(out, order, 7);
}

/*
 * The whole chain through the installed handlers (src/engine.c): the first
 * signal only sets ccb_signal_pending; SIGPIPE never counts as a repeat;
 * the next SIGINT says what is left, the one after gives up with the
 * first signal's status.
 */
static void child_raise(void)
{
	ccb_signals_install();
	push_hinted("remove the temporary image", "rbd rm rbd/img1", 1);
	raise(SIGTERM);
	if (ccb_signal_pending != SIGTERM)
		_exit(90);
	write(STDERR_FILENO, "[1]\n", 4);
	raise(SIGPIPE);
	raise(SIGPIPE);
	if (ccb_signal_pending != SIGTERM)
		_exit(91);
	write(STDERR_FILENO, "[pipe]\n", 7);
	raise(SIGINT);
	write(STDERR_FILENO, "[2]\n", 4);
	raise(SIGHUP);
}

static void test_signal_chain(void **state)
{
	char out[16384];
	const char *order[] = {"[1]\n[pipe]\n\nccbench: signal again",
	                       "then: remove the temporary image", "[2]\n", "giving up",
	                       "remove the temporary image: rbd rm rbd/img1"};

	(void)state;
	assert_int_equal(in_child(child_raise, out, sizeof(out)), 128 + SIGTERM);
	assert_in_order(out, order, 5);
}

/* A SIGPIPE first stops the run (141) and a Ctrl-C after it is the 2nd. */
static void child_pipe_first(void)
{
	ccb_signals_install();
	raise(SIGPIPE);
	if (ccb_signal_pending != SIGPIPE)
		_exit(90);
	raise(SIGINT);
	write(STDERR_FILENO, "[2]\n", 4);
	raise(SIGINT);
}

static void test_signal_pipe_first(void **state)
{
	char out[4096];
	const char *order[] = {"signal again", "[2]\n", "giving up"};

	(void)state;
	assert_int_equal(in_child(child_pipe_first, out, sizeof(out)), 128 + SIGPIPE);
	assert_in_order(out, order, 3);
}

/* ---- the state directory and its records ----------------------------------------- */

static void write_text(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(chmod(path, mode), 0);
}

static void test_state_dir_check(void **state)
{
	char dir[] = "/tmp/ccb-undo-test.XXXXXX", p[PATH_MAX], err[PATH_MAX + 128];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/absent", dir);
	setenv("CCB_STATE_DIR", p, 1);
	assert_int_equal(ccb_undo_state_dir_check(err, sizeof(err)), 0);
	setenv("CCB_STATE_DIR", dir, 1);
	assert_int_equal(ccb_undo_state_dir_check(err, sizeof(err)), 0);
	assert_int_equal(chmod(dir, 0770), 0);
	assert_int_equal(ccb_undo_state_dir_check(err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "writable by its group"));
	assert_non_null(strstr(err, dir));
	/* Nor are records read from it, nor written into it. */
	json_t *list = NULL;
	assert_int_equal(ccb_undo_state_stranded(&list), -EPERM);
	json_decref(list);
	assert_true(ccb_undo_push_state("x", plain_undo_noop, NULL, NULL,
	                                json_pack("{s:s}", "kind", "read_ahead_kb")) < 0);
	assert_int_equal(chmod(dir, 0700), 0);
	snprintf(p, sizeof(p), "%s/link", dir);
	assert_int_equal(symlink(dir, p), 0);
	setenv("CCB_STATE_DIR", p, 1);
	assert_int_equal(ccb_undo_state_dir_check(err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "a symbolic link"));
	unlink(p);
	unsetenv("CCB_STATE_DIR");
	assert_int_equal(rmdir(dir), 0);
}

/* A FIFO, a symlink, a group-writable file, one over 1 MiB and a second
 * name (hard link) of a file elsewhere named like records: skipped, never opened in a way that
 * blocks; the one real record of a dead run is listed. */
static void test_state_bad_files(void **state)
{
	static const char rec[] = "{\"ccbench_state\": 1, \"pid\": 2147483647, \"starttime\": 1, "
	                          "\"command\": \"ccbench\", \"entries\": [{\"kind\": \"x\"}]}";
	char dir[] = "/tmp/ccb-undo-test.XXXXXX", p[PATH_MAX], q[PATH_MAX];
	const char *names[] = {"run-1-1.json", "run-2-2.json", "run-3-3.json", "run-4-4.json",
	                       "run-5-5.json", "run-6-6.json", "planted.json"};
	json_t *list = NULL;
	char *big;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("CCB_STATE_DIR", dir, 1);
	snprintf(p, sizeof(p), "%s/run-1-1.json", dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	snprintf(p, sizeof(p), "%s/run-2-2.json", dir);
	write_text(p, rec, 0600);
	snprintf(q, sizeof(q), "%s/run-3-3.json", dir);
	assert_int_equal(symlink(p, q), 0);
	snprintf(p, sizeof(p), "%s/run-4-4.json", dir);
	write_text(p, rec, 0620);
	big = malloc((1 << 20) + 64);
	assert_non_null(big);
	memset(big, ' ', (1 << 20) + 63);
	memcpy(big, rec, sizeof(rec) - 1);
	big[(1 << 20) + 63] = '\0';
	snprintf(p, sizeof(p), "%s/run-5-5.json", dir);
	write_text(p, big, 0600);
	free(big);
	/* A record's shape, but a second name of a file of root's: not ours. */
	snprintf(p, sizeof(p), "%s/planted.json", dir);
	write_text(p, rec, 0600);
	snprintf(q, sizeof(q), "%s/run-6-6.json", dir);
	assert_int_equal(link(p, q), 0);
	snprintf(p, sizeof(p), "%s/lock-259-0", dir); /* not a record: not looked at */
	write_text(p, "x", 0600);

	alarm(10); /* a FIFO opened for reading would block here */
	assert_int_equal(ccb_undo_state_stranded(&list), 0);
	alarm(0);
	assert_int_equal(json_array_size(list), 1);
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(list, 0), "file")),
	                       "run-2-2.json"));
	json_decref(list);
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		assert_int_equal(unlink(p), 0);
	}
	snprintf(p, sizeof(p), "%s/lock-259-0", dir);
	unlink(p);
	unsetenv("CCB_STATE_DIR");
	assert_int_equal(rmdir(dir), 0);
}

/* This run's own record names it alive; another PID namespace or host may
 * be alive; an earlier boot of this host, or a dead pid, is gone. */
static void test_state_judge(void **state)
{
	char dir[] = "/tmp/ccb-undo-test.XXXXXX", path[PATH_MAX];
	json_t *doc, *id;
	bool maybe;
	int h;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("CCB_STATE_DIR", dir, 1);
	h = ccb_undo_push_state("x", plain_undo_noop, NULL, NULL,
	                        json_pack("{s:s}", "kind", "read_ahead_kb"));
	assert_true(h > 0);
	snprintf(path, sizeof(path), "%s/run-%ld-", dir, (long)getpid());
	/* The one file of this run. */
	char cmd[PATH_MAX + 32];
	snprintf(cmd, sizeof(cmd), "cat %s*.json", path);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	doc = json_loadf(f, 0, NULL);
	pclose(f);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "boot_id")), ccb_undo_boot_id());
	assert_string_equal(json_string_value(json_object_get(doc, "pid_ns")), ccb_undo_pid_ns());
	assert_true(strlen(ccb_undo_boot_id()) == 36);
	assert_true(strncmp(ccb_undo_pid_ns(), "pid:[", 5) == 0);

	assert_string_equal(ccb_undo_judge(doc, &maybe), "a live run");
	assert_false(maybe);
	id = json_deep_copy(doc);
	json_object_set_new(id, "pid_ns", json_string("pid:[1]"));
	assert_string_equal(ccb_undo_judge(id, &maybe), "a run in another PID namespace");
	assert_true(maybe);
	json_object_set_new(id, "boot_id", json_string("00000000-0000-0000-0000-000000000000"));
	assert_null(ccb_undo_judge(id, &maybe)); /* an earlier boot: gone, whatever its pid */
	json_object_set_new(id, "host", json_string("elsewhere"));
	assert_string_equal(ccb_undo_judge(id, &maybe), "a run on another host");
	assert_true(maybe);
	json_decref(id);
	id = json_deep_copy(doc);
	json_object_set_new(id, "starttime", json_integer(1)); /* the pid reused */
	assert_null(ccb_undo_judge(id, &maybe));
	json_decref(id);
	json_decref(doc);
	assert_int_equal(ccb_undo_unwind(), 0);
	unsetenv("CCB_STATE_DIR");
	assert_int_equal(rmdir(dir), 0);
}

/* A key on the command line reaches the record only as <redacted>: the
 * test re-runs itself with one (CCB_UNDO_TEST_CHILD) and reads its record. */
static void test_state_command_redacted(void **state)
{
	char dir[] = "/tmp/ccb-undo-test.XXXXXX", cmd[PATH_MAX + 64];
	int st;
	pid_t pid;

	(void)state;
	assert_non_null(mkdtemp(dir));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		setenv("CCB_STATE_DIR", dir, 1);
		setenv("CCB_UNDO_TEST_CHILD", "1", 1);
		execl("/proc/self/exe", "test_undo", "-o", "key=AQBsecretsecret==", "--map-options",
		      "rw,secret=AQBother", (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	snprintf(cmd, sizeof(cmd), "cat %s/run-*.json", dir);
	FILE *f = popen(cmd, "r");
	json_t *doc = json_loadf(f, 0, NULL);
	pclose(f);
	assert_non_null(doc);
	const char *c = json_string_value(json_object_get(doc, "command"));
	assert_non_null(c);
	assert_null(strstr(c, "AQBsecret"));
	assert_null(strstr(c, "AQBother"));
	assert_non_null(strstr(c, "key=<redacted>"));
	json_decref(doc);
	snprintf(cmd, sizeof(cmd), "rm -f %s/run-*.json", dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* ---- copies on the cluster: what restore -c accepts ------------------------ */

#define SEEDS CCB_TEST_SOURCE_DIR "/tests/fuzz/corpus/restore/"
#define FSID  "5f2d2b53-9a7e-4c1e-8d3a-1b2c3d4e5f60"

/* A seed of fuzz_restore (KEY\nTEXT), checked as restore -c checks it. */
static const char *check_seed(const char *name, const char *key_instead)
{
	char path[PATH_MAX], *buf, *nl;
	const char *why;
	json_t *doc = NULL;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), SEEDS "%s", name);
	f = fopen(path, "r");
	assert_non_null(f);
	buf = calloc(1, 1 << 17);
	assert_non_null(buf);
	n = (long)fread(buf, 1, (1 << 17) - 1, f);
	fclose(f);
	assert_true(n > 0);
	nl = strchr(buf, '\n');
	assert_non_null(nl);
	*nl = '\0';
	why = ccb_restore_check_copy(key_instead ? key_instead : buf, nl + 1, FSID, &doc);
	if (why)
		assert_null(doc);
	else
		assert_true(json_is_object(json_object_get(doc, "record")));
	json_decref(doc);
	free(buf);
	return why;
}

static void test_cluster_copy_seeds(void **state)
{
	static const struct {
		const char *seed, *why;
	} cases[] = {
	    {"osd_inject", NULL},
	    {"rbd_image", NULL},
	    {"rbd_image-no-cluster-key", NULL},
	    {"fault", NULL},
	    /* A command to run is never taken from the cluster. */
	    {"fault-exec",
	     "not an osd_inject, rbd_image or fault record of the fields ccbench writes"},
	    {"wrong-fsid", "of another cluster than this one"},
	    {"extra-field",
	     "not an osd_inject, rbd_image or fault record of the fields ccbench writes"},
	    {"kind-loop",
	     "not an osd_inject, rbd_image or fault record of the fields ccbench writes"},
	    {"key-other-boot", "its key does not match its run"},
	    {"key-mismatch", "its key does not match its run"},
	    {"run-empty", "its run is not host, boot_id, pid_ns, pid, starttime"},
	    {"escape-host", "its run is not host, boot_id, pid_ns, pid, starttime"},
	    {"not-json", "not a ccbench record"},
	    {"duplicate", "not a ccbench record"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const char *why = check_seed(cases[i].seed, NULL);

		if (!cases[i].why)
			assert_null(why);
		else
			assert_string_equal(why ? why : "(accepted)", cases[i].why);
	}
}

/* The key is exactly the one its run wrote: restore prints it and removes it. */
static void test_cluster_copy_key(void **state)
{
	static const char *const bad[] = {
	    "ccbench/run/0c6b3f1e-2a4d-4e8f-9b7a-6d5c4b3a2f10/4242-1796194515-2\x1b]0;x\x07",
	    "ccbench/run/0c6b3f1e-2a4d-4e8f-9b7a-6d5c4b3a2f10/4242-1796194515-",
	    "ccbench/run/0c6b3f1e-2a4d-4e8f-9b7a-6d5c4b3a2f10/4242-1796194515-2 x",
	    "ccbench/run/0c6b3f1e-2a4d-4e8f-9b7a-6d5c4b3a2f10/4243-1796194515-2",
	    "ccbench/run/0c6b3f1e-2a4d-4e8f-9b7a-6d5c4b3a2f10/4242-1796194516-2",
	    "ccbench/run/0c6b3f1e-2a4d-4e8f-9b7a-6d5c4b3a2f10/4242-1796194515-12345678901",
	};
	json_t *doc = (json_t *)1;

	(void)state;
	/* The kind-loop seed has no cluster_key: the key alone decides, before the kind. */
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_string_equal(check_seed("kind-loop", bad[i]),
		                    "its key does not match its run");
	assert_string_equal(
	    check_seed("kind-loop", "ccbench/run/0c6b3f1e-2a4d-4e8f-9b7a-6d5c4b3a2f10/"
	                            "4242-1796194515-7"),
	    "not an osd_inject, rbd_image or fault record of the fields ccbench writes");
	assert_non_null(ccb_restore_check_copy("ccbench/run/x/1-1-1", NULL, FSID, &doc));
	assert_null(doc);
	assert_non_null(ccb_restore_check_copy(NULL, "{}", FSID, &doc));
	assert_non_null(ccb_restore_check_copy("ccbench/run/x/1-1-1", "{}", NULL, &doc));
}

/* A config-key dump keeps only the keys under ccbench/run/. */
static void test_cluster_parse(void **state)
{
	const char dump[] = "{\"ccbench/run/b/1-1-1\": \"x\", \"config/global/a\": \"3\", "
	                    "\"ccbench/runx\": \"y\", \"ccbench/run/b/1-1-2\": 7}";
	char err[128];
	json_t *out = (json_t *)1;

	(void)state;
	assert_int_equal(ccb_undo_cluster_parse(dump, strlen(dump), &out, err, sizeof(err)), 0);
	assert_int_equal(json_object_size(out), 2);
	assert_non_null(json_object_get(out, "ccbench/run/b/1-1-1"));
	assert_non_null(json_object_get(out, "ccbench/run/b/1-1-2"));
	json_decref(out);
	assert_int_equal(ccb_undo_cluster_parse("[1]", 3, &out, err, sizeof(err)), -EBADMSG);
	assert_null(out);
	assert_non_null(strstr(err, "not a JSON object"));
}

int main(void)
{
	/* test_state_command_redacted's child: record, then die without unwinding. */
	if (getenv("CCB_UNDO_TEST_CHILD"))
		_exit(ccb_undo_push_state("x", plain_undo_noop, NULL, NULL,
		                          json_pack("{s:s}", "kind", "read_ahead_kb")) > 0
		          ? 0
		          : 1);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_reverse_order, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_many, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_drop, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_handles_unique, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_failure_continues, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_null_free, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_signal_texts, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_signal_texts_during_unwind, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_signal_text_bounded, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_signal_text_record, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_on_signal_2_and_3, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_signal_chain, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_signal_pipe_first, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_state_dir_check, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_state_bad_files, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_state_judge, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_state_command_redacted, setup, teardown),
	    cmocka_unit_test(test_cluster_copy_seeds),
	    cmocka_unit_test(test_cluster_copy_key),
	    cmocka_unit_test(test_cluster_parse),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
