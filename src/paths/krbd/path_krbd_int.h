/*
 * The krbd path's internals, shared by its files: path_krbd.c (prepare,
 * clients, ops table), krbd_device.c (the checks before anything changes,
 * page cache and read counters), krbd_reader.c (buffered reads on reader
 * threads and their monitor), ccb_krbd_setup.c (option rules, the temporary
 * image, krbd restore).
 */
#ifndef CCBENCH_PATH_KRBD_INT_H
#define CCBENCH_PATH_KRBD_INT_H

#include <ccbench/engine.h>
#include "mapping.h"
#include <ccbench/sysfs.h>

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>
#include <liburing.h>

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

/* Below this many bytes a run is too short to say where its reads came from. */
#define CACHE_CHECK_MIN (4ull << 20)

/* ---- krbd_device.c ---- */

/** The image of --map as librbd sees it: exists, its size and layout. */
int ccb_krbd_probe_image(struct ccb_run *run, const char *pool, const char *image, json_t **layout,
                         uint64_t *size_bytes, int *mons);
/** Open @p path read-only and learn what it is (size, block size, disk). */
int ccb_krbd_probe_device(struct ccb_run *run, struct krun *kr, const char *path);
/** The span and I/O size rules that need the device. */
int ccb_krbd_check_device(struct ccb_run *run, struct krun *kr);
/** Reads completed and sectors read by block device @p name. */
int ccb_krbd_name_reads(const char *name, uint64_t *reqs, uint64_t *sectors);
/** The same for the run's device. */
int ccb_krbd_device_reads(const struct krun *kr, uint64_t *reqs, uint64_t *sectors);
/** --device on a loop device: find its backing file (kr->backing). */
void ccb_krbd_find_loop_backing(struct ccb_run *run, struct krun *kr);
/** Drop the cached pages of [off, off+len) of the device's backing file. */
int ccb_krbd_drop_backing_range(const struct krun *kr, uint64_t off, uint64_t len);
/** Drop the device's cached pages (and its backing file's) before the run. */
int ccb_krbd_drop_cache(struct ccb_run *run, struct krun *kr);
/** A JSON integer, or null for UINT64_MAX (unknown). */
json_t *ccb_krbd_uint_or_null(uint64_t v);

/* ---- krbd_reader.c ---- */

void ccb_krbd_free_reader_state(struct kclient *kc);
/** Start the monitor thread of buffered reads (its stop is in the undo log). */
int ccb_krbd_start_monitor(struct krun *kr);
/** Start the reader thread of stream @p kc with a buffer of @p buf_bytes. */
int ccb_krbd_start_reader(struct krun *kr, struct kclient *kc, uint64_t buf_bytes);
/** Stop @p kc's reader. @return false when it is blocked in the kernel (abandoned). */
bool ccb_krbd_stop_reader(struct krun *kr, struct kclient *kc);

/* ---- krbd_setup.c: the ops table's hooks other than I/O ---- */

int ccb_krbd_validate(const struct ccb_opts *o, char *err, size_t err_len);
bool ccb_krbd_needs_cluster(const struct ccb_opts *o);
bool ccb_krbd_has_target(const struct ccb_opts *o);
uint64_t ccb_krbd_queue_depth(const struct ccb_opts *o);
int ccb_krbd_setup(struct ccb_run *run, struct ccb_opts *scratch, char *buf, size_t buf_len);
int ccb_krbd_param_alias(const char *key, const char **name, const char **val, char *buf,
                         size_t buf_len, char *err, size_t err_len);
uint64_t ccb_krbd_estimate_bytes(const struct ccb_opts *o, enum ccb_mode mode, bool one_pass,
                                 uint64_t image_bytes, const char **bound);

#endif
