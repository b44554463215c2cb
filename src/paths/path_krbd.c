/*
 * The krbd path: reads of a kernel block device, so librbd and the kernel
 * client can be put side by side, with the device's read_ahead_kb set for
 * the run and put back after.
 *
 * Operators run this on production hosts, so the device is only ever
 * opened O_RDONLY, everything is checked before anything changes, and each
 * change (read_ahead_kb, a mapping) is in the undo log and the crash state
 * file before it is made.
 *
 * Buffered reads are one at a time per stream, as dd does, on a reader
 * thread of the stream's own: submit() hands the op over and returns, the
 * reader does the pread() and completes the slot with ccb_slot_done(). A
 * pread of a device whose cluster died (krbd's osd_request_timeout is 0:
 * forever) or whose rbd-fuse stopped never returns, and the kernel does
 * not let it be interrupted; on the client thread it would hold up the
 * engine's watchdog and Ctrl-C. A monitor thread per run abandons such an
 * op at --op-timeout (or 1 s after Ctrl-C): the slot completes as failed,
 * the run ends with a partial result that says a reader may still be
 * blocked in the kernel, and the reader, whenever the read returns,
 * finds itself abandoned and frees its own state. It reads into a buffer
 * of its own, never the engine's slot buffer, which may be gone by then
 * (the path never looks at the data it reads).
 *
 * --direct reads go through io_uring at --queue-depth; a reaper thread per
 * stream waits for completions and hands them to the engine with
 * ccb_slot_done().
 *
 * Each stream reads its own region of [--offset, end): the span split in
 * equal parts aligned to --io-size. Without --duration or --total a run is
 * one pass; with them a stream that reaches the end of its region drops
 * that region's cached pages and starts over, so no pass is served from
 * memory.
 */
#include <ccbench/cluster.h>
#include <ccbench/mapping.h>
#include <ccbench/path.h>
#include <ccbench/path_krbd.h>
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

/*
 * A slot goes to the kernel with its SQE on the client thread and comes back
 * with its CQE on the reaper thread. The kernel orders the two (liburing
 * publishes and reads the ring indices with release/acquire), but
 * ThreadSanitizer cannot see through io_uring and would report every
 * hand-over of a slot as a race: tell it about the edge, on the ring.
 */
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define URING_HANDOFF(ring)  __tsan_release(ring)
#define URING_TAKEOVER(ring) __tsan_acquire(ring)
#else
#define URING_HANDOFF(ring)  ((void)(ring))
#define URING_TAKEOVER(ring) ((void)(ring))
#endif

struct krun {
	char dev[PATH_MAX];   /* the node we open (symlinks resolved) */
	char given[PATH_MAX]; /* as the user named it, or as mapped */
	char name[64];        /* kernel name: sda1 */
	char disk[64];        /* whose queue serves it: sda */
	uint64_t dev_bytes, lbs;
	uint64_t start, end; /* the span read: [--offset, end of device) */
	uint64_t region_bytes;
	uint64_t io_bytes;
	bool direct, wrap;
	struct ccb_queue_info qi;
	bool ra_set;
	int ra_handle;
	uint64_t ra_before, ra_during;
	struct ccb_mapping *map;
	enum ccb_map_via via;
	bool cache_dropped;
	bool stat_ok;
	uint64_t stat_reqs, stat_sectors; /* the device's reads before the run */

	/* --device on a loop device: its backing file, whose page cache
	 * serves the loop's reads as well as the loop's own does. */
	char backing[PATH_MAX];
	uint64_t backing_base; /* lo_offset: where device offset 0 is in the file */
	bool backing_whole;    /* a partition of the loop: drop the whole file */
	char backing_name[64]; /* the block device the file is on ("" none: tmpfs, fuse) */
	bool bstat_ok;
	uint64_t bstat_reqs, bstat_sectors;

	/* Passes the device did not read (one stream only: the device's
	 * stat is shared by all streams). Client thread; read after join. */
	unsigned passes_checked, passes_cached;
	uint64_t first_cached_pass, first_cached_dev, first_cached_bytes;

	/* The monitor of buffered reads (see the top of the file). */
	struct ccb_run *run;
	pthread_t monitor;
	pthread_mutex_t mon_lock; /* guards readers, mon_quit */
	pthread_cond_t mon_cond;
	struct kclient *readers; /* clients with a reader thread */
	bool mon_quit;
};

struct kclient {
	int fd;
	uint64_t rstart, rend, pos;
	uint64_t passes;
	bool uring;
	struct io_uring ring;
	pthread_t reaper;
	bool reaper_started;

	bool pass_stat;     /* check each pass against the device's stat */
	uint64_t pass_sec0; /* the device's sectors read when this pass began */

	/* Buffered reads: handed to the reader thread under @c lock. */
	unsigned idx;
	pthread_t reader;
	bool reader_started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ccb_slot *op;  /* handed over, not yet completed (NULL once abandoned) */
	bool taken;           /* the reader has started @c op */
	bool in_read;         /* the reader is inside pread() */
	bool quit;            /* closed: exit, or (in_read) free yourself after the read */
	char *rbuf;           /* the reader's own buffer */
	struct kclient *next; /* in krun.readers */
};

static int undo_free(void *arg)
{
	free(arg);
	return 0;
}

/* ---- checks before anything changes -------------------------------------- */

/* The image of --map, as librbd sees it: exists, its size and layout. */
static int probe_image(struct ccb_run *run, const char *pool, const char *image, json_t **layout,
                       uint64_t *size_bytes, int *mons_v1)
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
	/* For the kernel client's ms_mode: does any monitor still speak v1? */
	*mons_v1 = ccb_map_mons_speak_v1(cl);
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
static int probe_device(struct ccb_run *run, struct krun *kr, const char *path)
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
static int check_device(struct ccb_run *run, struct krun *kr)
{
	const struct ccb_opts *o = run->opts;
	char a[32], b[32], p[PATH_MAX];

	if (kr->dev_bytes == 0 || o->offset_bytes >= kr->dev_bytes) {
		ccb_format_bytes(o->offset_bytes, a, sizeof(a));
		ccb_format_bytes(kr->dev_bytes, b, sizeof(b));
		fprintf(stderr, "ccbench: --offset %s: beyond the end of %s (%s)\n", a, kr->given,
		        b);
		return -EINVAL;
	}
	if (o->direct && (o->io_size_bytes % kr->lbs || o->offset_bytes % kr->lbs)) {
		ccb_format_bytes(o->io_size_bytes, a, sizeof(a));
		fprintf(stderr,
		        "ccbench: --direct: --io-size %s and --offset %" PRIu64
		        " must be multiples of the logical block size of %s (%" PRIu64 ")\n",
		        a, o->offset_bytes, kr->given, kr->lbs);
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
	kr->start = o->offset_bytes;
	kr->end = kr->dev_bytes;
	kr->io_bytes = run->op_bytes;
	if (run->mode == CCB_MODE_SEQ) {
		uint64_t span = kr->end - kr->start;
		/* Whole I/Os per region, so streams never overlap; the last takes the rest. */
		kr->region_bytes = span / o->streams / kr->io_bytes * kr->io_bytes;
		if (o->streams > 1 && kr->region_bytes == 0) {
			ccb_format_bytes(span, a, sizeof(a));
			fprintf(stderr,
			        "ccbench: --streams %" PRIu64 ": %s from --offset is too small for "
			        "that many streams of --io-size %" PRIu64 "\n",
			        o->streams, a, kr->io_bytes);
			return -EINVAL;
		}
	}
	return 0;
}

/* ---- prepare ------------------------------------------------------------- */

/* Reads completed and sectors read by block device @p name since it
 * appeared (fields 1 and 3 of its stat; partitions have their own). */
/* Below this many bytes a run is too short to say where its reads came from. */
#define CACHE_CHECK_MIN (4ull << 20)

static int name_reads(const char *name, uint64_t *reqs, uint64_t *sectors)
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

static int device_reads(const struct krun *kr, uint64_t *reqs, uint64_t *sectors)
{
	return name_reads(kr->name, reqs, sectors);
}

/*
 * --device on a loop device: find its backing file (sysfs backing_file),
 * and make sure the file opened is that very file (device and inode as
 * LOOP_GET_STATUS64 reports them), so its cache can be dropped with the
 * loop's: a buffered loop reads through the file's page cache, so a dd
 * over the loop device earlier leaves the whole device cached there.
 */
static void find_loop_backing(struct ccb_run *run, struct krun *kr)
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
static int drop_backing_range(const struct krun *kr, uint64_t off, uint64_t len)
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
static int drop_cache(struct ccb_run *run, struct krun *kr)
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
	r = drop_backing_range(kr, 0, 0);
	if (r < 0)
		ccb_run_warn(run, "posix_fadvise(%s, DONTNEED): %s",
		             kr->map ? kr->map->backing : kr->backing, strerror(-r));
	return 0;
}

static json_t *uint_or_null(uint64_t v)
{
	return v == UINT64_MAX ? json_null() : json_integer((json_int_t)v);
}

static int start_monitor(struct krun *kr);

static int krbd_prepare(struct ccb_run *run)
{
	const struct ccb_opts *o = run->opts;
	struct krun *kr = calloc(1, sizeof(*kr));
	json_t *image = NULL;
	char err[1024], pool[128] = "", name[128] = "";
	int r;

	if (!kr)
		return -ENOMEM;
	/* First in the log, so it is freed after every other krbd undo ran. */
	r = ccb_undo_push("free the krbd run state", undo_free, kr, NULL);
	if (r < 0) {
		free(kr);
		return r;
	}
	run->path_data = kr;
	kr->direct = o->direct;
	kr->wrap = run->duration_usec || run->total_bytes;

	if (o->map) {
		uint64_t image_bytes = 0;
		int mons_v1 = -1;
		const char *slash = strchr(o->map, '/');

		snprintf(pool, sizeof(pool), "%.*s", (int)(slash - o->map), o->map);
		snprintf(name, sizeof(name), "%s", slash + 1);
		r = ccb_map_choose(o, &kr->via, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "ccbench: %s\n", err);
			run->bad_input = true;
			return r;
		}
		r = probe_image(run, pool, name, &image, &image_bytes, &mons_v1);
		if (r < 0)
			return r;
		if (o->offset_bytes >= image_bytes) {
			fprintf(stderr,
			        "ccbench: --offset %" PRIu64 ": beyond the end of %s (%" PRIu64
			        " bytes)\n",
			        o->offset_bytes, o->map, image_bytes);
			run->bad_input = true;
			json_decref(image);
			return -EINVAL;
		}
		r = ccb_map(o, kr->via, pool, name, mons_v1, &kr->map, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "ccbench: --map %s via %s: %s\n", o->map,
			        ccb_map_via_name(kr->via), err);
			json_decref(image);
			return r;
		}
		r = probe_device(run, kr, kr->map->dev);
	} else {
		r = probe_device(run, kr, o->device);
	}
	if (r == 0 && check_device(run, kr) < 0) {
		run->bad_input = true;
		r = -EINVAL;
	}
	if (r < 0) {
		json_decref(image);
		return r;
	}

	kr->ra_before = kr->ra_during = kr->qi.read_ahead_kb;
	if (ccb_opt_given(o, "read-ahead-kb")) {
		r = ccb_sysfs_set_read_ahead_kb(kr->disk, o->read_ahead_kb, &kr->ra_before,
		                                &kr->ra_during, &kr->ra_handle, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "ccbench: --read-ahead-kb %" PRIu64 ": %s\n",
			        o->read_ahead_kb, err);
			json_decref(image);
			return r;
		}
		kr->ra_set = true;
	}
	find_loop_backing(run, kr);
	r = drop_cache(run, kr);
	if (r < 0) {
		fprintf(stderr, "ccbench: posix_fadvise(%s, DONTNEED): %s\n", kr->dev,
		        strerror(-r));
		json_decref(image);
		return r;
	}
	kr->cache_dropped = true;
	kr->stat_ok = device_reads(kr, &kr->stat_reqs, &kr->stat_sectors) == 0;
	kr->bstat_ok = kr->backing_name[0] &&
	               name_reads(kr->backing_name, &kr->bstat_reqs, &kr->bstat_sectors) == 0;
	kr->run = run;
	if (!kr->direct) {
		r = start_monitor(kr);
		if (r < 0) {
			fprintf(stderr, "ccbench: start the krbd read monitor: %s\n", strerror(-r));
			json_decref(image);
			return r;
		}
	}

	run->n_clients = (unsigned)o->streams;
	run->buf_bytes = kr->io_bytes;
	/* A random run without a limit reads as many bytes as one pass would. */
	if (run->mode == CCB_MODE_RAND && !kr->wrap) {
		uint64_t whole = (kr->end - kr->start) / kr->io_bytes * kr->io_bytes;
		run->total_bytes = whole ? whole : kr->end - kr->start;
	}

	if (kr->direct)
		ccb_run_warn(run,
		             "--direct: O_DIRECT reads bypass the page cache, so read_ahead_kb "
		             "does not apply");
	if (kr->map && kr->via == CCB_MAP_FUSE_LOOP)
		ccb_run_warn(
		    run,
		    "fuse-loop: %s is a loop device over rbd-fuse (libfuse2 serves requests "
		    "of at most 128K one at a time): the block layer and read_ahead_kb are "
		    "the kernel's, the bandwidth is not the kernel rbd client's",
		    kr->map->dev);

	run->layout = json_pack(
	    "{s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:i, s:b, s:b, s:b, s:s}", "path",
	    "krbd", "device", kr->given, "node", kr->dev, "name", kr->name, "disk", kr->disk,
	    "device_size", (json_int_t)kr->dev_bytes, "offset", (json_int_t)kr->start, "io_size",
	    (json_int_t)kr->io_bytes, "region_size",
	    (json_int_t)(run->mode == CCB_MODE_SEQ ? kr->region_bytes : kr->end - kr->start),
	    "streams", (int)o->streams, "direct", kr->direct, "readahead_applies", !kr->direct,
	    "cache_dropped", kr->cache_dropped, "cache_drop",
	    kr->wrap ? "BLKFLSBUF + POSIX_FADV_DONTNEED before the run; each stream's region "
	               "POSIX_FADV_DONTNEED before each later pass (and of the backing file "
	               "under a loop device)"
	             : "BLKFLSBUF + POSIX_FADV_DONTNEED before the pass (and of the backing file "
	               "under a loop device)");
	if (!run->layout) {
		json_decref(image);
		return -ENOMEM;
	}
	json_object_set_new(run->layout, "queue",
	                    json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "optimal_io_size",
	                              uint_or_null(kr->qi.optimal_io_size), "max_sectors_kb",
	                              uint_or_null(kr->qi.max_sectors_kb), "max_hw_sectors_kb",
	                              uint_or_null(kr->qi.max_hw_sectors_kb), "nr_requests",
	                              uint_or_null(kr->qi.nr_requests), "logical_block_size",
	                              uint_or_null(kr->qi.logical_block_size), "rotational",
	                              uint_or_null(kr->qi.rotational)));
	json_object_set_new(run->layout, "map_via",
	                    kr->map ? json_string(ccb_map_via_name(kr->via)) : json_null());
	if (kr->map) {
		json_object_set_new(image, "map_options",
		                    o->map_options ? json_string(o->map_options) : json_null());
		if (kr->via == CCB_MAP_FUSE_LOOP)
			json_object_set_new(image, "backing_file", json_string(kr->map->backing));
		if (kr->via == CCB_MAP_KERNEL) {
			const struct ccb_mapping *m = kr->map;

			/* What rbd device map was given, and why each addition. */
			json_object_set_new(image, "map_options_used",
			                    m->options[0] ? json_string(m->options) : json_null());
			json_object_set_new(
			    image, "ms_mode",
			    json_pack("{s:o, s:s, s:b}", "value",
			              m->ms_mode[0] ? json_string(m->ms_mode) : json_null(), "why",
			              m->ms_mode_why, "auto",
			              m->ms_mode[0] &&
			                  !(o->map_options && strstr(o->map_options, "ms_mode"))));
			json_object_set_new(image, "noudev", json_boolean(m->noudev));
			if (m->noudev)
				ccb_run_warn(run, "no udev daemon here: mapped with noudev, so "
				                  "/dev/rbd/POOL/IMAGE links are not made");
		}
		json_object_set_new(run->layout, "image", image);
	}
	return 0;
}

/* ---- clients -------------------------------------------------------------- */

/* io_uring completions, on the stream's reaper thread: hand each to the
 * engine; a NULL user_data is the stop sentinel from client_close. */
static void *reaper_main(void *arg)
{
	struct kclient *kc = arg;

	for (;;) {
		struct io_uring_cqe *cqe;
		struct ccb_slot *s;
		int res, r = io_uring_wait_cqe(&kc->ring, &cqe);

		if (r == -EINTR)
			continue;
		if (r < 0)
			break;
		URING_TAKEOVER(&kc->ring);
		s = io_uring_cqe_get_data(cqe);
		res = cqe->res;
		io_uring_cqe_seen(&kc->ring, cqe);
		if (!s)
			break;
		if (res >= 0)
			s->len_bytes = (uint64_t)res;
		ccb_slot_done(s, res == 0 ? -EIO : res);
	}
	return NULL;
}

/* ---- buffered reads: reader threads and their monitor ---------------------- */

static void free_reader_state(struct kclient *kc)
{
	close(kc->fd);
	free(kc->rbuf);
	pthread_mutex_destroy(&kc->lock);
	pthread_cond_destroy(&kc->cond);
	free(kc);
}

/* One stream's reads, one at a time. */
static void *reader_main(void *arg)
{
	struct kclient *kc = arg;

	for (;;) {
		struct ccb_slot *mine;
		uint64_t off, len;
		bool done, orphan;
		ssize_t n;
		int e = 0;

		pthread_mutex_lock(&kc->lock);
		while (!kc->quit && (!kc->op || kc->taken))
			pthread_cond_wait(&kc->cond, &kc->lock);
		if (kc->quit) {
			pthread_mutex_unlock(&kc->lock);
			return NULL; /* closed after the engine drained: no op is left */
		}
		mine = kc->op;
		kc->taken = kc->in_read = true;
		off = mine->offset;
		len = mine->len_bytes;
		pthread_mutex_unlock(&kc->lock);

		do
			n = pread(kc->fd, kc->rbuf, len, (off_t)off);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			e = errno;

		pthread_mutex_lock(&kc->lock);
		kc->in_read = false;
		done = kc->op == mine; /* not abandoned by the monitor meanwhile */
		if (done)
			kc->op = NULL;
		orphan = kc->quit;
		pthread_mutex_unlock(&kc->lock);
		if (done) {
			if (n > 0)
				mine->len_bytes = (uint64_t)n;
			/* 0 bytes inside the device is an error: the device shrank under us. */
			ccb_slot_done(mine, n > 0 ? (int)n : n == 0 ? -EIO : -e);
		}
		if (orphan) {
			/* The stream was closed while this read hung: nobody else
			 * will free what it used. */
			free_reader_state(kc);
			return NULL;
		}
	}
}

/* Abandon the ops no read will complete in time: past --op-timeout, or
 * (after Ctrl-C) started before the signal and still running a second
 * later. Checked every 100 ms. */
static void *monitor_main(void *arg)
{
	struct krun *kr = arg;
	struct ccb_run *run = kr->run;
	uint64_t limit = run->opts->op_timeout_usec * 1000ull, stop_seen = 0;

	pthread_mutex_lock(&kr->mon_lock);
	while (!kr->mon_quit) {
		struct timespec ts;
		uint64_t now = ccb_now_nsec();
		int stop = atomic_load(&run->stop);

		if (stop != CCB_STOP_NONE && !stop_seen)
			stop_seen = now;
		for (struct kclient *kc = kr->readers; kc; kc = kc->next) {
			struct ccb_slot *s = NULL;
			uint64_t age = 0;
			bool in_read = false;

			pthread_mutex_lock(&kc->lock);
			if (kc->op) {
				uint64_t t = ccb_now_nsec(), st = kc->op->start_nsec;

				/* Taken under the lock the submit hands the op over with: never
				 * before start. */
				age = t > st ? t - st : 0;
				if (age > limit ||
				    (stop == CCB_STOP_SIGNAL && kc->op->start_nsec < stop_seen &&
				     now - stop_seen > 1000000000ull)) {
					s = kc->op;
					kc->op = NULL;
					kc->taken = false;
					in_read = kc->in_read;
				}
			}
			pthread_mutex_unlock(&kc->lock);
			if (!s)
				continue;
			ccb_run_warn(run,
			             "stream %u: pread(%s, %" PRIu64 " bytes at offset %" PRIu64
			             ") had not returned after %.1f s (%s): abandoned, counted as "
			             "failed; %s",
			             kc->idx, kr->dev, s->len_bytes, s->offset, (double)age / 1e9,
			             age > limit ? "--op-timeout" : "the run was interrupted",
			             in_read
			                 ? "its reader thread may still be blocked in the kernel "
			                   "(the device's I/O hangs: cluster or rbd-fuse gone; "
			                   "krbd's osd_request_timeout is 0 by default)"
			                 : "it had not started");
			ccb_slot_done(s, age > limit ? -ETIMEDOUT : -EINTR);
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&kr->mon_cond, &kr->mon_lock, &ts);
	}
	pthread_mutex_unlock(&kr->mon_lock);
	return NULL;
}

static int undo_monitor(void *arg)
{
	struct krun *kr = arg;

	pthread_mutex_lock(&kr->mon_lock);
	kr->mon_quit = true;
	pthread_cond_signal(&kr->mon_cond);
	pthread_mutex_unlock(&kr->mon_lock);
	pthread_join(kr->monitor, NULL);
	return 0;
}

static int start_monitor(struct krun *kr)
{
	int r;

	pthread_mutex_init(&kr->mon_lock, NULL);
	pthread_cond_init(&kr->mon_cond, NULL);
	r = pthread_create(&kr->monitor, NULL, monitor_main, kr);
	if (r)
		return -r;
	/* Pushed after the krun's own entry: joined before the krun is freed. */
	r = ccb_undo_push("stop the krbd read monitor", undo_monitor, kr, NULL);
	if (r < 0) {
		undo_monitor(kr);
		return r;
	}
	return 0;
}

static int start_reader(struct krun *kr, struct kclient *kc, uint64_t buf_bytes)
{
	int r;

	if (posix_memalign((void **)&kc->rbuf, 4096, buf_bytes))
		return -ENOMEM;
	pthread_mutex_init(&kc->lock, NULL);
	pthread_cond_init(&kc->cond, NULL);
	r = pthread_create(&kc->reader, NULL, reader_main, kc);
	if (r) {
		pthread_mutex_destroy(&kc->lock);
		pthread_cond_destroy(&kc->cond);
		free(kc->rbuf);
		kc->rbuf = NULL;
		return -r;
	}
	kc->reader_started = true;
	pthread_mutex_lock(&kr->mon_lock);
	kc->next = kr->readers;
	kr->readers = kc;
	pthread_mutex_unlock(&kr->mon_lock);
	return 0;
}

/* Stop @p kc's reader. @return true when it is stuck in an abandoned read
 * and now owns @p kc (it frees it when the read returns). */
static bool stop_reader(struct krun *kr, struct kclient *kc)
{
	bool stuck;

	pthread_mutex_lock(&kr->mon_lock);
	for (struct kclient **p = &kr->readers; *p; p = &(*p)->next) {
		if (*p == kc) {
			*p = kc->next;
			break;
		}
	}
	pthread_mutex_unlock(&kr->mon_lock);
	pthread_mutex_lock(&kc->lock);
	kc->quit = true;
	stuck = kc->in_read;
	pthread_cond_signal(&kc->cond);
	pthread_mutex_unlock(&kc->lock);
	if (stuck) {
		pthread_detach(kc->reader);
		return true;
	}
	pthread_join(kc->reader, NULL);
	return false;
}

static int krbd_client_open(struct ccb_client *cl)
{
	struct ccb_run *run = cl->run;
	struct krun *kr = run->path_data;
	struct kclient *kc = calloc(1, sizeof(*kc));
	int r;

	if (!kc)
		return -ENOMEM;
	/* Read-only, always: there is no write mode on devices. */
	kc->fd = open(kr->dev, O_RDONLY | O_CLOEXEC | (kr->direct ? O_DIRECT : 0));
	if (kc->fd < 0) {
		r = -errno;
		fprintf(stderr, "ccbench: stream %u: open %s%s: %s\n", cl->idx, kr->dev,
		        kr->direct ? " (O_DIRECT)" : "", strerror(errno));
		free(kc);
		return r;
	}
	if (run->mode == CCB_MODE_SEQ) {
		kc->rstart = kr->start + (uint64_t)cl->idx * kr->region_bytes;
		kc->rend = cl->idx + 1 == run->n_clients ? kr->end : kc->rstart + kr->region_bytes;
	} else {
		kc->rstart = kr->start;
		kc->rend = kr->end;
	}
	kc->pos = kc->rstart;
	kc->idx = cl->idx;
	if (run->n_clients == 1 && run->mode == CCB_MODE_SEQ) {
		uint64_t reqs;
		kc->pass_stat = device_reads(kr, &reqs, &kc->pass_sec0) == 0;
	}
	if (!kr->direct) {
		r = start_reader(kr, kc, run->buf_bytes);
		if (r < 0) {
			fprintf(stderr, "ccbench: stream %u: start its reader thread: %s\n",
			        cl->idx, strerror(-r));
			close(kc->fd);
			free(kc);
			return r;
		}
	}
	if (kr->direct) {
		r = io_uring_queue_init((unsigned)run->queue_depth, &kc->ring, 0);
		if (r < 0) {
			fprintf(stderr,
			        "ccbench: stream %u: io_uring_queue_init(%" PRIu64 "): %s\n",
			        cl->idx, run->queue_depth, strerror(-r));
			close(kc->fd);
			free(kc);
			return r;
		}
		kc->uring = true;
		r = pthread_create(&kc->reaper, NULL, reaper_main, kc);
		if (r) {
			fprintf(stderr, "ccbench: stream %u: pthread_create: %s\n", cl->idx,
			        strerror(r));
			io_uring_queue_exit(&kc->ring);
			close(kc->fd);
			free(kc);
			return -r;
		}
		kc->reaper_started = true;
	}
	cl->path_data = kc;
	return 0;
}

/* Did the device read the pass of @p want bytes that just ended, or did
 * a cache serve it? */
static void pass_check(struct krun *kr, struct kclient *kc, uint64_t want)
{
	uint64_t reqs, sec;

	if (!kc->pass_stat || device_reads(kr, &reqs, &sec) < 0 || sec < kc->pass_sec0)
		return;
	uint64_t got = (sec - kc->pass_sec0) * 512;

	kr->passes_checked++;
	if (want >= CACHE_CHECK_MIN && got < want / 2 && !kr->passes_cached++) {
		kr->first_cached_pass = kc->passes + 1;
		kr->first_cached_dev = got;
		kr->first_cached_bytes = want;
	}
	kc->pass_sec0 = sec;
}

/* Next offset and length for @p s, or CCB_SUBMIT_END after one pass. */
static int pick(struct ccb_run *run, struct krun *kr, struct ccb_client *cl, struct kclient *kc,
                struct ccb_slot *s)
{
	if (run->mode == CCB_MODE_RAND) {
		uint64_t n = (kc->rend - kc->rstart) / kr->io_bytes;

		s->offset = kc->rstart + (n ? ccb_client_rand(cl) % n * kr->io_bytes : 0);
		s->len_bytes = n ? kr->io_bytes : kc->rend - kc->rstart;
		return 0;
	}
	if (kc->pos >= kc->rend) {
		if (!kr->wrap)
			return CCB_SUBMIT_END;
		pass_check(kr, kc, kc->rend - kc->rstart);
		/* A new pass must come from the device too: drop this region's pages. */
		if (!kr->direct) {
			posix_fadvise(kc->fd, (off_t)kc->rstart, (off_t)(kc->rend - kc->rstart),
			              POSIX_FADV_DONTNEED);
			/* A buffered loop device caches its file's pages too. */
			drop_backing_range(kr, kc->rstart, kc->rend - kc->rstart);
		}
		kc->pos = kc->rstart;
		kc->passes++;
	}
	s->offset = kc->pos;
	s->len_bytes = kc->rend - kc->pos < kr->io_bytes ? kc->rend - kc->pos : kr->io_bytes;
	kc->pos += s->len_bytes;
	return 0;
}

static int krbd_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	struct ccb_run *run = cl->run;
	struct krun *kr = run->path_data;
	struct kclient *kc = cl->path_data;
	int r = pick(run, kr, cl, kc, s);

	if (r)
		return r;
	if (kc->uring) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&kc->ring);

		/* One SQE per slot and at most queue-depth slots busy: never full. */
		if (!sqe)
			return -EBUSY;
		io_uring_prep_read(sqe, kc->fd, s->buf, (unsigned)s->len_bytes, s->offset);
		io_uring_sqe_set_data(sqe, s);
		URING_HANDOFF(&kc->ring);
		r = io_uring_submit(&kc->ring);
		return r < 0 ? r : 0;
	}
	/* To the reader thread: at most one op is outstanding (queue depth 1). */
	pthread_mutex_lock(&kc->lock);
	if (kc->op) {
		pthread_mutex_unlock(&kc->lock);
		return -EBUSY;
	}
	kc->op = s;
	kc->taken = false;
	pthread_cond_signal(&kc->cond);
	pthread_mutex_unlock(&kc->lock);
	return 0;
}

static void krbd_describe(struct ccb_client *cl, struct ccb_slot *s, char *buf, size_t len)
{
	struct krun *kr = cl->run->path_data;

	snprintf(buf, len, "%s(%s, %" PRIu64 " bytes)", kr->direct ? "io_uring read" : "pread",
	         kr->dev, s->len_bytes);
}

static void krbd_client_close(struct ccb_client *cl)
{
	struct kclient *kc = cl->path_data;

	if (!kc)
		return;
	if (kc->reaper_started) {
		/* Every op has completed (the engine drained): a NOP with no slot stops the reaper.
		 */
		struct io_uring_sqe *sqe = io_uring_get_sqe(&kc->ring);

		if (sqe) {
			io_uring_prep_nop(sqe);
			io_uring_sqe_set_data(sqe, NULL);
			io_uring_submit(&kc->ring);
			pthread_join(kc->reaper, NULL);
		} else {
			pthread_cancel(kc->reaper);
			pthread_join(kc->reaper, NULL);
		}
	}
	if (kc->uring)
		io_uring_queue_exit(&kc->ring);
	/* The last pass (whole, or cut short by --duration or --total). */
	if (kc->pos > kc->rstart)
		pass_check(cl->run->path_data, kc, kc->pos - kc->rstart);
	if (kc->passes && cl->run->layout) {
		json_t *p = json_object_get(cl->run->layout, "passes");
		uint64_t most = p ? (uint64_t)json_integer_value(p) : 1;
		if (kc->passes + 1 > most)
			json_object_set_new(cl->run->layout, "passes",
			                    json_integer((json_int_t)kc->passes + 1));
	}
	cl->path_data = NULL;
	if (kc->reader_started) {
		/* A reader stuck in an abandoned read frees kc when it returns. */
		if (!stop_reader(cl->run->path_data, kc))
			free_reader_state(kc);
		return;
	}
	close(kc->fd);
	free(kc);
}

static void krbd_finish(struct ccb_run *run)
{
	struct krun *kr = run->path_data;
	char path[PATH_MAX];
	uint64_t now = UINT64_MAX, after = UINT64_MAX;

	if (!kr || !run->layout)
		return;
	/* What the device itself read during the run: bytes equal to the
	 * run's when no read was served from the page cache; bytes/requests
	 * the average request size, which follows read_ahead_kb. */
	uint64_t reqs = 0, sectors = 0, served = 0, dev_bytes = UINT64_MAX;
	char a[32], b[32];

	for (unsigned i = 0; run->clients && i < run->n_clients; i++)
		served += atomic_load(&run->clients[i].bytes_done);
	ccb_format_bytes(served, b, sizeof(b));
	if (kr->stat_ok && device_reads(kr, &reqs, &sectors) == 0 && reqs >= kr->stat_reqs &&
	    sectors >= kr->stat_sectors) {
		dev_bytes = (sectors - kr->stat_sectors) * 512;
		json_object_set_new(run->layout, "device_reads",
		                    json_pack("{s:I, s:I}", "requests",
		                              (json_int_t)(reqs - kr->stat_reqs), "bytes",
		                              (json_int_t)dev_bytes));
		/* Bytes served that the device never read came from a page
		 * cache the drop could not empty (pages mapped or locked by
		 * another process, or read in by one during the run). */
		if (served >= CACHE_CHECK_MIN && dev_bytes < served / 2) {
			ccb_format_bytes(dev_bytes, a, sizeof(a));
			ccb_run_warn(
			    run,
			    "served from the page cache: %s read %s from the device for %s "
			    "served (its %s/class/block/%s/stat); the bandwidth is the "
			    "cache's, not the device's",
			    kr->given, a, b, ccb_sysfs_root(), kr->name);
		}
	}
	if (kr->passes_cached) {
		ccb_format_bytes(kr->first_cached_dev, a, sizeof(a));
		ccb_format_bytes(kr->first_cached_bytes, b, sizeof(b));
		ccb_run_warn(run,
		             "served from the page cache: %u of the %u passes checked, the first "
		             "pass %" PRIu64 ", for which %s read %s from the device for %s",
		             kr->passes_cached, kr->passes_checked, kr->first_cached_pass,
		             kr->given, a, b);
	}
	if (kr->backing[0])
		json_object_set_new(run->layout, "backing_file", json_string(kr->backing));
	/* A loop device's reads come from its backing file's page cache when
	 * the file's pages are there: its disk reads less than the loop did. */
	if (kr->bstat_ok && dev_bytes != UINT64_MAX &&
	    name_reads(kr->backing_name, &reqs, &sectors) == 0 && sectors >= kr->bstat_sectors) {
		uint64_t bbytes = (sectors - kr->bstat_sectors) * 512;

		json_object_set_new(run->layout, "backing_reads",
		                    json_pack("{s:s, s:I}", "device", kr->backing_name, "bytes",
		                              (json_int_t)bbytes));
		if (dev_bytes >= CACHE_CHECK_MIN && bbytes < dev_bytes / 2) {
			ccb_format_bytes(bbytes, a, sizeof(a));
			ccb_format_bytes(dev_bytes, b, sizeof(b));
			ccb_run_warn(
			    run,
			    "served from the page cache of the backing file: %s read %s, its "
			    "backing file %s is on %s, which read %s; the bandwidth is the "
			    "cache's, not the disk's",
			    kr->given, b, kr->backing, kr->backing_name, a);
		}
	}
	ccb_sysfs_queue_attr(ccb_sysfs_root(), kr->disk, "read_ahead_kb", path, sizeof(path));
	ccb_sysfs_read_u64(path, &now);
	if (now != UINT64_MAX && now != kr->ra_during)
		ccb_run_warn(run,
		             "read_ahead_kb of %s changed during the run: %" PRIu64
		             " at the end, %" PRIu64 " at the start",
		             kr->disk, now, kr->ra_during);
	/* Put the setting back now, not at the unwind, so the result can say
	 * what the device was left with. */
	if (kr->ra_set) {
		ccb_undo_run(kr->ra_handle);
		kr->ra_set = false;
	}
	ccb_sysfs_read_u64(path, &after);
	json_object_set_new(run->layout, "read_ahead_kb",
	                    json_pack("{s:I, s:I, s:o, s:b}", "before", (json_int_t)kr->ra_before,
	                              "during", (json_int_t)kr->ra_during, "after",
	                              uint_or_null(after), "set",
	                              ccb_opt_given(run->opts, "read-ahead-kb")));
	if (!json_object_get(run->layout, "passes"))
		json_object_set_new(run->layout, "passes", json_integer(1));
}

/* ---- what the rest of ccbench asks of the path ---------------------------- */

static int krbd_validate(const struct ccb_opts *o, char *err, size_t err_len)
{
	const char *temp = ccb_opts_first_given(o, CCB_OPTF_TEMP);

	if (o->device && o->map) {
		snprintf(err, err_len, "krbd: give one of --device DEV or --map POOL/IMAGE");
		return -EINVAL;
	}
	/* Neither: a temporary prefilled image, mapped for the run, laid out by
	 * the rbd layout flags (the same image `rbd read --image` can read). */
	if ((o->device || o->map) && temp) {
		snprintf(err, err_len, "--%s: applies to the temporary image, not to --%s", temp,
		         o->device ? "device" : "map");
		return -EINVAL;
	}
	if (o->map_options && !o->map) {
		snprintf(err, err_len, "--map-options: only with --map");
		return -EINVAL;
	}
	if (o->map && (!strchr(o->map, '/') || o->map[0] == '/')) {
		snprintf(err, err_len, "--map '%s': expected POOL/IMAGE", o->map);
		return -EINVAL;
	}
	if (o->queue_depth > 1 && !o->direct) {
		snprintf(
		    err, err_len,
		    "--queue-depth %llu: buffered reads are one per stream; use --streams N, or "
		    "--direct for O_DIRECT reads at depth",
		    (unsigned long long)o->queue_depth);
		return -EINVAL;
	}
	if (o->direct && o->io_size_bytes % 512) {
		snprintf(err, err_len, "--io-size %llu: --direct needs a multiple of 512 bytes",
		         (unsigned long long)o->io_size_bytes);
		return -EINVAL;
	}
	return 0;
}

/* A plain --device run reads a local device: no cluster to talk to. */
static bool krbd_needs_cluster(const struct ccb_opts *o)
{
	return !o->device;
}

static bool krbd_has_target(const struct ccb_opts *o)
{
	return o->device || o->map;
}

/* Buffered reads are one pread() at a time per stream (validate refuses
 * more); --direct reads go through io_uring at --queue-depth. */
static uint64_t krbd_queue_depth(const struct ccb_opts *o)
{
	return o->direct ? o->queue_depth : 1;
}

/* Without --device or --map: a temporary prefilled image, mapped for the
 * point and removed with it (unless --keep). */
static int krbd_setup(struct ccb_run *run, struct ccb_opts *scratch, char *buf, size_t buf_len)
{
	int r;

	if (krbd_has_target(run->opts))
		return 0;
	r = ccb_rbd_shared_image(run->opts, buf, buf_len);
	if (r < 0)
		return r;
	*scratch = *run->opts;
	scratch->map = buf;
	run->opts = scratch;
	return 0;
}

/* A sweep's "readahead" is a size for both rbd paths; the kernel's knob is in KiB. */
static int krbd_param_alias(const char *key, const char **name, const char **val, char *buf,
                            size_t buf_len, char *err, size_t err_len)
{
	uint64_t bytes;

	if (strcmp(key, "readahead") != 0)
		return 0;
	if (!*val || ccb_parse_bytes(*val, &bytes) < 0) {
		snprintf(err, err_len, "readahead: '%s' is not a size", *val ? *val : "");
		return -EINVAL;
	}
	snprintf(buf, buf_len, "%llu", (unsigned long long)(bytes / 1024));
	*name = "read-ahead-kb";
	*val = buf;
	return 1;
}

/* One pass reads from --offset to the end of the device. */
static uint64_t krbd_estimate_bytes(const struct ccb_opts *o, enum ccb_mode mode, bool one_pass,
                                    uint64_t image_bytes, const char **bound)
{
	(void)mode;
	(void)bound;
	if (!one_pass || !image_bytes)
		return 0;
	return image_bytes > o->offset_bytes ? image_bytes - o->offset_bytes : 0;
}

const struct ccb_path_ops ccb_path_krbd = {
    .name = "krbd",
    .flags = CCB_PATH_ONE_PASS | CCB_PATH_TEMP_IMAGE,
    .cmd_bit = CCB_CMD_KRBD,
    .op_size_opt = "io-size",
    .target_opt = "map",
    .has_target = krbd_has_target,
    .validate = krbd_validate,
    .needs_cluster = krbd_needs_cluster,
    .queue_depth = krbd_queue_depth,
    .setup = krbd_setup,
    .param_alias = krbd_param_alias,
    .estimate_bytes = krbd_estimate_bytes,
    .prepare = krbd_prepare,
    .client_open = krbd_client_open,
    .submit = krbd_submit,
    .describe = krbd_describe,
    .client_close = krbd_client_close,
    .finish = krbd_finish,
};

/* ---- ccbench krbd restore -------------------------------------------------- */

int ccb_krbd_restore(const struct ccb_opts *o)
{
	char only_disk[64] = "", msg[PATH_MAX + 256];
	json_t *files = NULL, *f;
	size_t i;
	int first = 0, done = 0;

	if (o->device) {
		char real[PATH_MAX];
		struct stat st;

		if (!realpath(o->device, real) || stat(real, &st) < 0 || !S_ISBLK(st.st_mode) ||
		    ccb_sysfs_disk_of_devt(ccb_sysfs_root(), st.st_rdev, NULL, 0, only_disk,
		                           sizeof(only_disk)) < 0) {
			fprintf(stderr, "ccbench: --device %s: not a block device\n", o->device);
			return -EINVAL;
		}
	}
	/* Records are acted on as root: only from a directory nobody else
	 * could have written them into. */
	if (ccb_map_check_state_dir(ccb_undo_state_dir(), msg, sizeof(msg)) < 0) {
		fprintf(stderr, "ccbench: restore: %s\n", msg);
		return -EPERM;
	}
	if (ccb_undo_state_stranded(&files) < 0)
		return -ENOMEM;
	json_array_foreach(files, i, f)
	{
		json_t *entries = json_object_get(f, "entries"), *left;
		const char *file = json_string_value(json_object_get(f, "file"));

		if (ccb_map_check_state_file(file, msg, sizeof(msg)) < 0) {
			fprintf(stderr, "ccbench: restore: %s\n", msg);
			if (!first)
				first = -EPERM;
			continue;
		}
		left = json_array();

		/* Newest first, as the unwind would have: loop before mount before process. */
		for (size_t j = json_array_size(entries); j-- > 0;) {
			json_t *e = json_array_get(entries, j);
			const char *kind = json_string_value(json_object_get(e, "kind"));
			int r;

			msg[0] = '\0';
			if (kind && strcmp(kind, "read_ahead_kb") == 0) {
				const char *disk = json_string_value(json_object_get(e, "disk"));
				json_t *orig = json_object_get(e, "original"),
				       *set = json_object_get(e, "set");

				if (disk && only_disk[0] && strcmp(disk, only_disk) != 0) {
					json_array_insert(left, 0, e);
					continue;
				}
				if (!json_is_integer(orig) || !json_is_integer(set) ||
				    json_integer_value(orig) < 0 || json_integer_value(set) < 0)
					r = -EINVAL,
					snprintf(msg, sizeof(msg),
					         "invalid record (read_ahead_kb): original "
					         "and set must be numbers; nothing touched");
				else
					r = ccb_sysfs_restore_read_ahead_kb(
					    disk, (uint64_t)json_integer_value(orig),
					    (uint64_t)json_integer_value(set), msg, sizeof(msg));
			} else if (only_disk[0]) {
				json_array_insert(left, 0, e);
				continue;
			} else {
				r = ccb_map_restore(e, msg, sizeof(msg));
				if (r == -ENOTSUP)
					snprintf(msg, sizeof(msg),
					         "%s: unknown record kind '%s'; kept", file,
					         kind ? kind : "?");
			}
			if (r < 0) {
				fprintf(stderr, "ccbench: restore: %s\n", msg);
				json_array_insert(left, 0, e);
				if (!first)
					first = r;
			} else {
				printf("restored (run pid %lld): %s\n",
				       (long long)json_integer_value(json_object_get(f, "pid")),
				       msg);
				done++;
			}
		}
		int r = ccb_undo_state_resolve(file, left);
		if (r < 0) {
			fprintf(stderr, "ccbench: rewrite %s: %s\n", file, strerror(-r));
			if (!first)
				first = r;
		}
		json_decref(left);
	}
	if (!done && !first && !o->quiet)
		printf("nothing to restore (no state of a dead run in %s)\n", ccb_undo_state_dir());
	json_decref(files);
	return first;
}
