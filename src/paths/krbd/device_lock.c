/*
 * Device locks (see device_lock.h). flock(2) is the truth about a holder:
 * the kernel drops it when the holder dies, however it dies, so a killed
 * run never keeps a device from the next one, and a live run in another
 * PID namespace (or one whose pid was reused) is never taken for dead.
 *
 * The file is removed on release, while still locked. A run that opened
 * the old name just before and gets the lock just after holds a file that
 * no longer has the name; it notices (the name is gone, or is another
 * inode) and opens again, so two holders never think they own one device.
 */
#include <ccbench/redact.h>
#include <ccbench/sysfs.h>
#include <ccbench/undo.h>

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device_lock.h"

struct ccb_devlock {
	int fd;
	char path[PATH_MAX];
};

static void copy_printable(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	for (; src[i] && i + 1 < len; i++)
		dst[i] = (unsigned char)src[i] < 0x20 || src[i] == 0x7f ? '?' : src[i];
	dst[i] = '\0';
}

int ccb_devlock_parse(const char *text, size_t len, struct ccb_devlock_rec *rec)
{
	json_t *doc, *jpid;
	const char *boot, *dev, *disk, *cmd;
	unsigned maj, min;
	char tail;
	int r = -EINVAL;

	memset(rec, 0, sizeof(*rec));
	if (len == 0)
		return -ENODATA;
	if (len > CCB_DEVLOCK_MAX)
		return -EINVAL;
	doc = json_loadb(text, len, 0, NULL);
	if (!json_is_object(doc) ||
	    json_integer_value(json_object_get(doc, "ccbench_devlock")) != 1)
		goto out;
	jpid = json_object_get(doc, "pid");
	boot = json_string_value(json_object_get(doc, "boot_id"));
	dev = json_string_value(json_object_get(doc, "device"));
	disk = json_string_value(json_object_get(doc, "disk"));
	cmd = json_string_value(json_object_get(doc, "command"));
	if (!json_is_integer(jpid) || json_integer_value(jpid) <= 0 ||
	    json_integer_value(jpid) > INT32_MAX)
		goto out;
	if (!boot || strlen(boot) >= sizeof(rec->boot_id) ||
	    strspn(boot, "0123456789abcdef-") != strlen(boot))
		goto out;
	if (!dev || strlen(dev) >= sizeof(rec->device) ||
	    sscanf(dev, "%u:%u%c", &maj, &min, &tail) != 2)
		goto out;
	if (!disk || !ccb_sysfs_valid_disk_name(disk) || !cmd)
		goto out;
	rec->pid = (long)json_integer_value(jpid);
	snprintf(rec->boot_id, sizeof(rec->boot_id), "%s", boot);
	snprintf(rec->device, sizeof(rec->device), "%u:%u", maj, min);
	snprintf(rec->disk, sizeof(rec->disk), "%s", disk);
	copy_printable(rec->command, sizeof(rec->command), cmd);
	r = 0;
out:
	json_decref(doc);
	return r;
}

static void read_boot_id(char *buf, size_t len)
{
	ccb_sysfs_read_line("/proc/sys/kernel/random/boot_id", buf, len);
}

/* /proc/self/cmdline with each argument redacted, joined by spaces. */
static char *own_command(void)
{
	char buf[2048], out[2048] = "";
	ssize_t n;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return strdup("ccbench");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return strdup("ccbench");
	buf[n] = '\0';
	for (char *p = buf; p < buf + n; p += strlen(p) + 1) {
		char *red = ccb_redact_text(p);
		size_t l = strlen(out);

		if (!red)
			return NULL;
		snprintf(out + l, sizeof(out) - l, "%s%s", l ? " " : "", red);
		free(red);
	}
	return strdup(out);
}

char *ccb_devlock_record(dev_t devt, const char *disk)
{
	char boot[64], dev[24];
	char *cmd = own_command(), *text;
	json_t *doc;

	if (!cmd)
		return NULL;
	read_boot_id(boot, sizeof(boot));
	snprintf(dev, sizeof(dev), "%u:%u", major(devt), minor(devt));
	doc =
	    json_pack("{s:i, s:i, s:s, s:s, s:s, s:s}", "ccbench_devlock", 1, "pid", (int)getpid(),
	              "boot_id", boot, "device", dev, "disk", disk, "command", cmd);
	free(cmd);
	text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
	json_decref(doc);
	return text;
}

/* The record in @p fd (from offset 0), parsed. */
static int read_record(int fd, struct ccb_devlock_rec *rec)
{
	char buf[CCB_DEVLOCK_MAX + 1];
	ssize_t n = pread(fd, buf, sizeof(buf), 0);

	if (n < 0)
		return -errno;
	if ((size_t)n > CCB_DEVLOCK_MAX)
		return -EINVAL;
	return ccb_devlock_parse(buf, (size_t)n, rec);
}

bool ccb_devlock_same_boot(const struct ccb_devlock_rec *rec)
{
	char boot[64];

	read_boot_id(boot, sizeof(boot));
	return boot[0] && strcmp(boot, rec->boot_id) == 0;
}

static bool owner_ok(const struct stat *st)
{
	return st->st_uid == 0 || st->st_uid == geteuid();
}

int ccb_devlock_acquire(dev_t devt, const char *disk, struct ccb_devlock **out, bool *stale,
                        struct ccb_devlock_rec *prev, char *err, size_t err_len)
{
	struct ccb_devlock_rec scratch;
	struct ccb_devlock *l;
	char *text;
	int r;

	*out = NULL;
	if (stale)
		*stale = false;
	if (!prev)
		prev = &scratch;
	memset(prev, 0, sizeof(*prev));
	r = ccb_undo_state_dir_ready(err, err_len);
	if (r < 0)
		return r;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	snprintf(l->path, sizeof(l->path), "%s/dev-%u:%u.lock", ccb_undo_state_dir(), major(devt),
	         minor(devt));
	for (int attempt = 0;; attempt++) {
		struct stat st, named;

		/* O_NONBLOCK: a FIFO planted at the name must not hold us up. */
		l->fd = open(l->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
		if (l->fd < 0) {
			r = -errno;
			snprintf(err, err_len, "open %s: %s", l->path, strerror(errno));
			goto fail;
		}
		if (fstat(l->fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
		    !owner_ok(&st) || (st.st_mode & (S_IWGRP | S_IWOTH))) {
			snprintf(err, err_len, "%s: not a lock file of ccbench's; refused",
			         l->path);
			r = -EPERM;
			goto fail;
		}
		if (flock(l->fd, LOCK_EX | LOCK_NB) < 0) {
			r = errno == EWOULDBLOCK ? -EBUSY : -errno;
			if (r == -EBUSY && read_record(l->fd, prev) == 0)
				snprintf(
				    err, err_len,
				    "%s (%u:%u) is being tuned by another ccbench run: pid %ld "
				    "(%s); refused (one run per device changes its settings)",
				    disk, major(devt), minor(devt), prev->pid, prev->command);
			else if (r == -EBUSY)
				snprintf(err, err_len,
				         "%s (%u:%u) is being tuned by another ccbench run (%s is "
				         "locked); refused",
				         disk, major(devt), minor(devt), l->path);
			else
				snprintf(err, err_len, "flock %s: %s", l->path, strerror(-r));
			goto fail;
		}
		/* Released (and removed) by its holder between our open and
		 * flock: this inode has no name any more; open the new one. */
		if (lstat(l->path, &named) == 0 && named.st_dev == st.st_dev &&
		    named.st_ino == st.st_ino)
			break;
		close(l->fd);
		l->fd = -1;
		if (attempt >= 20) {
			snprintf(err, err_len, "%s: replaced again and again; refused", l->path);
			r = -EAGAIN;
			goto fail;
		}
	}
	/* A record in an unlocked file: its run ended without releasing it
	 * (killed), and may have left its value on the device. */
	if (read_record(l->fd, prev) == 0 && stale)
		*stale = true;
	text = ccb_devlock_record(devt, disk);
	if (!text) {
		r = -ENOMEM;
		goto fail;
	}
	if (ftruncate(l->fd, 0) < 0 ||
	    pwrite(l->fd, text, strlen(text), 0) != (ssize_t)strlen(text)) {
		r = errno ? -errno : -EIO;
		snprintf(err, err_len, "write %s: %s", l->path, strerror(-r));
		free(text);
		goto fail;
	}
	free(text);
	*out = l;
	return 0;
fail:
	if (l->fd >= 0)
		close(l->fd);
	free(l);
	return r;
}

void ccb_devlock_release(struct ccb_devlock *l)
{
	if (!l)
		return;
	/* Still locked: nobody else can be using the name now. */
	unlink(l->path);
	close(l->fd);
	free(l);
}

int ccb_devlock_disk_devt(const char *root, const char *disk, dev_t *devt)
{
	char path[PATH_MAX], buf[32], tail;
	unsigned maj, min;

	if (!ccb_sysfs_valid_disk_name(disk))
		return -EINVAL;
	if (snprintf(path, sizeof(path), "%s/block/%s/dev", root, disk) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (access(path, F_OK) < 0)
		return -errno;
	ccb_sysfs_read_line(path, buf, sizeof(buf));
	if (sscanf(buf, "%u:%u%c", &maj, &min, &tail) != 2)
		return -EINVAL;
	*devt = makedev(maj, min);
	return 0;
}
