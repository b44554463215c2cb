/*
 * What the paths that mount a fuse file system share (krbd's rbd-fuse,
 * CephFS's ceph-fuse): the type mounted at a point, whether a pid is our
 * helper serving it, unmounting and stopping it, the reason in its log,
 * and the shape of ccbench's own mount points under the state directory.
 */
#include "mountinfo.h"
#include <ccbench/undo.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuse.h"
#include "child.h"

/* True while @p pid is a live (not zombie) @p prog serving @p mountpoint. */
bool ccb_fuse_is_ours(pid_t pid, const char *prog, const char *mountpoint)
{
	char path[64], buf[4096];
	ssize_t n;
	int fd;
	bool named = false, mp = false;

	if (pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false; /* a zombie has an empty cmdline */
	buf[n] = '\0';
	for (char *p = buf; p < buf + n; p += strlen(p) + 1) {
		const char *slash = strrchr(p, '/');
		if (strcmp(slash ? slash + 1 : p, prog) == 0)
			named = true;
		if (strcmp(p, mountpoint) == 0)
			mp = true;
	}
	return named && mp;
}

/* Unmount @p mountpoint if a file system of @p fstype ("fuse.rbd-fuse")
 * is mounted there, retrying for up to @p busy_msec while the loop device
 * (or a reader) lets go of a file. */
int ccb_fuse_unmount(const char *mountpoint, const char *fstype, int busy_msec, char *msg,
                     size_t msg_len)
{
	char type[256];

	for (int waited = 0;; waited += 100) {
		ccb_mountinfo_fstype(mountpoint, type, sizeof(type));
		if (strcmp(type, fstype) != 0)
			return 0;
		if (umount2(mountpoint, 0) == 0)
			return 0;
		if (errno != EBUSY || waited >= busy_msec)
			break;
		ccb_sleep_msec(100);
	}
	int e = errno;
	/* Busy for good (someone else holds a file open): detach it from the
	 * namespace so rbd-fuse exits once the last user lets go. */
	if (e == EBUSY && umount2(mountpoint, MNT_DETACH) == 0) {
		snprintf(msg, msg_len, "umount %s: busy; detached lazily", mountpoint);
		return 0;
	}
	snprintf(msg, msg_len, "umount %s: %s", mountpoint, strerror(e));
	return -e;
}

/* Wait up to @p grace_msec for rbd-fuse to exit after its unmount, then
 * SIGTERM it, and SIGKILL it if that does not end it within 3 s. rbd-fuse
 * blocked in librbd on a cluster that does not answer (an op that its
 * timeout does not cover: seen on rbd_directory with every OSD down)
 * ignores TERM; until it dies, the loop device's reads wait on it, and so
 * does our close() of the device, in the kernel, where no signal ends
 * it. Killing our own read-only helper loses nothing: the fuse connection
 * aborts, the pending reads fail, and the close returns. */
int ccb_fuse_stop(pid_t pid, const char *prog, bool child, const char *mountpoint, int grace_msec)
{
	int term_at = grace_msec, kill_at = grace_msec + 3000, give_up = grace_msec + 5000;

	for (int waited = 0; waited < give_up; waited += 50) {
		if (child) {
			int st;
			pid_t w = waitpid(pid, &st, WNOHANG);
			if (w == pid || (w < 0 && errno == ECHILD))
				return 0;
		} else if (!ccb_fuse_is_ours(pid, prog, mountpoint)) {
			return 0;
		}
		if (waited == term_at)
			kill(pid, SIGTERM);
		if (waited == kill_at) {
			fprintf(stderr, "ccbench: %s (pid %d) did not exit on SIGTERM: killed\n",
			        prog, (int)pid);
			kill(pid, SIGKILL);
		}
		ccb_sleep_msec(50);
	}
	return -ETIMEDOUT;
}

void ccb_fuse_log_reason(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	char line[512];

	buf[0] = '\0';
	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	/* The last line that says something: rbd-fuse and ceph-fuse print
	 * their reason last. */
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			snprintf(buf, len, "%s", line);
	}
	fclose(f);
}

/* Length of "DIR/mnt-XXXXXX" at the start of @p path (DIR the state
 * directory, X as mkdtemp makes them), or 0 when it does not start so. */
size_t ccb_fuse_own_mountpoint_len(const char *path)
{
	const char *dir = ccb_undo_state_dir();
	size_t dl = strlen(dir);

	if (!path || strncmp(path, dir, dl) != 0 || strncmp(path + dl, "/mnt-", 5) != 0)
		return 0;
	for (size_t i = dl + 5; i < dl + 11; i++) {
		char c = path[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
			return 0;
	}
	return dl + 11;
}

bool ccb_fuse_valid_mountpoint(const char *mp)
{
	size_t l = ccb_fuse_own_mountpoint_len(mp);

	return l && mp[l] == '\0';
}
