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
#include <ccbench/host.h>
#include <ccbench/cluster.h>
#include "mapping.h"
#include <ccbench/path.h>
#include <ccbench/path_rbd.h>
#include "read_ahead.h"
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

#include "krbd_opts.h"
#include "path_krbd.h"
#include "path_krbd_int.h"

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

static int undo_free(void *arg)
{
	free(arg);
	return 0;
}

/* The device a run reads: the image --map names, mapped for the run (its
 * description into *@p image), or --device; then checked. */
static int krbd_open_target(struct ccb_run *run, struct krun *kr, json_t **image)
{
	const struct ccb_opts *o = run->opts;
	char err[1024], pool[128] = "", name[128] = "";
	int r;

	if (CCB_KRBD_OPTS(o)->map) {
		uint64_t image_bytes = 0;
		int mons = -1;
		const char *slash = strchr(CCB_KRBD_OPTS(o)->map, '/');

		snprintf(pool, sizeof(pool), "%.*s", (int)(slash - CCB_KRBD_OPTS(o)->map),
		         CCB_KRBD_OPTS(o)->map);
		snprintf(name, sizeof(name), "%s", slash + 1);
		r = ccb_map_choose(o, &kr->via, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "ccbench: %s\n", err);
			run->bad_input = true;
			return r;
		}
		r = ccb_krbd_probe_image(run, pool, name, image, &image_bytes, &mons);
		if (r < 0)
			return r;
		if (CCB_KRBD_OPTS(o)->offset_bytes >= image_bytes) {
			fprintf(stderr,
			        "ccbench: --offset %" PRIu64 ": beyond the end of %s (%" PRIu64
			        " bytes)\n",
			        CCB_KRBD_OPTS(o)->offset_bytes, CCB_KRBD_OPTS(o)->map, image_bytes);
			run->bad_input = true;
			return -EINVAL;
		}
		r = ccb_map(o, kr->via, pool, name, mons, &kr->map, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "ccbench: --map %s via %s: %s\n", CCB_KRBD_OPTS(o)->map,
			        ccb_map_via_name(kr->via), err);
			return r;
		}
		r = ccb_krbd_probe_device(run, kr, kr->map->dev);
	} else {
		r = ccb_krbd_probe_device(run, kr, o->device);
	}
	if (r == 0 && ccb_krbd_check_device(run, kr) < 0) {
		run->bad_input = true;
		r = -EINVAL;
	}
	return r;
}

/* The device as the run reads it: --read-ahead-kb set (and put back by
 * the undo log), its caches dropped, its counters read before, the
 * buffered reads' monitor started. */
static int krbd_tune(struct ccb_run *run, struct krun *kr)
{
	const struct ccb_opts *o = run->opts;
	char err[1024];
	int r;

	kr->ra_before = kr->ra_during = kr->qi.read_ahead_kb;
	if (ccb_opt_given(o, "read-ahead-kb")) {
		r = ccb_sysfs_set_read_ahead_kb(kr->disk, CCB_KRBD_OPTS(o)->read_ahead_kb,
		                                &kr->ra_before, &kr->ra_during, &kr->ra_handle, err,
		                                sizeof(err));
		if (r < 0) {
			fprintf(stderr, "ccbench: --read-ahead-kb %" PRIu64 ": %s\n",
			        CCB_KRBD_OPTS(o)->read_ahead_kb, err);
			/* Another run tunes the device, or the lock file is not
			 * ccbench's: refused before anything changed. */
			run->bad_input = r == -EBUSY || r == -EPERM;
			return r;
		}
		kr->ra_set = true;
	}
	ccb_krbd_find_loop_backing(run, kr);
	r = ccb_krbd_drop_cache(run, kr);
	if (r < 0) {
		fprintf(stderr, "ccbench: posix_fadvise(%s, DONTNEED): %s\n", kr->dev,
		        strerror(-r));
		return r;
	}
	kr->cache_dropped = true;
	kr->stat_ok = ccb_krbd_device_reads(kr, &kr->stat_reqs, &kr->stat_sectors) == 0;
	kr->bstat_ok = kr->backing_name[0] && ccb_krbd_name_reads(kr->backing_name, &kr->bstat_reqs,
	                                                          &kr->bstat_sectors) == 0;
	kr->run = run;
	if (!kr->direct) {
		r = ccb_krbd_start_monitor(kr);
		if (r < 0) {
			fprintf(stderr, "ccbench: start the krbd read monitor: %s\n", strerror(-r));
			return r;
		}
	}
	return 0;
}

/* What a mapped image's description adds: the options the map was given
 * and used, and why each addition. */
static void describe_mapping(struct ccb_run *run, const struct krun *kr, json_t *image)
{
	const struct ccb_opts *o = run->opts;
	const struct ccb_mapping *m = kr->map;

	json_object_set_new(image, "map_options",
	                    CCB_KRBD_OPTS(o)->map_options
	                        ? json_string(CCB_KRBD_OPTS(o)->map_options)
	                        : json_null());
	if (kr->via == CCB_MAP_FUSE_LOOP)
		json_object_set_new(image, "backing_file", json_string(m->backing));
	if (kr->via != CCB_MAP_KERNEL)
		return;
	/* What rbd device map was given, and why each addition. */
	json_object_set_new(image, "map_options_used",
	                    m->options[0] ? json_string(m->options) : json_null());
	/* value: the mode the map uses; passed: whether the options name it
	 * (else the driver's default). */
	json_object_set_new(
	    image, "ms_mode",
	    json_pack("{s:o, s:b, s:s, s:b, s:o}", "value",
	              m->ms_mode_used[0] ? json_string(m->ms_mode_used) : json_null(), "passed",
	              m->ms_mode[0] != '\0', "why", m->ms_mode_why, "auto",
	              m->ms_mode[0] && !(CCB_KRBD_OPTS(o)->map_options &&
	                                 strstr(CCB_KRBD_OPTS(o)->map_options, "ms_mode")),
	              "rbd_version",
	              m->rbd_version[0] ? json_string(m->rbd_version) : json_null()));
	json_object_set_new(image, "noudev", json_boolean(m->noudev));
	if (m->noudev)
		ccb_run_warn(run, "no udev daemon here: mapped with noudev, so "
		                  "/dev/rbd/POOL/IMAGE links are not made");
}

/* The run's layout: the device, its queue settings, how its caches are
 * dropped, and the mapped image's description (@p image, taken). */
static int describe_layout(struct ccb_run *run, const struct krun *kr, json_t *image)
{
	const struct ccb_opts *o = run->opts;

	run->layout = json_pack(
	    "{s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:i, s:b, s:b, s:b, s:s}", "path",
	    "krbd", "device", kr->given, "node", kr->dev, "name", kr->name, "disk", kr->disk,
	    "device_size", (json_int_t)kr->dev_bytes, "offset", (json_int_t)kr->start, "io_size",
	    (json_int_t)kr->io_bytes, "region_size",
	    (json_int_t)(run->mode == CCB_MODE_SEQ ? kr->region_bytes : kr->end - kr->start),
	    "streams", (int)CCB_KRBD_OPTS(o)->streams, "direct", kr->direct, "readahead_applies",
	    !kr->direct, "cache_dropped", kr->cache_dropped, "cache_drop",
	    kr->wrap ? "BLKFLSBUF + POSIX_FADV_DONTNEED before the run; each stream's region "
	               "POSIX_FADV_DONTNEED before each later pass (and of the backing file "
	               "under a loop device)"
	             : "BLKFLSBUF + POSIX_FADV_DONTNEED before the pass (and of the backing file "
	               "under a loop device)");
	if (!run->layout) {
		json_decref(image);
		return -ENOMEM;
	}
	json_object_set_new(
	    run->layout, "queue",
	    json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "optimal_io_size",
	              ccb_krbd_uint_or_null(kr->qi.optimal_io_size), "max_sectors_kb",
	              ccb_krbd_uint_or_null(kr->qi.max_sectors_kb), "max_hw_sectors_kb",
	              ccb_krbd_uint_or_null(kr->qi.max_hw_sectors_kb), "nr_requests",
	              ccb_krbd_uint_or_null(kr->qi.nr_requests), "logical_block_size",
	              ccb_krbd_uint_or_null(kr->qi.logical_block_size), "rotational",
	              ccb_krbd_uint_or_null(kr->qi.rotational)));
	/* Buffered reads are one per stream, made larger by the kernel's
	 * readahead; O_DIRECT reads go at -t per stream. */
	json_object_set_new(run->layout, "more_in_flight",
	                    json_string(kr->direct ? "raise -t or --streams"
	                                           : "add --streams or raise --read-ahead-kb (or "
	                                             "--direct with -t)"));
	json_object_set_new(run->layout, "map_via",
	                    kr->map ? json_string(ccb_map_via_name(kr->via)) : json_null());
	if (kr->map) {
		describe_mapping(run, kr, image);
		json_object_set_new(run->layout, "image", image);
	}
	return 0;
}

static int krbd_prepare(struct ccb_run *run)
{
	const struct ccb_opts *o = run->opts;
	struct krun *kr = calloc(1, sizeof(*kr));
	json_t *image = NULL;
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
	r = krbd_open_target(run, kr, &image);
	if (r == 0)
		r = krbd_tune(run, kr);
	if (r < 0) {
		json_decref(image);
		return r;
	}

	run->n_clients = (unsigned)CCB_KRBD_OPTS(o)->streams;
	run->buf_bytes = kr->io_bytes;
	/* A random run without a limit reads as many bytes as one pass would. */
	if (run->mode == CCB_MODE_RAND && !kr->wrap) {
		uint64_t whole = (kr->end - kr->start) / kr->io_bytes * kr->io_bytes;
		run->total_bytes = whole ? whole : kr->end - kr->start;
	}
	/* One sequential pass: the streams split [start, end). */
	if (run->mode == CCB_MODE_SEQ && !kr->wrap)
		run->pass_bytes = kr->end - kr->start;

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
	return describe_layout(run, kr, image);
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
		kc->pass_stat = ccb_krbd_device_reads(kr, &reqs, &kc->pass_sec0) == 0;
	}
	if (!kr->direct) {
		r = ccb_krbd_start_reader(kr, kc, run->buf_bytes);
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

	if (!kc->pass_stat || ccb_krbd_device_reads(kr, &reqs, &sec) < 0 || sec < kc->pass_sec0)
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
			ccb_krbd_drop_backing_range(kr, kc->rstart, kc->rend - kc->rstart);
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
		if (!ccb_krbd_stop_reader(cl->run->path_data, kc))
			ccb_krbd_free_reader_state(kc);
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
	if (kr->stat_ok && ccb_krbd_device_reads(kr, &reqs, &sectors) == 0 &&
	    reqs >= kr->stat_reqs && sectors >= kr->stat_sectors) {
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
	    ccb_krbd_name_reads(kr->backing_name, &reqs, &sectors) == 0 &&
	    sectors >= kr->bstat_sectors) {
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
	                              ccb_krbd_uint_or_null(after), "set",
	                              ccb_opt_given(run->opts, "read-ahead-kb")));
	if (!json_object_get(run->layout, "passes"))
		json_object_set_new(run->layout, "passes", json_integer(1));
}

/*
 * --until-steady's ramp for buffered sequential reads: the kernel's
 * readahead window grows from a few requests up to read_ahead_kb (its
 * value during the run once prepare set or read it), and the image's
 * objects are read whole. O_DIRECT and random reads have no readahead.
 */
static uint64_t krbd_steady_ramp_bytes(const struct ccb_run *run, char *basis, size_t len)
{
	const struct ccb_opts *o = run->opts;
	const struct krun *kr = run->path_data;
	static const char *const what[] = {"read_ahead_kb", "object size"};
	uint64_t sizes[2] = {0, 0};

	if (run->mode != CCB_MODE_SEQ || o->direct)
		return 0;
	if (kr)
		sizes[0] = kr->ra_during * 1024;
	else
		sizes[0] =
		    (ccb_opt_given(o, "read-ahead-kb") ? CCB_KRBD_OPTS(o)->read_ahead_kb : 128) *
		    1024;
	/* A mapped image's object size as probed; before that (a dry run), as
	 * the options lay out a temporary image (they apply to no other);
	 * a device's own, unknown. */
	const json_t *obj = json_object_get(json_object_get(run->layout, "image"), "object_size");
	if (!sizes[0])
		;
	else if (json_is_integer(obj) && json_integer_value(obj) > 0)
		sizes[1] = (uint64_t)json_integer_value(obj);
	else if (!kr && (o->object_size_bytes || o->order))
		sizes[1] = o->object_size_bytes ? o->object_size_bytes : 1ull << o->order;
	else if (!kr && !o->device && !CCB_KRBD_OPTS(o)->map)
		sizes[1] = 4ull << 20; /* rbd's default order 22 */
	return ccb_steady_ramp_of(what, sizes, 2, basis, len);
}

const struct ccb_path_ops ccb_path_krbd = {
    .name = "krbd",
    .flags = CCB_PATH_ONE_PASS | CCB_PATH_TEMP_IMAGE,
    .caps = CCB_CMD_WORKLOAD | CCB_CAP_POOL | CCB_CAP_QUEUE | CCB_CAP_OBJECT_SIZE | CCB_CAP_IMAGE |
            CCB_CAP_STRIPES | CCB_CAP_TEMP | CCB_CAP_DEVICE | CCB_CAP_DIRECT | CCB_CAP_IO_SIZE,
    .opts_bytes = sizeof(struct ccb_krbd_opts),
    .op_size_name = "io-size",
    .target_opt = "map",
    .has_target = ccb_krbd_has_target,
    .validate = ccb_krbd_validate,
    .needs_cluster = ccb_krbd_needs_cluster,
    .queue_depth = ccb_krbd_queue_depth,
    .setup = ccb_krbd_setup,
    .param_alias = ccb_krbd_param_alias,
    .estimate_bytes = ccb_krbd_estimate_bytes,
    .steady_ramp_bytes = krbd_steady_ramp_bytes,
    .prepare = krbd_prepare,
    .client_open = krbd_client_open,
    .submit = krbd_submit,
    .describe = krbd_describe,
    .client_close = krbd_client_close,
    .finish = krbd_finish,
    .undo_kinds = ccb_krbd_undo_kinds,
    .commands = ccb_krbd_commands,
    .options = ccb_krbd_options,
};
