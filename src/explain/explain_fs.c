/*
 * explain for fs runs through a mount (the posix path): what the client in
 * the way limits (the kernel client's readahead and request sizes,
 * ceph-fuse's request size, threads and own cache), and whether a read
 * came from the page cache rather than the file system. From the result's
 * layout alone, like every kind, so a saved result says the same.
 */
#include <ccbench/explain.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain_int.h"

/* fuse's default request size when the daemon asks for none: libfuse's
 * 32 pages (128K), which ceph-fuse keeps while fuse_max_write is 0. */
#define FUSE_DEFAULT_MAX_WRITE (128 * 1024)

static void kernel_client(const json_t *r, const json_t *mnt, json_t *list)
{
	const json_t *k = json_object_get(mnt, "kernel");
	const char *mode = str_or(r, "mode", "");
	bool direct = json_is_true(json_object_get(json_object_get(r, "layout"), "direct"));
	double ra = num(k, "rasize"), ws = num(k, "wsize"), rs = num(k, "rsize");
	char a[32], b[32];

	if (!json_is_object(k))
		return;
	ccb_explain_fmt_bytes(ra, a, sizeof(a));
	ccb_explain_fmt_bytes(strcmp(mode, "write") == 0 ? ws : rs, b, sizeof(b));
	if (strcmp(mode, "write") == 0)
		ccb_explain_add(list, "mount", "info",
		                json_pack("{s:f, s:b}", "wsize", ws, "direct", direct),
		                "kernel client: %s; requests of at most wsize %s; the fsync that "
		                "ends each file is in the time",
		                direct ? "O_DIRECT writes go to the OSDs as they come"
		                       : "writes gather in the page cache and go out as it flushes",
		                b);
	else if (direct)
		ccb_explain_add(
		    list, "mount", "info", json_pack("{s:f, s:b}", "rsize", rs, "direct", direct),
		    "kernel client: O_DIRECT reads, no readahead: each read call goes out "
		    "as it is, in requests of at most rsize %s",
		    b);
	else
		ccb_explain_add(
		    list, "mount", "info",
		    json_pack("{s:f, s:f, s:b}", "rasize", ra, "rsize", rs, "direct", direct),
		    "kernel client: buffered reads through the page cache, read ahead up to "
		    "rasize %s, in requests of at most rsize %s (rasize=N, rsize=N in "
		    "--mount-options change them)",
		    a, b);
}

static void fuse_client(const json_t *r, const json_t *mnt, json_t *list)
{
	const json_t *f = json_object_get(mnt, "ceph_fuse");
	double mw = num(f, "fuse_max_write"), block = num(r, "op_bytes");
	double oc = num(f, "client_oc_size");
	bool threads = json_is_true(json_object_get(f, "fuse_multithreaded"));
	char a[32], b[32], c[32];

	if (!json_is_object(f))
		return;
	if (mw <= 0 || mw > FUSE_DEFAULT_MAX_WRITE)
		mw = FUSE_DEFAULT_MAX_WRITE;
	ccb_explain_fmt_bytes(mw, a, sizeof(a));
	ccb_explain_fmt_bytes(block, b, sizeof(b));
	ccb_explain_fmt_bytes(oc, c, sizeof(c));
	ccb_explain_add(
	    list, "mount", "info",
	    json_pack("{s:f, s:f, s:b, s:b, s:f}", "request_bytes", mw, "block_bytes", block,
	              "fuse_multithreaded", threads, "client_oc",
	              json_is_true(json_object_get(f, "client_oc")), "client_oc_size", oc),
	    "ceph-fuse: the kernel hands it reads and writes in requests of at most %s (fuse's "
	    "default; fuse_max_write %.0f), so each %s block is %.0f requests, served %s; "
	    "beside the page cache it keeps its own cache (client_oc, %s)",
	    a, num(f, "fuse_max_write"), b, block > mw ? ceil(block / mw) : 1,
	    threads ? "on several threads (fuse_multithreaded)" : "one at a time", c);
}

/*
 * Reads start cold: the posix path drops each reader's file from the page
 * cache (POSIX_FADV_DONTNEED) and counts what stayed. What stayed was
 * read from memory (tmpfs keeps everything; a dirty or mapped page stays).
 */
static void page_cache(const json_t *r, const json_t *layout, json_t *list)
{
	const json_t *pc = json_object_get(layout, "page_cache");
	const json_t *mnt = json_object_get(layout, "mount");
	double left = num(pc, "resident_at_start_bytes"), files = num(pc, "file_bytes"), share;
	char a[32], b[32];

	if (json_is_object(pc) && files >= (double)CCB_EXPLAIN_CACHE_MIN_BYTES) {
		share = left / files;
		if (share >= CCB_EXPLAIN_CACHE_WARN) {
			ccb_explain_fmt_bytes(left, a, sizeof(a));
			ccb_explain_fmt_bytes(files, b, sizeof(b));
			ccb_explain_add(
			    list, "cache",
			    share >= CCB_EXPLAIN_CACHE_DISTRUST ? "distrust" : "warn",
			    json_pack("{s:f, s:f, s:f}", "resident_bytes", left, "file_bytes",
			              files, "cached_share", share),
			    "%.0f %% of this read came from the page cache: %s of the %s read was "
			    "still cached after POSIX_FADV_DONTNEED when the readers began%s",
			    share * 100, a, b,
			    strcmp(str_or(mnt, "fstype", ""), "tmpfs") == 0
			        ? " (tmpfs keeps every page: it measures memory)"
			        : "");
			return;
		}
	}
	/* ceph-fuse's own cache is out of the page cache's reach: a shared
	 * mount that wrote (or read) the files may serve them from it. */
	if (strcmp(str_or(r, "mode", ""), "seq") == 0 &&
	    strcmp(str_or(mnt, "fstype", ""), "fuse.ceph-fuse") == 0 &&
	    !json_is_true(json_object_get(mnt, "one_per_client")))
		ccb_explain_add(list, "cache", "warn", NULL,
		                "ceph-fuse keeps a cache of its own (client_oc) that dropping the "
		                "page cache does not reach: on this shared mount, files written or "
		                "read through it before may come from that cache (--mount-via fuse "
		                "reads through fresh mounts)");
}

void ccb_explain_fs(const json_t *r, json_t *list)
{
	const json_t *layout = json_object_get(r, "layout");
	const json_t *mnt = json_object_get(layout, "mount");

	if (!json_is_object(mnt))
		return;
	kernel_client(r, mnt, list);
	fuse_client(r, mnt, list);
	page_cache(r, layout, list);
}
