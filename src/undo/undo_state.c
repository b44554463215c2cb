/*
 * The crash state directory and its records, as read back: who a run is
 * (pid, start time, boot, PID namespace, host), whether a recorded run is
 * gone, the checks on the directory and on each file before it is read,
 * and the stranded records of runs that are gone (see undo.h).
 */
#include <ccbench/redact.h>
#include <ccbench/undo.h>

#include "undo_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *ccb_undo_state_dir(void)
{
	const char *d = getenv("CCB_STATE_DIR");

	return d && d[0] ? d : "/run/ccbench";
}

/* Field 22 of /proc/PID/stat: the start time, which tells a reused pid
 * apart. 0 when the process is gone or a zombie (it has finished). */
unsigned long long ccb_undo_proc_starttime(long pid)
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

/* This process's command line, redacted: the record is read back by every
 * later run (and printed on its stderr), so a key given on the command line
 * must not reach it. */
json_t *ccb_undo_own_command(void)
{
	char buf[4096], *argv[256], *text;
	ssize_t n;
	int argc = 0, fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	json_t *args, *s;

	if (fd < 0)
		return json_string("ccbench");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return json_string("ccbench");
	buf[n] = '\0';
	for (char *p = buf; p < buf + n && argc < (int)(sizeof(argv) / sizeof(*argv));
	     p += strlen(p) + 1)
		argv[argc++] = p;
	args = ccb_redact_argv(argc, argv);
	if (!args)
		return json_string("ccbench");
	size_t len = 0, i;
	json_array_foreach(args, i, s) len += strlen(json_string_value(s)) + 1;
	text = malloc(len + 1);
	if (!text) {
		json_decref(args);
		return json_string("ccbench");
	}
	text[0] = '\0';
	json_array_foreach(args, i, s)
	{
		if (i)
			strcat(text, " ");
		strcat(text, json_string_value(s));
	}
	json_decref(args);
	/* A secret in free text of one argument ("--map-options a,secret=X"
	 * split oddly) is caught once more on the joined line. */
	char *red = ccb_redact_text(text);
	free(text);
	if (!red)
		return json_string("ccbench");
	s = json_string(red);
	free(red);
	return s ? s : json_string("ccbench");
}

/* ---- who this run is --------------------------------------------------- */

/* A run is pid + start time since boot within one PID namespace of one
 * boot of one host: the pid check means something only inside all three. */
static void read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

const char *ccb_undo_boot_id(void)
{
	static char id[64];

	if (!id[0])
		read_line("/proc/sys/kernel/random/boot_id", id, sizeof(id));
	return id;
}

const char *ccb_undo_pid_ns(void)
{
	static char ns[64];

	if (!ns[0]) {
		ssize_t n = readlink("/proc/self/ns/pid", ns, sizeof(ns) - 1);
		ns[n > 0 ? n : 0] = '\0';
	}
	return ns;
}

const char *ccb_undo_host(void)
{
	static char host[256];

	if (!host[0] && gethostname(host, sizeof(host) - 1) < 0)
		host[0] = '\0';
	return host;
}

/* The digits of "pid:[4026531836]", for a file name. */
const char *ccb_undo_ns_digits(const char *ns)
{
	static char d[32];
	size_t n = 0;

	for (; *ns && n < sizeof(d) - 1; ns++)
		if (*ns >= '0' && *ns <= '9')
			d[n++] = *ns;
	d[n] = '\0';
	return d;
}

static bool str_eq(const json_t *v, const char *s)
{
	return json_is_string(v) && strcmp(json_string_value(v), s) == 0;
}

const char *ccb_undo_judge(const json_t *id, bool *maybe_alive)
{
	const json_t *boot = json_object_get(id, "boot_id"), *ns = json_object_get(id, "pid_ns"),
	             *host = json_object_get(id, "host");
	json_int_t pid = json_integer_value(json_object_get(id, "pid"));

	*maybe_alive = false;
	if (host && !str_eq(host, ccb_undo_host())) {
		*maybe_alive = true;
		return "a run on another host";
	}
	if (boot && !str_eq(boot, ccb_undo_boot_id()))
		return NULL; /* an earlier boot of this host: its processes are gone */
	if (ns && !str_eq(ns, ccb_undo_pid_ns())) {
		*maybe_alive = true;
		return "a run in another PID namespace";
	}
	/* Same boot, same namespace (or an older record without them): a live
	 * process with the same start time is the run itself. */
	if (pid > 0 && pid <= INT_MAX &&
	    ccb_undo_proc_starttime((long)pid) ==
	        (unsigned long long)json_integer_value(json_object_get(id, "starttime")))
		return "a live run";
	return NULL;
}

/* ---- the state directory ---------------------------------------------------- */

/* Root's, or (a user running ccbench on their own devices) ours; no one
 * else could then have written a record we act on. */
static bool owner_ok(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

static int check_dir_stat(const char *dir, const struct stat *st, char *err, size_t err_len)
{
	if (!S_ISDIR(st->st_mode)) {
		snprintf(err, err_len, "state directory %s: %s; refused", dir,
		         S_ISLNK(st->st_mode) ? "a symbolic link" : "not a directory");
		return -EPERM;
	}
	if (!owner_ok(st->st_uid)) {
		snprintf(err, err_len,
		         "state directory %s: owned by uid %u, not root or uid %u; refused", dir,
		         (unsigned)st->st_uid, (unsigned)geteuid());
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, err_len,
		         "state directory %s: writable by %s (mode %03o); refused (chmod 700 it)",
		         dir, st->st_mode & S_IWOTH ? "others" : "its group",
		         (unsigned)(st->st_mode & 0777));
		return -EPERM;
	}
	return 0;
}

int ccb_undo_dump_new(json_t *doc, const char *tmp)
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

int ccb_undo_state_dir_ready(char *err, size_t err_len)
{
	if (mkdir(ccb_undo_state_dir(), 0700) < 0 && errno != EEXIST) {
		int r = -errno;

		snprintf(err, err_len, "mkdir %s: %s", ccb_undo_state_dir(), strerror(errno));
		return r;
	}
	/* Records, locks, mount points and logs go there: a directory others
	 * can write to would let them swap a path under us. */
	return ccb_undo_state_dir_check(err, err_len);
}

int ccb_undo_state_dir_check(char *err, size_t err_len)
{
	const char *dir = ccb_undo_state_dir();
	struct stat st;

	if (lstat(dir, &st) < 0) {
		if (errno == ENOENT)
			return 0; /* made 0700 by the first record */
		snprintf(err, err_len, "state directory %s: %s", dir, strerror(errno));
		return -EPERM;
	}
	return check_dir_stat(dir, &st, err, err_len);
}

/* The directory, opened without following a link and checked on the
 * opened inode (no swap between the check and the use): -ENOENT when
 * absent, -EPERM with the reason on stderr. */
int ccb_undo_open_state_dir(void)
{
	const char *dir = ccb_undo_state_dir();
	char err[PATH_MAX + 128];
	struct stat st;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		int r = -errno;

		if (r == -ENOENT)
			return r;
		if (lstat(dir, &st) == 0 && check_dir_stat(dir, &st, err, sizeof(err)) < 0) {
			fprintf(stderr, "ccbench: %s\n", err);
			return -EPERM;
		}
		/* Root's /run/ccbench, for a user who is not root: sound, but
		 * not theirs to read (their runs record nothing there). */
		if (r == -EACCES)
			return r;
		fprintf(stderr, "ccbench: state directory %s: %s\n", dir, strerror(-r));
		return -EPERM;
	}
	if (fstat(fd, &st) < 0 || check_dir_stat(dir, &st, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* One record file of directory @p dfd: not followed, never blocking (a
 * FIFO of that name), a regular file of one name, of root or us, not
 * writable by others, at most CCB_UNDO_RECORD_MAX bytes; only then read.
 * NULL with the reason in @p why otherwise. */
static json_t *load_record_at(int dfd, const char *name, const char **why)
{
	struct stat st;
	json_t *doc = NULL;
	char *buf;
	size_t got = 0;
	int fd;

	*why = NULL;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		*why = strerror(errno);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file";
		return NULL;
	}
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		*why = strerror(errno);
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		*why = "not a regular file";
	else if (st.st_nlink != 1)
		*why = "a hard link (more than one name)";
	else if (!owner_ok(st.st_uid))
		*why = "not owned by root";
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		*why = "writable by its group or others";
	else if (st.st_size > CCB_UNDO_RECORD_MAX)
		*why = "larger than a state file can be";
	if (*why) {
		close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf && got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (buf)
		doc = json_loadb(buf, got, 0, NULL);
	free(buf);
	if (!doc)
		*why = "not JSON";
	return doc;
}

/* The same by path (a file of the state directory). */
static json_t *load_record(const char *path, const char **why)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	json_t *doc;
	int dfd;

	if (!slash || (size_t)(slash - path) >= sizeof(dir)) {
		*why = "not in the state directory";
		return NULL;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (strcmp(dir, ccb_undo_state_dir()) != 0) {
		*why = "not in the state directory";
		return NULL;
	}
	dfd = ccb_undo_open_state_dir();
	if (dfd < 0) {
		*why = "the state directory is refused";
		return NULL;
	}
	doc = load_record_at(dfd, slash + 1, why);
	close(dfd);
	return doc;
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
	int dfd;

	if (!list)
		return -ENOMEM;
	*out = list;
	dfd = ccb_undo_open_state_dir();
	if (dfd < 0)
		return dfd == -ENOENT || dfd == -EACCES ? 0 : dfd;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		char path[PATH_MAX];
		const char *why, *alive;
		json_t *doc, *entries, *f;
		json_int_t pid;
		bool maybe;

		/* Other files (locks, mount points, logs) are not records. */
		if (!is_state_name(de->d_name))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		doc = load_record_at(dirfd(d), de->d_name, &why);
		entries = json_object_get(doc, "entries");
		pid = json_integer_value(json_object_get(doc, "pid"));
		if (!doc || !json_is_array(entries) || pid <= 0) {
			fprintf(stderr, "ccbench: %s: %s; skipped\n", path,
			        why ? why : "not a ccbench state file");
			json_decref(doc);
			continue;
		}
		alive = ccb_undo_judge(doc, &maybe);
		/* A run in progress is not ours to undo. */
		if (alive && !maybe) {
			json_decref(doc);
			continue;
		}
		f = json_pack("{s:s, s:I, s:O, s:O}", "file", path, "pid", pid, "command",
		              json_object_get(doc, "command"), "entries", entries);
		/* One that may be alive elsewhere: listed, for restore to name (and
		 * leave, without --force). */
		if (f && maybe)
			json_object_set_new(f, "maybe_alive", json_string(alive));
		if (f && json_is_string(json_object_get(doc, "host")))
			json_object_set(f, "host", json_object_get(doc, "host"));
		if (f)
			json_array_append_new(list, f);
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
		/* Possibly a live run elsewhere: not a warning on every run. */
		if (json_object_get(f, "maybe_alive"))
			continue;
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
	const char *why;
	json_t *doc;
	char tmp[PATH_MAX + 8];
	int r = 0;

	if (!json_array_size(remaining))
		return unlink(file) < 0 && errno != ENOENT ? -errno : 0;
	doc = load_record(file, &why);
	if (!doc) {
		fprintf(stderr, "ccbench: %s: %s; not rewritten\n", file, why ? why : "unreadable");
		return -EIO;
	}
	json_object_set(doc, "entries", remaining);
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	r = ccb_undo_dump_new(doc, tmp);
	if (r == 0 && rename(tmp, file) < 0)
		r = -errno;
	json_decref(doc);
	return r;
}
