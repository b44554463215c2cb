/*
 * The undo log. A plain array, unwound newest first. Entries are pushed
 * before the change they undo is made, so a failure between the two only
 * costs a harmless undo of nothing (removing an absent object is fine).
 *
 * Entries with a record are mirrored in the crash state file (see undo.h);
 * the file always holds exactly the records of the entries still pending
 * plus those whose undo failed, so a restore never redoes a finished undo.
 *
 * Repeated signals (see ccb_undo_on_signal): the signal handler may not
 * read the log while the main thread changes it (a realloc, a memmove),
 * so every change republishes two texts -- what is still to be undone, and
 * what is left with how to remove it by hand -- into the spare one of two
 * static buffers, then flips an index. The handler only write()s the
 * published buffer: async-signal-safe, and never a half-built text.
 */
#include <ccbench/undo.h>

#include "undo_int.h"

#include <dirent.h>
#include <stdatomic.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct entry {
	int handle;
	char what[160];
	char hint[256]; /* how to undo it by hand, or "" */
	ccb_undo_fn fn;
	void *arg;
	void (*free_arg)(void *);
	json_t *record; /* crash record, or NULL */
	rados_t cl;     /* with a copy of the record on that cluster, or NULL */
	char ckey[160]; /* its config-key, when cl */
};

static struct entry *log_entries;
static int n_entries, cap_entries, next_handle = 1;

/* Records whose undo failed: kept in the state file for `restore`. */
static json_t *failed_records;
static char state_path[PATH_MAX];

/* The texts of a 2nd and a 3rd signal, double-buffered (see the top). */
#define SNAP_BYTES 8192
static char snap_text[2][2][SNAP_BYTES];
static size_t snap_len[2][2];
static volatile sig_atomic_t snap_cur;

struct snap_buf {
	char *p;
	size_t len, cap;
	bool full;
};

/* Append one line; a line that does not fit ends the text with "...". */
static void snap_add(struct snap_buf *b, const char *fmt, ...)
{
	static const char more[] = "ccbench:   ... (more)\n";
	char line[600];
	va_list ap;
	int n;

	if (b->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	if (b->len + (size_t)n + sizeof(more) > b->cap) {
		memcpy(b->p + b->len, more, sizeof(more));
		b->len += sizeof(more) - 1;
		b->full = true;
		return;
	}
	memcpy(b->p + b->len, line, (size_t)n + 1);
	b->len += (size_t)n;
}

static void snap_entry(struct snap_buf *still, struct snap_buf *left, const struct entry *e,
                       bool running)
{
	snap_add(still, "ccbench:   %s%s\n", running ? "now: " : "then: ", e->what);
	if (e->hint[0])
		snap_add(left, "ccbench:   %s%s: %s\n", e->what, running ? " (was running)" : "",
		         e->hint);
	else if (e->record)
		snap_add(left, "ccbench:   %s%s: ccbench restore\n", e->what,
		         running ? " (was running)" : "");
	else
		snap_add(left, "ccbench:   %s%s (nothing to do by hand)\n", e->what,
		         running ? " (was running)" : "");
}

/* Rebuild both texts from the log (newest first, @p running first of all)
 * into the spare buffers and publish them. */
static void snap_publish(const struct entry *running)
{
	int spare = !snap_cur;
	struct snap_buf still = {snap_text[spare][0], 0, SNAP_BYTES, false};
	struct snap_buf left = {snap_text[spare][1], 0, SNAP_BYTES, false};

	still.p[0] = left.p[0] = '\0';
	if (running)
		snap_entry(&still, &left, running, true);
	for (int i = n_entries - 1; i >= 0; i--)
		snap_entry(&still, &left, &log_entries[i], false);
	if (!running && n_entries == 0) {
		snap_add(&still, "ccbench:   (nothing: the log is empty)\n");
		snap_add(&left, "ccbench:   (nothing)\n");
	}
	if (state_path[0])
		snap_add(&left, "ccbench:   (records of these are in %s)\n", state_path);
	snap_len[spare][0] = still.len;
	snap_len[spare][1] = left.len;
	/* The texts are complete before the index says so. */
	atomic_signal_fence(memory_order_seq_cst);
	snap_cur = spare;
	atomic_signal_fence(memory_order_seq_cst);
}

const char *ccb_undo_signal_text(int n)
{
	return snap_text[snap_cur][n >= 3];
}

static void write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* a closed stderr: nothing more to say */
		p += w;
		len -= (size_t)w;
	}
}

static void write_str(int fd, const char *s)
{
	write_all(fd, s, strlen(s));
}

void ccb_undo_on_signal(int n, int first_signo)
{
	int saved = errno, cur = snap_cur;

	if (n < 2)
		return;
	if (n == 2) {
		write_str(STDERR_FILENO, "\nccbench: signal again: still cleaning up (once more "
		                         "to give up and leave the rest):\n");
		if (snap_len[cur][0])
			write_all(STDERR_FILENO, snap_text[cur][0], snap_len[cur][0]);
		else
			write_str(STDERR_FILENO, "ccbench:   (nothing: the log is empty)\n");
		errno = saved;
		return;
	}
	write_str(STDERR_FILENO, "\nccbench: giving up the cleanup; left behind, and how to "
	                         "remove it:\n");
	if (snap_len[cur][1])
		write_all(STDERR_FILENO, snap_text[cur][1], snap_len[cur][1]);
	else
		write_str(STDERR_FILENO, "ccbench:   (nothing)\n");
	_exit(128 + first_signo);
}

static int mkdir_p(const char *dir)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Write the state file atomically (temp + rename), or remove it when no
 * record is left. */
static int state_write(void)
{
	json_t *entries = json_array(), *doc;
	char tmp[PATH_MAX + 8];
	int r = 0;

	for (int i = 0; i < n_entries; i++)
		if (log_entries[i].record)
			json_array_append(entries, log_entries[i].record);
	if (failed_records)
		json_array_extend(entries, failed_records);
	if (json_array_size(entries) == 0) {
		json_decref(entries);
		if (state_path[0] && unlink(state_path) < 0 && errno != ENOENT)
			r = -errno;
		state_path[0] = '\0';
		return r;
	}
	if (!state_path[0]) {
		const char *dir = ccb_undo_state_dir();
		r = mkdir_p(dir);
		if (r < 0) {
			fprintf(stderr, "ccbench: mkdir %s: %s\n", dir, strerror(-r));
			json_decref(entries);
			return r;
		}
		/* Made by someone else before us, or a link: refused, no record
		 * written (and so no change made). */
		int dfd = ccb_undo_open_state_dir();
		if (dfd < 0) {
			json_decref(entries);
			return -EPERM;
		}
		close(dfd);
		/* The boot and the PID namespace in the name: a persistent
		 * directory, or one shared by containers, never sees two runs
		 * under one name. */
		snprintf(state_path, sizeof(state_path), "%s/run-%ld-%llu-%.8s-%s.json", dir,
		         (long)getpid(), ccb_undo_proc_starttime(getpid()), ccb_undo_boot_id(),
		         ccb_undo_ns_digits(ccb_undo_pid_ns()));
	}
	doc = json_pack("{s:i, s:i, s:I, s:s, s:s, s:s, s:o, s:o}", "ccbench_state", 2, "pid",
	                (int)getpid(), "starttime", (json_int_t)ccb_undo_proc_starttime(getpid()),
	                "boot_id", ccb_undo_boot_id(), "pid_ns", ccb_undo_pid_ns(), "host",
	                ccb_undo_host(), "command", ccb_undo_own_command(), "entries", entries);
	snprintf(tmp, sizeof(tmp), "%s.tmp", state_path);
	if (!doc) {
		r = -ENOMEM;
	} else if ((r = ccb_undo_dump_new(doc, tmp)) < 0) {
		fprintf(stderr, "ccbench: write %s: %s\n", tmp, strerror(-r));
	} else if (rename(tmp, state_path) < 0) {
		r = -errno;
		fprintf(stderr, "ccbench: rename %s: %s\n", tmp, strerror(-r));
		unlink(tmp);
	}
	json_decref(doc);
	return r;
}

static int push(const char *what, ccb_undo_fn fn, void *arg, void (*free_arg)(void *),
                json_t *record)
{
	struct entry *e;

	if (n_entries == cap_entries) {
		int cap = cap_entries ? cap_entries * 2 : 16;
		struct entry *n = realloc(log_entries, (size_t)cap * sizeof(*n));
		if (!n) {
			/* The change will not be made, so its argument is ours to free. */
			if (free_arg)
				free_arg(arg);
			json_decref(record);
			return -ENOMEM;
		}
		log_entries = n;
		cap_entries = cap;
	}
	e = &log_entries[n_entries++];
	e->handle = next_handle++;
	snprintf(e->what, sizeof(e->what), "%s", what);
	e->hint[0] = '\0';
	e->fn = fn;
	e->arg = arg;
	e->free_arg = free_arg;
	e->record = record;
	e->cl = NULL;
	e->ckey[0] = '\0';
	if (record) {
		int r;

		json_object_set_new(record, "what", json_string(what));
		r = state_write();
		if (r < 0) {
			/* Without the record a crash would strand the change: do not make it. */
			n_entries--;
			if (free_arg)
				free_arg(arg);
			json_decref(record);
			state_write();
			snap_publish(NULL);
			return r;
		}
	}
	snap_publish(NULL);
	return e->handle;
}

int ccb_undo_set_hint(int handle, const char *fmt, ...)
{
	for (int i = 0; i < n_entries; i++) {
		va_list ap;

		if (log_entries[i].handle != handle)
			continue;
		va_start(ap, fmt);
		vsnprintf(log_entries[i].hint, sizeof(log_entries[i].hint), fmt, ap);
		va_end(ap);
		snap_publish(NULL);
		return 0;
	}
	return -ENOENT;
}

int ccb_undo_push(const char *what, ccb_undo_fn fn, void *arg, void (*free_arg)(void *))
{
	return push(what, fn, arg, free_arg, NULL);
}

int ccb_undo_push_state(const char *what, ccb_undo_fn fn, void *arg, void (*free_arg)(void *),
                        json_t *record)
{
	if (!record) {
		if (free_arg)
			free_arg(arg);
		return -ENOMEM;
	}
	return push(what, fn, arg, free_arg, record);
}

static struct entry *find_entry(int handle)
{
	for (int i = 0; i < n_entries; i++)
		if (log_entries[i].handle == handle)
			return &log_entries[i];
	return NULL;
}

int ccb_undo_push_cluster(const char *what, ccb_undo_fn fn, void *arg, void (*free_arg)(void *),
                          json_t *record, rados_t cl)
{
	char key[160], err[512];
	struct entry *e;
	json_t *cmd;
	int h, r;

	if (!record || ccb_undo_cluster_key(key, sizeof(key), next_handle) < 0) {
		json_decref(record);
		if (free_arg)
			free_arg(arg);
		return -ENOMEM;
	}
	/* The local record names its copy, so a local restore removes both. */
	json_object_set_new(record, "cluster_key", json_string(key));
	h = push(what, fn, arg, free_arg, record);
	if (h < 0 || !(e = find_entry(h)))
		return h;
	cmd = ccb_undo_own_command();
	r = ccb_undo_cluster_put(cl, key, e->record, cmd, err, sizeof(err));
	json_decref(cmd);
	if (r < 0) {
		fprintf(stderr,
		        "ccbench: warning: %s: the record could not be kept on the cluster too "
		        "(%s): if this host goes down before the run ends, only `ccbench restore` "
		        "on this host (from %s) finds it\n",
		        what, err, ccb_undo_state_dir());
		return h;
	}
	e->cl = cl;
	snprintf(e->ckey, sizeof(e->ckey), "%s", key);
	return h;
}

/* The entry is settled (undone, or kept on purpose): its cluster copy goes. */
static void cluster_forget(const struct entry *e)
{
	char err[512];

	if (e->cl && ccb_undo_cluster_rm(e->cl, e->ckey, err, sizeof(err)) < 0)
		fprintf(stderr,
		        "ccbench: warning: %s: its record on the cluster (config-key %s) stays: %s "
		        "(`ccbench restore -c CONF` removes it)\n",
		        e->what, e->ckey, err);
}

int ccb_undo_state_set(int handle, const char *key, json_t *value)
{
	for (int i = 0; i < n_entries; i++) {
		if (log_entries[i].handle != handle)
			continue;
		if (!log_entries[i].record)
			break;
		json_object_set_new(log_entries[i].record, key, value);
		if (log_entries[i].cl) {
			char err[512];
			json_t *cmd = ccb_undo_own_command();

			if (ccb_undo_cluster_put(log_entries[i].cl, log_entries[i].ckey,
			                         log_entries[i].record, cmd, err, sizeof(err)) < 0)
				fprintf(stderr,
				        "ccbench: warning: %s: update its record on the "
				        "cluster: %s\n",
				        log_entries[i].what, err);
			json_decref(cmd);
		}
		return state_write();
	}
	json_decref(value);
	return -ENOENT;
}

/* Run one entry (already taken out of the array) and settle its record. */
static int run_entry(struct entry *e)
{
	struct timespec t0, t1;
	int r;

	snap_publish(e);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = e->fn(e->arg);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	if (r < 0)
		fprintf(stderr, "ccbench: undo failed: %s: %s\n", e->what, strerror(-r));
	else
		cluster_forget(e);
	/* An undo that waits on the cluster (an image removal behind a down
	 * OSD) is why an interrupted run is slow to end: say which, and how long. */
	double took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (took >= 3.0)
		fprintf(stderr, "ccbench: undo: %s took %.1f s\n", e->what, took);
	if (e->record) {
		if (r < 0) {
			if (!failed_records)
				failed_records = json_array();
			json_array_append(failed_records, e->record);
		}
		json_decref(e->record);
		state_write();
	}
	if (e->free_arg)
		e->free_arg(e->arg);
	snap_publish(NULL);
	return r;
}

int ccb_undo_run(int handle)
{
	for (int i = 0; i < n_entries; i++) {
		struct entry e = log_entries[i];

		if (e.handle != handle)
			continue;
		memmove(&log_entries[i], &log_entries[i + 1],
		        (size_t)(n_entries - i - 1) * sizeof(*log_entries));
		n_entries--;
		return run_entry(&e);
	}
	return -ENOENT;
}

void ccb_undo_drop(int handle)
{
	for (int i = 0; i < n_entries; i++) {
		if (log_entries[i].handle != handle)
			continue;
		json_t *record = log_entries[i].record;

		cluster_forget(&log_entries[i]);
		if (log_entries[i].free_arg)
			log_entries[i].free_arg(log_entries[i].arg);
		memmove(&log_entries[i], &log_entries[i + 1],
		        (size_t)(n_entries - i - 1) * sizeof(*log_entries));
		n_entries--;
		if (record) {
			json_decref(record);
			state_write();
		}
		snap_publish(NULL);
		return;
	}
}

int ccb_undo_unwind(void)
{
	int first = 0;

	while (n_entries > 0) {
		struct entry e = log_entries[--n_entries];
		int r = run_entry(&e);

		if (r < 0 && !first)
			first = r;
	}
	free(log_entries);
	log_entries = NULL;
	cap_entries = 0;
	if (state_path[0])
		fprintf(stderr,
		        "ccbench: undo records kept in %s; 'ccbench restore' retries them\n",
		        state_path);
	/* The file stays for `restore`; this process forgets it. */
	json_decref(failed_records);
	failed_records = NULL;
	state_path[0] = '\0';
	return first;
}

int ccb_undo_pending(void)
{
	return n_entries;
}

int ccb_undo_mark(void)
{
	return n_entries;
}

int ccb_undo_unwind_to(int mark)
{
	int first = 0;

	/* A mark of 0 is the whole log: let the full unwind settle the state file. */
	if (mark <= 0)
		return ccb_undo_unwind();
	while (n_entries > mark) {
		struct entry e = log_entries[--n_entries];
		int r = run_entry(&e);

		if (r < 0 && !first)
			first = r;
	}
	return first;
}
