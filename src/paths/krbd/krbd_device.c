/*
 * The krbd path's device: what it is and serves (probed before anything
 * changes), its read counters and the page caches to drop.
 */
#include <ccbench/host.h>
#include <ccbench/cluster.h>
#include "mapping.h"
#include <ccbench/path.h>
#include <ccbench/path_rbd.h>
#include <ccbench/sysfs.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/fs.h>
#include <linux/loop.h>
#include <liburing.h>
#include <rbd/librbd.h>

#include "path_krbd_int.h"
#include "krbd_opts.h"

/* ---- checks before anything changes -------------------------------------- */

/* The image of --map, as librbd sees it: exists, its size and layout. */
int ccb_krbd_probe_image(struct ccb_run *run, const char *pool, const char *image, json_t **layout,
                         uint64_t *size_bytes, int *mons)
{
	const struct ccb_opts *o = run->opts;
	rbd_image_info_t info;
	uint64_t su = 0, sc = 0, features = 0;
	rados_ioctx_t io;
	rbd_image_t img;
	rados_t cl;
	char err[512];
	int r;

	r = ccb_cluster_connect(o, &cl, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		run->bad_input = r == -EINVAL;
		return r;
	}
	rados_cluster_fsid(cl, run->fsid, sizeof(run->fsid));
	/* For the kernel client's ms_mode: which messengers the monitors speak. */
	*mons = ccb_map_mons_msgr(cl);
	r = rados_ioctx_create(cl, pool, &io);
	if (r < 0) {
		fprintf(stderr, "ccbench: --map %s/%s: pool '%s': %s\n", pool, image, pool,
		        r == -ENOENT ? "no such pool" : strerror(-r));
		run->bad_input = r == -ENOENT;
		rados_shutdown(cl);
		return r;
	}
	r = rbd_open_read_only(io, image, &img, NULL);
	if (r < 0) {
		fprintf(stderr, "ccbench: --map %s/%s: rbd_open_read_only(%s): %s\n", pool, image,
		        image, r == -ENOENT ? "no such image" : strerror(-r));
		run->bad_input = r == -ENOENT;
		rados_ioctx_destroy(io);
		rados_shutdown(cl);
		return r;
	}
	r = rbd_stat(img, &info, sizeof(info));
	if (r == 0) {
		rbd_get_stripe_unit(img, &su);
		rbd_get_stripe_count(img, &sc);
		rbd_get_features(img, &features);
		*size_bytes = info.size;
		*layout = json_pack("{s:s, s:s, s:I, s:i, s:I, s:I, s:I, s:I}", "pool", pool,
		                    "image", image, "size", (json_int_t)info.size, "order",
		                    info.order, "object_size", (json_int_t)info.obj_size,
		                    "stripe_unit", (json_int_t)su, "stripe_count", (json_int_t)sc,
		                    "features", (json_int_t)features);
	} else {
		fprintf(stderr, "ccbench: rbd_stat(%s/%s): %s\n", pool, image, strerror(-r));
	}
	rbd_close(img);
	rados_ioctx_destroy(io);
	rados_shutdown(cl);
	return r;
}

/* Resolve and check the device: a block device we can open read-only. */
int ccb_krbd_probe_device(struct ccb_run *run, struct krun *kr, const char *path)
{
	struct stat st;
	unsigned long long bytes = 0;
	int lbs = 512, fd, r;

	snprintf(kr->given, sizeof(kr->given), "%s", path);
	/* /dev/rbd/POOL/IMAGE and other udev links name the node they point to. */
	if (!realpath(path, kr->dev)) {
		fprintf(stderr, "ccbench: --device %s: %s\n", path, strerror(errno));
		run->bad_input = true;
		return -errno;
	}
	if (stat(kr->dev, &st) < 0) {
		fprintf(stderr, "ccbench: --device %s: stat: %s\n", path, strerror(errno));
		run->bad_input = true;
		return -errno;
	}
	if (!S_ISBLK(st.st_mode)) {
		fprintf(stderr, "ccbench: --device %s: not a block device\n", path);
		run->bad_input = true;
		return -ENOTBLK;
	}
	r = ccb_sysfs_disk_of_devt(ccb_sysfs_root(), st.st_rdev, kr->name, sizeof(kr->name),
	                           kr->disk, sizeof(kr->disk));
	if (r < 0) {
		fprintf(stderr, "ccbench: --device %s: %s/dev/block/%u:%u: %s\n", path,
		        ccb_sysfs_root(), major(st.st_rdev), minor(st.st_rdev), strerror(-r));
		run->bad_input = true;
		return r;
	}
	fd = open(kr->dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		fprintf(stderr, "ccbench: open %s (read-only): %s\n", kr->dev, strerror(errno));
		run->bad_input = r == -EACCES || r == -EPERM || r == -ENXIO;
		return r;
	}
	if (ioctl(fd, BLKGETSIZE64, &bytes) < 0 || ioctl(fd, BLKSSZGET, &lbs) < 0) {
		r = -errno;
		fprintf(stderr, "ccbench: ioctl(%s, BLKGETSIZE64): %s\n", kr->dev, strerror(errno));
		close(fd);
		return r;
	}
	close(fd);
	kr->dev_bytes = bytes;
	kr->lbs = (uint64_t)lbs;
	r = ccb_sysfs_queue_info(ccb_sysfs_root(), kr->disk, &kr->qi);
	if (r < 0) {
		char p[PATH_MAX];
		ccb_sysfs_queue_attr(ccb_sysfs_root(), kr->disk, "read_ahead_kb", p, sizeof(p));
		fprintf(stderr, "ccbench: read %s: %s\n", p, strerror(-r));
		return r;
	}
	return 0;
}

/* The checks that need the device: exit 2 with nothing changed. */
int ccb_krbd_check_device(struct ccb_run *run, struct krun *kr)
{
	const struct ccb_opts *o = run->opts;
	char a[32], b[32], p[PATH_MAX];

	if (kr->dev_bytes == 0 || CCB_KRBD_OPTS(o)->offset_bytes >= kr->dev_bytes) {
		ccb_format_bytes(CCB_KRBD_OPTS(o)->offset_bytes, a, sizeof(a));
		ccb_format_bytes(kr->dev_bytes, b, sizeof(b));
		fprintf(stderr, "ccbench: --offset %s: beyond the end of %s (%s)\n", a, kr->given,
		        b);
		return -EINVAL;
	}
	if (o->direct && (o->op_size_bytes % kr->lbs || CCB_KRBD_OPTS(o)->offset_bytes % kr->lbs)) {
		ccb_format_bytes(o->op_size_bytes, a, sizeof(a));
		fprintf(stderr,
		        "ccbench: --direct: --io-size %s and --offset %" PRIu64
		        " must be multiples of the logical block size of %s (%" PRIu64 ")\n",
		        a, CCB_KRBD_OPTS(o)->offset_bytes, kr->given, kr->lbs);
		return -EINVAL;
	}
	if (ccb_opt_given(o, "read-ahead-kb")) {
		ccb_sysfs_queue_attr(ccb_sysfs_root(), kr->disk, "read_ahead_kb", p, sizeof(p));
		if (access(p, W_OK) < 0) {
			fprintf(stderr, "ccbench: --read-ahead-kb: write %s: %s\n", p,
			        strerror(errno));
			return -EINVAL;
		}
	}
	kr->start = CCB_KRBD_OPTS(o)->offset_bytes;
	kr->end = kr->dev_bytes;
	kr->io_bytes = run->op_bytes;
	if (run->mode == CCB_MODE_SEQ) {
		uint64_t span = kr->end - kr->start;
		/* Whole I/Os per region, so streams never overlap; the last takes the rest. */
		kr->region_bytes = span / CCB_KRBD_OPTS(o)->streams / kr->io_bytes * kr->io_bytes;
		if (CCB_KRBD_OPTS(o)->streams > 1 && kr->region_bytes == 0) {
			ccb_format_bytes(span, a, sizeof(a));
			fprintf(stderr,
			        "ccbench: --streams %" PRIu64 ": %s from --offset is too small for "
			        "that many streams of --io-size %" PRIu64 "\n",
			        CCB_KRBD_OPTS(o)->streams, a, kr->io_bytes);
			return -EINVAL;
		}
	}
	return 0;
}

/* ---- prepare ------------------------------------------------------------- */

/* Reads completed and sectors read by block device @p name since it
 * appeared (fields 1 and 3 of its stat; partitions have their own). */

int ccb_krbd_name_reads(const char *name, uint64_t *reqs, uint64_t *sectors)
{
	char path[PATH_MAX];
	unsigned long long r, m, sec;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/class/block/%s/stat", ccb_sysfs_root(), name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fscanf(f, "%llu %llu %llu", &r, &m, &sec);
	fclose(f);
	if (n != 3)
		return -EPROTO;
	*reqs = r;
	*sectors = sec;
	return 0;
}

int ccb_krbd_device_reads(const struct krun *kr, uint64_t *reqs, uint64_t *sectors)
{
	return ccb_krbd_name_reads(kr->name, reqs, sectors);
}

/*
 * --device on a loop device: find its backing file (sysfs backing_file),
 * and make sure the file opened is that very file (device and inode as
 * LOOP_GET_STATUS64 reports them), so its cache can be dropped with the
 * loop's: a buffered loop reads through the file's page cache, so a dd
 * over the loop device earlier leaves the whole device cached there.
 */
void ccb_krbd_find_loop_backing(struct ccb_run *run, struct krun *kr)
{
	char attr[PATH_MAX], path[PATH_MAX], name[64], disk[64];
	struct loop_info64 li;
	struct stat st;
	ssize_t n;
	int fd, dfd;

	if (kr->map || !ccb_sysfs_valid_disk_name(kr->disk))
		return;
	snprintf(attr, sizeof(attr), "%s/block/%s/loop/backing_file", ccb_sysfs_root(), kr->disk);
	fd = open(attr, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return; /* not a loop device */
	n = read(fd, path, sizeof(path) - 1);
	close(fd);
	if (n <= 0)
		return;
	path[n] = '\0';
	path[strcspn(path, "\n")] = '\0';
	dfd = open(kr->dev, O_RDONLY | O_CLOEXEC);
	if (dfd < 0 || ioctl(dfd, LOOP_GET_STATUS64, &li) < 0) {
		ccb_run_warn(run,
		             "ioctl(%s, LOOP_GET_STATUS64): %s; the page cache of its backing "
		             "file %s is not dropped",
		             kr->dev, strerror(errno), path);
		if (dfd >= 0)
			close(dfd);
		return;
	}
	close(dfd);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_dev != (dev_t)li.lo_device ||
	    st.st_ino != (ino_t)li.lo_inode) {
		ccb_run_warn(run,
		             "%s: its backing file %s is %s; its page cache is not dropped, so "
		             "reads may come from memory",
		             kr->dev, path, fd < 0 ? "gone" : "not the file the loop device reads");
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	snprintf(kr->backing, sizeof(kr->backing), "%s", path);
	kr->backing_base = li.lo_offset;
	kr->backing_whole = strcmp(kr->name, kr->disk) != 0;
	/* The disk under the file, to tell its reads from the cache's. */
	if (major(st.st_dev) != 0 && ccb_sysfs_disk_of_devt(ccb_sysfs_root(), st.st_dev, name,
	                                                    sizeof(name), disk, sizeof(disk)) == 0)
		snprintf(kr->backing_name, sizeof(kr->backing_name), "%s", name);
}

/* Drop the backing file's pages under device range [off, off + len) (0, 0: all). */
int ccb_krbd_drop_backing_range(const struct krun *kr, uint64_t off, uint64_t len)
{
	int fd, r;

	if (kr->map)
		return ccb_map_drop_backing_range(kr->map, off, len);
	if (!kr->backing[0])
		return 0;
	/* Opened per call: our descriptor must not outlive the run. */
	fd = open(kr->backing, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (kr->backing_whole || (off == 0 && len == 0))
		r = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	else
		r = posix_fadvise(fd, (off_t)(kr->backing_base + off), (off_t)len,
		                  POSIX_FADV_DONTNEED);
	close(fd);
	return -r;
}

/* Drop the device's cached pages so the pass reads from the cluster. */
int ccb_krbd_drop_cache(struct ccb_run *run, struct krun *kr)
{
	int fd = open(kr->dev, O_RDONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	/* BLKFLSBUF writes back and invalidates the whole block device's
	 * cache; it needs CAP_SYS_ADMIN, so fadvise below is the fallback. */
	if (ioctl(fd, BLKFLSBUF, 0) < 0)
		ccb_run_warn(run, "ioctl(%s, BLKFLSBUF): %s; dropped with posix_fadvise only",
		             kr->dev, strerror(errno));
	r = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	if (r)
		return -r;
	r = ccb_krbd_drop_backing_range(kr, 0, 0);
	if (r < 0)
		ccb_run_warn(run, "posix_fadvise(%s, DONTNEED): %s",
		             kr->map ? kr->map->backing : kr->backing, strerror(-r));
	return 0;
}

json_t *ccb_krbd_uint_or_null(uint64_t v)
{
	return v == UINT64_MAX ? json_null() : json_integer((json_int_t)v);
}
