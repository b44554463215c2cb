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

const char *ccb_undo_state_dir(void)
{
	const char *d = getenv("CCB_STATE_DIR");

	return d && d[0] ? d : "/run/ccbench";
}

/* Field 22 of /proc/PID/stat: the start time, which tells a reused pid
 * apart. 0 when the process is gone or a zombie (it has finished). */
static unsigned long long proc_starttime(long pid)
{
	char path[64], buf[1024], *p;
	FILE *f;
	size_t n;
	int field;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The command name may hold spaces and parentheses: skip past the last ')'. */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
		return 0;
	p += 2; /* field 3, the state */
	for (field = 3; field < 22 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	return p ? strtoull(p, NULL, 10) : 0;
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

static json_t *own_command(void)
{
	char buf[1024];
	ssize_t n;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return json_string("ccbench");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return json_string("ccbench");
	for (ssize_t i = 0; i < n - 1; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	return json_string(buf);
}

/* State files are opened without following links, and temporary ones
 * are made new (O_EXCL): a name planted in the directory is never
 * written or read through. */
static json_t *load_nofollow(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	json_t *doc;

	if (fd < 0)
		return NULL;
	doc = json_loadfd(fd, 0, NULL);
	close(fd);
	return doc;
}

static int dump_new(json_t *doc, const char *tmp)
{
	int fd, r = 0;

	unlink(tmp); /* a leftover of a crash mid-write, in our own directory */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (json_dumpfd(doc, fd, JSON_INDENT(1)) < 0)
		r = errno ? -errno : -EIO;
	if (close(fd) < 0 && !r)
		r = -errno;
	if (r)
		unlink(tmp);
	return r;
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
		snprintf(state_path, sizeof(state_path), "%s/run-%ld-%llu.json", dir,
		         (long)getpid(), proc_starttime(getpid()));
	}
	doc = json_pack("{s:i, s:i, s:I, s:o, s:o}", "ccbench_state", 1, "pid", (int)getpid(),
	                "starttime", (json_int_t)proc_starttime(getpid()), "command", own_command(),
	                "entries", entries);
	snprintf(tmp, sizeof(tmp), "%s.tmp", state_path);
	if (!doc) {
		r = -ENOMEM;
	} else if ((r = dump_new(doc, tmp)) < 0) {
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

int ccb_undo_state_set(int handle, const char *key, json_t *value)
{
	for (int i = 0; i < n_entries; i++) {
		if (log_entries[i].handle != handle)
			continue;
		if (!log_entries[i].record)
			break;
		json_object_set_new(log_entries[i].record, key, value);
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

/* ---- stranded state of dead runs ---------------------------------------- */

static bool is_state_name(const char *name)
{
	size_t l = strlen(name);

	return strncmp(name, "run-", 4) == 0 && l > 9 && strcmp(name + l - 5, ".json") == 0;
}

int ccb_undo_state_stranded(json_t **out)
{
	const char *dir = ccb_undo_state_dir();
	json_t *list = json_array();
	struct dirent *de;
	DIR *d;

	if (!list)
		return -ENOMEM;
	*out = list;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		char path[PATH_MAX];
		json_t *doc, *entries;
		json_int_t pid;

		if (!is_state_name(de->d_name))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		doc = load_nofollow(path);
		entries = json_object_get(doc, "entries");
		pid = json_integer_value(json_object_get(doc, "pid"));
		if (!json_is_array(entries) || pid <= 0) {
			fprintf(stderr, "ccbench: %s: not a ccbench state file; ignored\n", path);
			json_decref(doc);
			continue;
		}
		/* A live process with the same start time is a run in progress: not ours to undo.
		 */
		if (proc_starttime((long)pid) ==
		    (unsigned long long)json_integer_value(json_object_get(doc, "starttime"))) {
			json_decref(doc);
			continue;
		}
		json_array_append_new(
		    list, json_pack("{s:s, s:I, s:O, s:O}", "file", path, "pid", pid, "command",
		                    json_object_get(doc, "command"), "entries", entries));
		json_decref(doc);
	}
	closedir(d);
	return 0;
}

int ccb_undo_state_report(void)
{
	json_t *list = NULL, *f, *e;
	size_t i, j;
	int n = 0;

	if (ccb_undo_state_stranded(&list) < 0)
		return 0;
	json_array_foreach(list, i, f)
	{
		json_array_foreach(json_object_get(f, "entries"), j, e)
		{
			fprintf(stderr,
			        "ccbench: warning: run pid %lld (%s) died without undoing: %s\n",
			        (long long)json_integer_value(json_object_get(f, "pid")),
			        json_string_value(json_object_get(f, "command")),
			        json_string_value(json_object_get(e, "what")));
			n++;
		}
	}
	if (n)
		fprintf(stderr,
		        "ccbench: warning: %d stranded change%s recorded in %s; put %s back "
		        "with: ccbench restore\n",
		        n, n == 1 ? "" : "s", ccb_undo_state_dir(), n == 1 ? "it" : "them");
	json_decref(list);
	return n;
}

int ccb_undo_state_resolve(const char *file, json_t *remaining)
{
	json_t *doc;
	char tmp[PATH_MAX + 8];
	int r = 0;

	if (!json_array_size(remaining))
		return unlink(file) < 0 && errno != ENOENT ? -errno : 0;
	doc = load_nofollow(file);
	if (!doc)
		return -EIO;
	json_object_set(doc, "entries", remaining);
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	r = dump_new(doc, tmp);
	if (r == 0 && rename(tmp, file) < 0)
		r = -errno;
	json_decref(doc);
	return r;
}
