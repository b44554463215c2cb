/*
 * Mapping an image for the krbd path.
 *
 * fuse-loop: rbd-fuse exposes the image as a file, and a read-only loop
 * device over that file is a real kernel block device (block layer, page
 * cache, read_ahead_kb) backed by librbd. The pieces come up in order --
 * rbd-fuse, its mount, the loop device -- and each logs its undo with a
 * crash record first, so the unwind (or `ccbench restore` after a
 * SIGKILL) takes them down in reverse: loop detach, unmount, rbd-fuse exit.
 *
 * rbd-fuse runs in its own session: Ctrl-C at the terminal must reach
 * ccbench alone, which then unmaps in order; a fuse daemon dying first
 * would turn the reads in flight into errors. The loop device is
 * configured with autoclear and held open by us, so if we die, it detaches
 * by itself once the last reader is gone.
 *
 * kernel: `rbd device map --read-only` (it finds the monitors and the
 * secret as every ceph CLI does), unmapped through
 * /sys/bus/rbd/remove_single_major, which needs no credentials. Two map
 * options are added when the host or the cluster needs them and the user
 * did not say: noudev where no udev daemon runs (rbd would wait for udev's
 * event forever: containers, the krbd-vm guest), and ms_mode=prefer-crc
 * when the monitors speak msgr v2 only (the driver's default, legacy,
 * retries "V1_BANNER" until it gives up after about a minute).
 *
 * This file chooses the way and maps through it: it sits above map_fuse.c
 * and map_kernel.c (the two ways) and child.c (child processes, the
 * state directory), which all three call; map_restore.c (the crash
 * restore) sits above them all.
 */
#include <ccbench/host.h>
#include <ccbench/undo.h>
#include "mapping.h"
#include <ccbench/sysfs.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mapping_int.h"
#include "krbd_opts.h"

const char *ccb_map_via_name(enum ccb_map_via via)
{
	return via == CCB_MAP_KERNEL ? "kernel" : "fuse-loop";
}

static bool kernel_available(char *why, size_t len)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/bus/rbd", ccb_sysfs_root());
	if (stat(p, &st) < 0) {
		snprintf(why, len, "the kernel has no rbd driver (%s: %s; modprobe rbd)", p,
		         strerror(errno));
		return false;
	}
	if (!ccb_program_in_path("rbd")) {
		snprintf(why, len, "the rbd command is not in PATH (install ceph-common)");
		return false;
	}
	return true;
}

static bool fuse_loop_available(char *why, size_t len)
{
	if (!ccb_program_in_path("rbd-fuse")) {
		snprintf(why, len, "rbd-fuse is not in PATH (install the rbd-fuse package)");
		return false;
	}
	if (access("/dev/fuse", R_OK | W_OK) < 0) {
		snprintf(why, len, "/dev/fuse: %s", strerror(errno));
		return false;
	}
	if (access("/dev/loop-control", R_OK | W_OK) < 0) {
		snprintf(why, len, "/dev/loop-control: %s", strerror(errno));
		return false;
	}
	return true;
}

int ccb_map_choose(const struct ccb_opts *o, enum ccb_map_via *via, char *err, size_t err_len)
{
	char kwhy[PATH_MAX + 128] = "", fwhy[PATH_MAX + 128] = "";
	const char *want = CCB_KRBD_OPTS(o)->map_via ? CCB_KRBD_OPTS(o)->map_via : "auto";
	int r;

	/* A key in the map options: bad input on every way, before the image
	 * is looked at (fuse-loop has no use for map options either). */
	r = ccb_map_options_check(CCB_KRBD_OPTS(o)->map_options, err, err_len);
	if (r < 0)
		return r;
	if (strcmp(want, "kernel") == 0) {
		if (!kernel_available(kwhy, sizeof(kwhy))) {
			snprintf(err, err_len, "--map-via kernel: %s; try --map-via fuse-loop",
			         kwhy);
			return -EINVAL;
		}
		*via = CCB_MAP_KERNEL;
		return 0;
	}
	if (strcmp(want, "fuse-loop") == 0) {
		if (!fuse_loop_available(fwhy, sizeof(fwhy))) {
			snprintf(err, err_len, "--map-via fuse-loop: %s", fwhy);
			return -EINVAL;
		}
		*via = CCB_MAP_FUSE_LOOP;
		return 0;
	}
	if (kernel_available(kwhy, sizeof(kwhy))) {
		*via = CCB_MAP_KERNEL;
		return 0;
	}
	if (fuse_loop_available(fwhy, sizeof(fwhy))) {
		*via = CCB_MAP_FUSE_LOOP;
		return 0;
	}
	snprintf(err, err_len, "--map %s: cannot map here: %s; and fuse-loop: %s",
	         CCB_KRBD_OPTS(o)->map, kwhy, fwhy);
	return -EINVAL;
}

int ccb_map(const struct ccb_opts *o, enum ccb_map_via via, const char *pool, const char *image,
            int mons, struct ccb_mapping **out, char *err, size_t err_len)
{
	struct ccb_mapping *m = calloc(1, sizeof(*m));
	int r;

	if (!m)
		return -ENOMEM;
	m->via = via;
	m->loop_fd = -1;
	m->backing_fd = -1;
	snprintf(m->pool, sizeof(m->pool), "%s", pool);
	snprintf(m->image, sizeof(m->image), "%s", image);
	r = ccb_undo_state_dir_ready(err, err_len);
	if (r < 0) {
		free(m);
		return r;
	}
	*out = m;
	/* From here on the undo log owns m, on success and failure alike. */
	if (via == CCB_MAP_KERNEL)
		return ccb_map_do_kernel(o, m, mons, err, err_len);
	return ccb_map_do_fuse_loop(o, m, err, err_len);
}

int ccb_map_drop_backing_range(const struct ccb_mapping *m, uint64_t offset, uint64_t len)
{
	int fd, r = 0;

	if (m->via != CCB_MAP_FUSE_LOOP)
		return 0;
	/* The descriptor the mapping holds (see attach_loop): a new open()
	 * would be a request to rbd-fuse, which can wait on the cluster. */
	if (m->backing_fd >= 0)
		return -posix_fadvise(m->backing_fd, (off_t)offset, (off_t)len,
		                      POSIX_FADV_DONTNEED);
	fd = open(m->backing, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = posix_fadvise(fd, (off_t)offset, (off_t)len, POSIX_FADV_DONTNEED);
	close(fd);
	return -r;
}

int ccb_map_drop_backing_cache(const struct ccb_mapping *m)
{
	return ccb_map_drop_backing_range(m, 0, 0);
}
