/*
 * The fuzz targets' guards. tests/fuzz/CMakeLists.txt copies libccbcore.a
 * with the calls of sandbox.syms renamed to the functions below, so the
 * project's code runs unchanged while nothing it does can leave the
 * target's temporary directory. The libFuzzer and sanitizer runtimes are
 * not renamed: they write their artifacts with the real calls.
 *
 * An attempt that could change the machine is a finding in itself (a
 * parser trusted a record it should have refused), so it aborts with the
 * call named; libFuzzer then saves the input as a crash.
 */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

/* ccbench's messages to stderr go here (renamed "stderr"): one per input
 * would drown libFuzzer's own lines. CCB_FUZZ_VERBOSE=1 shows them, for
 * reading what a reproducer does. */
FILE *ccb_fuzz_stderr;

unsigned long ccb_fuzz_refused;

static char tmpdir[256];

/* The guards' prototypes: they replace libc's and the client libraries'
 * names in the renamed library, so they are declared only here. */
pid_t ccb_fuzz_fork(void);
int ccb_fuzz_execvpe(const char *file, char *const argv[], char *const envp[]);
pid_t ccb_fuzz_setsid(void);
int ccb_fuzz_kill(pid_t pid, int sig);
int ccb_fuzz_umount2(const char *target, int flags);
int ccb_fuzz_ioctl(int fd, unsigned long req, ...);
int ccb_fuzz_unlink(const char *path);
int ccb_fuzz_rmdir(const char *path);
int ccb_fuzz_rename(const char *from, const char *to);
int ccb_fuzz_mkdir(const char *path, mode_t mode);
char *ccb_fuzz_mkdtemp(char *tmpl);
int ccb_fuzz_mkstemp(char *tmpl);
int ccb_fuzz_open(const char *path, int flags, ...);
FILE *ccb_fuzz_fopen(const char *path, const char *mode);
int ccb_fuzz_json_dump_file(const json_t *json, const char *path, size_t flags);
int ccb_fuzz_rados_create2(void *cluster, const char *const clustername, const char *const name,
                           uint64_t flags);
int ccb_fuzz_rados_connect(void *cluster);
int ccb_fuzz_ceph_create(void *cmount, const char *const id);
int ccb_fuzz_ceph_mount(void *cmount, const char *root);
int ccb_fuzz_rbd_open(void *io, const char *name, void *image, const char *snap_name);
int ccb_fuzz_rbd_open_read_only(void *io, const char *name, void *image, const char *snap_name);

__attribute__((constructor)) static void sandbox_init(void)
{
	const char *v = getenv("CCB_FUZZ_VERBOSE");

	ccb_fuzz_stderr = v && v[0] == '1' ? stderr : fopen("/dev/null", "w");
	if (!ccb_fuzz_stderr)
		ccb_fuzz_stderr = stderr;
}

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_tmpdir(void)
{
	if (ccb_fuzz_refused)
		fprintf(stderr,
		        "fuzz sandbox: %lu removal(s) outside %s refused (CCB_FUZZ_STRICT=1 "
		        "aborts on the first)\n",
		        ccb_fuzz_refused, tmpdir);
	if (tmpdir[0])
		nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *ccb_fuzz_tmpdir(void)
{
	const char *base = getenv("TMPDIR");

	if (tmpdir[0])
		return tmpdir;
	snprintf(tmpdir, sizeof(tmpdir), "%s/ccb-fuzz.XXXXXX", base && base[0] ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		fprintf(stderr, "fuzz: mkdtemp(%s): %s\n", tmpdir, strerror(errno));
		abort();
	}
	atexit(remove_tmpdir);
	return tmpdir;
}

void ccb_fuzz_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", ccb_fuzz_tmpdir(), rel);
}

void ccb_fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
		fprintf(stderr, "fuzz: write %s: %s\n", path, strerror(errno));
		abort();
	}
}

/* Inside the temporary directory, lexically: no ".." can climb out. */
static int inside(const char *path)
{
	size_t l = strlen(tmpdir);

	if (!path || !tmpdir[0] || strncmp(path, tmpdir, l) != 0 || path[l] != '/')
		return 0;
	return strstr(path + l, "/../") == NULL && strcmp(path + strlen(path) - 3, "/..") != 0;
}

__attribute__((noreturn)) static void violation(const char *call, const char *what)
{
	fprintf(stderr,
	        "==fuzz sandbox== %s(%s) refused: the code under test acted on the machine "
	        "(only its temporary directory %s is its own)\n",
	        call, what ? what : "", tmpdir[0] ? tmpdir : "(none)");
	abort();
}

static int refuse(const char *call, const char *path)
{
	if (getenv("CCB_FUZZ_STRICT"))
		violation(call, path);
	ccb_fuzz_refused++;
	errno = ENOENT;
	return -1;
}

pid_t ccb_fuzz_fork(void)
{
	violation("fork", NULL);
}

int ccb_fuzz_execvpe(const char *file, char *const argv[], char *const envp[])
{
	(void)argv;
	(void)envp;
	violation("execvpe", file);
}

pid_t ccb_fuzz_setsid(void)
{
	violation("setsid", NULL);
}

int ccb_fuzz_kill(pid_t pid, int sig)
{
	char what[64];

	snprintf(what, sizeof(what), "%d, %d", (int)pid, sig);
	violation("kill", what);
}

int ccb_fuzz_umount2(const char *target, int flags)
{
	(void)flags;
	violation("umount2", target);
}

int ccb_fuzz_ioctl(int fd, unsigned long req, ...)
{
	char what[64];

	snprintf(what, sizeof(what), "fd %d, 0x%lx", fd, req);
	violation("ioctl", what);
}

int ccb_fuzz_unlink(const char *path)
{
	return inside(path) ? unlink(path) : refuse("unlink", path);
}

int ccb_fuzz_rmdir(const char *path)
{
	return inside(path) ? rmdir(path) : refuse("rmdir", path);
}

int ccb_fuzz_rename(const char *from, const char *to)
{
	if (!inside(from) || !inside(to))
		violation("rename", to);
	return rename(from, to);
}

int ccb_fuzz_mkdir(const char *path, mode_t mode)
{
	if (!inside(path))
		violation("mkdir", path);
	return mkdir(path, mode);
}

char *ccb_fuzz_mkdtemp(char *tmpl)
{
	if (!inside(tmpl))
		violation("mkdtemp", tmpl);
	return mkdtemp(tmpl);
}

int ccb_fuzz_mkstemp(char *tmpl)
{
	if (!inside(tmpl))
		violation("mkstemp", tmpl);
	return mkstemp(tmpl);
}

int ccb_fuzz_open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) {
		/* The fake sysfs tree maps no rbd device: an unmap is always wrong. */
		if (path && strstr(path, "/bus/rbd/remove"))
			violation("open (rbd unmap)", path);
		if (!inside(path))
			violation("open for writing", path);
	}
	return open(path, flags, mode);
}

FILE *ccb_fuzz_fopen(const char *path, const char *mode)
{
	if (strpbrk(mode, "wa+")) {
		if (path && strstr(path, "/bus/rbd/remove"))
			violation("fopen (rbd unmap)", path);
		if (!inside(path))
			violation("fopen for writing", path);
	}
	return fopen(path, mode);
}

int ccb_fuzz_json_dump_file(const json_t *json, const char *path, size_t flags)
{
	if (!inside(path))
		violation("json_dump_file", path);
	return json_dump_file(json, path, flags);
}

int ccb_fuzz_rados_create2(void *cluster, const char *const clustername, const char *const name,
                           uint64_t flags)
{
	(void)cluster;
	(void)name;
	(void)flags;
	violation("rados_create2", clustername);
}

int ccb_fuzz_rados_connect(void *cluster)
{
	(void)cluster;
	violation("rados_connect", NULL);
}

int ccb_fuzz_ceph_create(void *cmount, const char *const id)
{
	(void)cmount;
	violation("ceph_create", id);
}

int ccb_fuzz_ceph_mount(void *cmount, const char *root)
{
	(void)cmount;
	violation("ceph_mount", root);
}

int ccb_fuzz_rbd_open(void *io, const char *name, void *image, const char *snap_name)
{
	(void)io;
	(void)image;
	(void)snap_name;
	violation("rbd_open", name);
}

int ccb_fuzz_rbd_open_read_only(void *io, const char *name, void *image, const char *snap_name)
{
	(void)io;
	(void)image;
	(void)snap_name;
	violation("rbd_open_read_only", name);
}
