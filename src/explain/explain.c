/*
 * Every result explains itself. Each kind reads only the result document
 * (and, for the CPU, what the run measured and stored in it), so a saved
 * result re-derives the same list: `ccbench explain RESULT.json`.
 * Thresholds are in explain.h and docs/explain.md; each check says nothing rather
 * than guess when a figure it needs is missing.
 */
#include <ccbench/escape.h>
#include <ccbench/explain.h>
#include <ccbench/units.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain_int.h"

/* MiB to a tenth, whole ones without it: "627.3M", "64M". */
static void fmt_mib(double bytes, char *buf, size_t len)
{
	double m = bytes / 1048576;

	snprintf(buf, len, fabs(m - round(m)) < 0.05 ? "%.0fM" : "%.1fM", m);
}

/*
 * The bytes of one op: the result's op_bytes, one name for every path's
 * op size option (-b, --io-size, --block-size). Results saved before it
 * existed have only the option as given, under the name their path used
 * (the three below, a closed list: new paths fill op_bytes); else what
 * the run did on average.
 */
static double asked_op_bytes(const json_t *r)
{
	const json_t *p = json_object_get(r, "parameters");
	static const char *const old_keys[] = {"io-size", "op-size", "block-size"};
	double ops = num(r, "ops");

	if (json_is_integer(json_object_get(r, "op_bytes")) && num(r, "op_bytes") > 0)
		return num(r, "op_bytes");
	for (size_t i = 0; i < sizeof(old_keys) / sizeof(old_keys[0]); i++)
		if (json_is_integer(json_object_get(p, old_keys[i])) && num(p, old_keys[i]) > 0)
			return num(p, old_keys[i]);
	return ops > 0 ? num(r, "bytes") / ops : 0;
}

/*
 * What puts more ops in flight is the path's to say: its layout's
 * "more_in_flight" (krbd's buffered reads are one per stream, fs one op
 * per client). Results saved before the layout carried it get the hint
 * their path gave then, from this table, which is frozen: a new path
 * says it in its layout and needs no row here.
 */
static const struct {
	const char *path;
	int direct; /* layout "direct": 1 true, 0 false, -1 either */
	const char *hint;
} old_hints[] = {
    {"krbd", 1, "raise -t or --streams"},
    {"krbd", 0, "add --streams or raise --read-ahead-kb (or --direct with -t)"},
    {"cephfs", -1, "add --clients"},
};

static const char *faster_hint(const json_t *r)
{
	const json_t *layout = json_object_get(r, "layout");
	const char *path = str_or(r, "path", ""), *hint = str(layout, "more_in_flight");
	int direct = json_is_true(json_object_get(layout, "direct"));

	if (hint && *hint)
		return hint;
	for (size_t i = 0; i < sizeof(old_hints) / sizeof(old_hints[0]); i++)
		if (strcmp(path, old_hints[i].path) == 0 &&
		    (old_hints[i].direct < 0 || old_hints[i].direct == direct))
			return old_hints[i].hint;
	return "raise -t (or readahead)";
}

/*
 * Little's law: with N ops in flight each taking the mean latency, no run
 * moves more than N x size / latency. At the bound the latency is the
 * limit. Below it, the law read the other way says how many were really
 * in flight on average (ops x mean latency / seconds): far fewer than
 * asked is a client that did not keep them in flight -- unless the run
 * was so short that its ramp-up (the first ops of every slot) and drain
 * (the slowest last op) account for the shortfall, as in a 4 x 16 run of
 * 256 ops of 4M, 4 per slot, which kept 38 % in flight on average.
 */
static void littles_law(const json_t *r, json_t *list)
{
	double n = num(r, "clients_n") * num(r, "queue_depth");
	double size = asked_op_bytes(r), ops = num(r, "ops"), secs = num(r, "seconds");
	const json_t *lat = json_object_get(r, "latency_us");
	double mean_us = num(lat, "mean"), max_us = num(lat, "max");
	double bw = num(r, "bandwidth_mib_s"), bound, ratio, avg, mean_in = -1, occ = -1, edge = 0;
	char s[32], a[32];

	/* fs meta counts files, not bytes in flight. An open loop keeps in
	 * flight what its arrivals bring, not its slots: the open-loop entry
	 * says whether the rate held. */
	if (json_object_get(r, "phases") || json_object_get(r, "open_loop") || n <= 0 ||
	    size <= 0 || mean_us <= 0 || ops <= 0)
		return;
	bound = n * size / (mean_us / 1e6) / 1048576.0;
	ratio = bw / bound;
	avg = num(r, "bytes") / ops;
	if (secs > 0) {
		mean_in = ops * (mean_us / 1e6) / secs;
		occ = mean_in / n;
		/* Ramp-up and drain: each slot idles about one mean latency at
		 * the start and up to the slowest op at the end. */
		edge = ((max_us > mean_us ? max_us : mean_us) + mean_us) / 1e6 / secs;
		if (edge > 1)
			edge = 1;
	}
	ccb_explain_fmt_bytes(size, s, sizeof(s));
	ccb_explain_fmt_bytes(avg, a, sizeof(a));
	json_t *fig = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "in_flight", n, "op_bytes", size,
	                        "mean_latency_us", mean_us, "bound_mib_s", bound, "bandwidth_mib_s",
	                        bw, "ratio", ratio);
	if (mean_in >= 0) {
		json_object_set_new(fig, "mean_in_flight", json_real(mean_in));
		json_object_set_new(fig, "occupancy", json_real(occ));
		json_object_set_new(fig, "ramp_drain_share", json_real(edge));
	}
	if (ratio >= CCB_EXPLAIN_LITTLE_NEAR && ratio <= CCB_EXPLAIN_LITTLE_OVER) {
		ccb_explain_add(
		    list, "littles-law", "info", fig,
		    "latency-bound: %.0f in flight × %s ÷ %.3f ms = %.1f MiB/s (measured %.1f, "
		    "%.0f %%); %s to go faster",
		    n, s, mean_us / 1e3, bound, bw, ratio * 100, faster_hint(r));
		return;
	}
	if (ratio >= CCB_EXPLAIN_LITTLE_FAR) {
		json_decref(fig);
		return;
	}
	if (occ >= 0 && occ < CCB_EXPLAIN_LITTLE_FAR && 1 - occ <= edge)
		ccb_explain_add(
		    list, "littles-law", "info", fig,
		    "short run: %.1f of %.0f in flight on average (%.0f %%), as its ramp-up and "
		    "drain allow (%.0f ops, %.1f per slot, the slowest %.1f ms); not a stall: run "
		    "longer (--total, --duration) for the steady figure",
		    mean_in, n, occ * 100, ops, ops / n, max_us / 1e3);
	else if (occ >= 0 && occ < CCB_EXPLAIN_LITTLE_FAR &&
	         (secs * n - ops * mean_us / 1e6) / ops * 1e6 <= CCB_EXPLAIN_LITTLE_GAP_US)
		/* Each slot idled only microseconds between ops: not a stall,
		 * the client's own work per op (a page-cache read of 24 us
		 * with 24 us between ops is half in flight). */
		ccb_explain_add(
		    list, "littles-law", "warn", fig,
		    "client-bound: %.1f of %.0f in flight on average (%.0f %%), each slot idle "
		    "%.0f µs between ops against a %.0f µs latency: the client's own work per op, "
		    "not the cluster, sets this figure",
		    mean_in, n, occ * 100, (secs * n - ops * mean_us / 1e6) / ops * 1e6, mean_us);
	else if (occ >= 0 && occ < CCB_EXPLAIN_LITTLE_FAR) {
		/* The busiest client thread: it submits and reaps every op of its
		 * client, so a free slot waits while it is busy or not running. */
		const json_t *tc = json_object_get(r, "thread_cpu"), *v;
		double busiest = -1;
		char thr[96] = "";
		size_t i;

		json_array_foreach(json_object_get(tc, "clients"), i, v)
		{
			if (json_number_value(v) > busiest)
				busiest = json_number_value(v);
		}
		/* Busy: it could not submit faster; idle: it waited (to be
		 * scheduled on a busy host, on a lock or a throttle). */
		if (busiest >= 0 && num(tc, "wall_s") > 0)
			snprintf(
			    thr, sizeof(thr), "; the busiest client thread %s %.0f %% of a CPU",
			    busiest / num(tc, "wall_s") >= 0.5 ? "was busy" : "waited, using only",
			    busiest / num(tc, "wall_s") * 100);
		ccb_explain_add(
		    list, "littles-law", "warn", fig,
		    "client stalled: %.1f of %.0f in flight on average (%.0f %%; ops × mean "
		    "latency ÷ "
		    "seconds), more than ramp-up and drain explain (%.0f %%): the client did not "
		    "keep "
		    "them in flight (CPU, a lock, a throttle%s); %.1f MiB/s is %.0f %% of the %.1f "
		    "MiB/s bound",
		    mean_in, n, occ * 100, edge * 100, thr, bw, ratio * 100, bound);
	} else if (avg < size * CCB_EXPLAIN_LITTLE_NEAR)
		ccb_explain_add(
		    list, "littles-law", "warn", fig,
		    "ops smaller than asked: %s on average for %s asked, so %.1f MiB/s is %.0f %% "
		    "of the %.1f MiB/s that %.0f in flight × %s ÷ %.3f ms allow",
		    a, s, bw, ratio * 100, bound, n, s, mean_us / 1e3);
	else
		ccb_explain_add(
		    list, "littles-law", "warn", fig,
		    "%.1f MiB/s is %.0f %% of the %.1f MiB/s that %.0f in flight × %s ÷ %.3f ms "
		    "allow: %.1f in flight on average (%.0f %%) with ops of %s for %s asked",
		    bw, ratio * 100, bound, n, s, mean_us / 1e3, mean_in, occ * 100, a, s);
}

json_t *ccb_explain_cpu_json(const struct ccb_explain_ctx *ctx)
{
	if (!ctx || !ctx->have_cpu)
		return NULL;
	return json_pack("{s:f, s:f, s:f, s:i, s:s?}", "user_s", ctx->cpu_user_s, "sys_s",
	                 ctx->cpu_sys_s, "wall_s", ctx->wall_s, "online_cpus", ctx->online_cpus,
	                 "emulated", ctx->emulated);
}

/*
 * A client on an emulated CPU (the krbd-vm guest: qemu TCG, where every
 * instruction of the kernel client -- its messenger, crc32c in software,
 * the page-cache copies -- is translated): once its CPUs are busy, the
 * emulator sets the figure. Most of that work is the kernel's, outside
 * this process, so the machine's busy share says it, not the process's.
 */
static void emulated(const json_t *r, json_t *list)
{
	const json_t *c = json_object_get(r, "client_cpu");
	const json_t *host = json_object_get(json_object_get(r, "thread_cpu"), "host_busy_share");
	const char *what = str(c, "emulated");
	double busy = json_number_value(host);

	if (!what || !json_is_number(host))
		return;
	if (busy >= CCB_EXPLAIN_EMULATED_BUSY)
		ccb_explain_add(
		    list, "client-cpu", "warn",
		    json_pack("{s:s, s:f, s:f}", "emulated", what, "host_busy_share", busy,
		              "online_cpus", num(c, "online_cpus")),
		    "this client runs on an emulated CPU (%s, no hardware virtualization) "
		    "and its %.0f CPU%s %s %.0f %% busy: the emulation of the client's "
		    "work (the kernel's messenger, crc32c, copies) sets this figure, not "
		    "the cluster",
		    what, num(c, "online_cpus"), num(c, "online_cpus") == 1 ? "" : "s",
		    num(c, "online_cpus") == 1 ? "was" : "were", busy * 100);
	else
		ccb_explain_add(
		    list, "client-cpu", "info",
		    json_pack("{s:s, s:f}", "emulated", what, "host_busy_share", busy),
		    "this client runs on an emulated CPU (%s), %.0f %% busy, under the "
		    "%.0f %% at which the emulation becomes the limit: the figure follows "
		    "the cluster's latency, not the emulator's speed",
		    what, busy * 100, CCB_EXPLAIN_EMULATED_BUSY * 100);
}

/*
 * The host's CPUs all busy and the client's ops not kept in flight: the
 * client could not have more CPU, and where the OSDs run on this host
 * (network loopback) they compete with it for the same CPUs, so the
 * figure is this host's. On a 2-core host with 3 OSDs (and other load)
 * the process alone stays well under the CPU_WARN share (8 clients x 32
 * of 4M writes: 15 % to 52 %) while the host is 99 % busy.
 */
static void host_cpu(const json_t *r, json_t *list)
{
	const json_t *tc = json_object_get(r, "thread_cpu"), *c = json_object_get(r, "client_cpu");
	const json_t *host = json_object_get(tc, "host_busy_share"), *p;
	double cpus = num(c, "online_cpus"), wall = num(c, "wall_s"), own;
	bool local = false;
	size_t i;

	/* An emulated client's busy CPU is the emulation's (emulated() says it);
	 * its loopback is a relay, not OSDs beside it. */
	if (!json_is_number(host) || cpus <= 0 || wall <= 0 || str(c, "emulated"))
		return;
	own = (num(c, "user_s") + num(c, "sys_s")) / wall / cpus;
	if (json_number_value(host) < CCB_EXPLAIN_HOST_BUSY || own >= CCB_EXPLAIN_CPU_WARN)
		return; /* the process's own share says it (client_cpu) */
	/* A client that kept its ops in flight was not held back by the CPU
	 * (a 4M x 16 read at 98 % of its bound with the host 91 % busy): the
	 * latency is the limit, and Little's law says so. */
	double n = num(r, "clients_n") * num(r, "queue_depth"), secs = num(r, "seconds");
	double mean_in =
	    secs > 0 ? num(r, "ops") * num(json_object_get(r, "latency_us"), "mean") / 1e6 / secs
	             : -1;
	json_array_foreach(json_object_get(r, "network"), i, p) local |=
	    json_is_true(json_object_get(p, "loopback")) &&
	    strcmp(str_or(p, "role", ""), "osd") == 0;
	if (n <= 0 || mean_in < 0)
		return;
	/* A short run's ramp-up and drain explain the shortfall (littles-law).
	 * An open loop keeps in flight what its arrivals bring: it kept up
	 * when its rate held. */
	const json_t *lat = json_object_get(r, "latency_us");
	const json_t *ol = json_object_get(r, "open_loop");
	double edge = (fmax(num(lat, "max"), num(lat, "mean")) + num(lat, "mean")) / 1e6 / secs;
	bool kept = ol ? strcmp(str_or(ol, "verdict", ""), "held") == 0
	               : mean_in >= n * CCB_EXPLAIN_LITTLE_NEAR || 1 - mean_in / n <= edge;
	if (kept) {
		/* The client kept its ops in flight, but with the OSDs on this
		 * host and its CPUs saturated, the OSDs ran on what the client
		 * left them (8 clients x 32 of 4M writes with zero-copy: ccbench
		 * 9 % of a 100 % busy 2-core host): the figure is this host's,
		 * not what a cluster on its own hardware would give. Worth a
		 * note, not a warning: nothing better can be had here. */
		if (local)
			ccb_explain_add(
			    list, "client-cpu", "info",
			    json_pack("{s:f, s:f, s:f, s:f}", "host_busy_share",
			              json_number_value(host), "own_share", own, "online_cpus",
			              cpus, "mean_in_flight", mean_in),
			    "this host's %.0f CPUs were %.0f %% busy, ccbench %.0f %% of them, and "
			    "the "
			    "OSDs run on this host: they had the CPU the client left them, so the "
			    "figure measures this host, not a cluster on its own hardware",
			    cpus, json_number_value(host) * 100, own * 100);
		return;
	}
	if (ol) {
		ccb_explain_add(
		    list, "client-cpu", "warn",
		    json_pack("{s:f, s:f, s:f}", "host_busy_share", json_number_value(host),
		              "own_share", own, "online_cpus", cpus),
		    "this host's %.0f CPUs were %.0f %% busy, ccbench %.0f %% of them%s, "
		    "and the open-loop rate was not held: a client with no CPU to "
		    "spare, so the figure measures this host, not the cluster",
		    cpus, json_number_value(host) * 100, own * 100,
		    local ? " (the OSDs run on this host too)" : "");
		return;
	}
	ccb_explain_add(
	    list, "client-cpu", "warn",
	    json_pack("{s:f, s:f, s:f, s:f}", "host_busy_share", json_number_value(host),
	              "own_share", own, "online_cpus", cpus, "mean_in_flight", mean_in),
	    "this host's %.0f CPUs were %.0f %% busy, ccbench %.0f %% of them%s, and it kept "
	    "only %.1f of %.0f in flight: a client with no CPU to spare, so the figure measures "
	    "this host, not the cluster",
	    cpus, json_number_value(host) * 100, own * 100,
	    local ? " (the OSDs run on this host too)" : "", mean_in, n);
}

/*
 * One thread of the client near a full CPU is a bottleneck that the
 * process's share hides on a many-core host: a client thread submits and
 * reaps every op of its client; a library thread (msgr-worker-N,
 * fn-radosclient, ...) carries every message of its connection.
 */
static void client_threads(const json_t *r, json_t *list)
{
	const json_t *tc = json_object_get(r, "thread_cpu"), *v;
	double wall = num(tc, "wall_s"), best = -1;
	const char *name = NULL;
	size_t i, best_client = 0;

	if (wall <= 0)
		return;
	host_cpu(r, list);
	json_array_foreach(json_object_get(tc, "clients"), i, v) if (json_number_value(v) > best)
	{
		best = json_number_value(v);
		best_client = i;
	}
	if (best / wall >= CCB_EXPLAIN_THREAD_BUSY)
		ccb_explain_add(
		    list, "client-cpu", "warn",
		    json_pack("{s:i, s:f, s:f}", "client", (int)best_client, "cpu_s", best, "share",
		              best / wall),
		    "client thread %zu used %.0f %% of one CPU: it submits and reaps every op of "
		    "its "
		    "client, so the figure measures this host (more --clients spread it)",
		    best_client, best / wall * 100);
	v = json_array_get(json_object_get(tc, "busiest"), 0);
	name = str(v, "name");
	if (name && num(v, "cpu_s") / wall >= CCB_EXPLAIN_THREAD_BUSY)
		ccb_explain_add(
		    list, "client-cpu", "warn",
		    json_pack("{s:s, s:f, s:f}", "thread", name, "cpu_s", num(v, "cpu_s"), "share",
		              num(v, "cpu_s") / wall),
		    "thread %s of the client library used %.0f %% of one CPU: its messages wait "
		    "for it, so the figure measures this host",
		    name, num(v, "cpu_s") / wall * 100);
}

/*
 * The client's CPU: when this process kept (nearly) every CPU busy, the
 * cluster may have had more to give; the figure measures this host.
 */
static void client_cpu(const json_t *r, const struct ccb_explain_ctx *ctx, json_t *list)
{
	const json_t *c = json_object_get(r, "client_cpu");
	json_t *own = NULL;
	double busy, cpus, share;

	if (!json_is_object(c)) {
		c = own = ccb_explain_cpu_json(ctx);
		if (!c)
			return;
	}
	cpus = num(c, "online_cpus");
	if (num(c, "wall_s") <= 0 || cpus <= 0)
		goto out;
	busy = (num(c, "user_s") + num(c, "sys_s")) / num(c, "wall_s");
	share = busy / cpus;
	if (share >= CCB_EXPLAIN_CPU_WARN) {
		bool distrust = share >= CCB_EXPLAIN_CPU_DISTRUST;
		ccb_explain_add(
		    list, "client-cpu", distrust ? "distrust" : "warn",
		    json_pack("{s:f, s:f, s:f}", "busy_cpus", busy, "online_cpus", cpus, "share",
		              share),
		    "ccbench kept %.2f of %.0f CPUs busy (%.0f %%): the figure measures this host, "
		    "not the cluster",
		    busy, cpus, share * 100);
	}
out:
	json_decref(own);
	client_threads(r, list);
}

/*
 * librbd's readahead: only through its cache, and not under writearound
 * (the result records readahead_active, read back from librbd's settings);
 * a readahead as large as the cache evicts what it read before it is used:
 * measured on the throwaway cluster, 64K reads at depth 1 under 2 ms
 * went from 901 MiB/s at 8M readahead to ~30 at 32M and more.
 */
static void readahead(const json_t *r, json_t *list)
{
	const json_t *lib = json_object_get(json_object_get(r, "layout"), "librbd");
	const json_t *active = json_object_get(lib, "readahead_active");
	double ra = num(lib, "rbd_readahead_max_bytes"), cache = num(lib, "rbd_cache_size");
	const char *policy = str(lib, "rbd_cache_policy"), *mode = str(r, "mode");
	bool reads = mode && strcmp(mode, "write") != 0 && strcmp(mode, "randwrite") != 0;
	char a[32], b[32];

	if (!json_is_boolean(active) || !reads || ra <= 0)
		return;
	ccb_explain_fmt_bytes(ra, a, sizeof(a));
	ccb_explain_fmt_bytes(cache, b, sizeof(b));
	if (json_is_false(active)) {
		bool writearound = policy && strcmp(policy, "writearound") == 0;
		/* librbd's own default (512K under writearound) is worth a
		 * note; a --readahead the user asked for and lost, a warning. */
		bool asked =
		    json_is_integer(json_object_get(json_object_get(r, "parameters"), "readahead"));
		ccb_explain_add(
		    list, "readahead", asked ? "warn" : "info",
		    json_pack("{s:f, s:s?, s:b}", "readahead_bytes", ra, "cache_policy", policy,
		              "rbd_cache", json_is_true(json_object_get(lib, "rbd_cache"))),
		    "readahead inactive: librbd reads ahead only through its cache, %s; the %s "
		    "readahead did nothing",
		    writearound ? "not under rbd_cache_policy=writearound" : "and rbd_cache is off",
		    a);
		return;
	}
	/* An image no larger than the readahead is read ahead once: no cliff
	 * (a 32M image at 32M read at 310 MiB/s where a 128M one fell to 23). */
	double image = num(json_object_get(r, "layout"), "size");
	if (cache > 0 && ra >= cache && (image <= 0 || image > ra)) {
		ccb_explain_add(
		    list, "readahead", "warn",
		    json_pack("{s:f, s:f}", "readahead_bytes", ra, "cache_bytes", cache),
		    "readahead of %s at or above rbd_cache_size %s: the cache evicts what was read "
		    "ahead before it is used, and sequential reads collapse (seed 002's grid: "
		    "from hundreds of MiB/s below the cache to tens at and above it); keep it "
		    "below the cache",
		    a, b);
		return;
	}
	/* Mixed reads and writes under writeback: dirty data holds up to
	 * rbd_cache_max_dirty of the cache, so the room left for what was
	 * read ahead is the cache less that. */
	double dirty = num(lib, "rbd_cache_max_dirty");
	char c[32];
	if (strcmp(mode, "rw") == 0 && policy && strcmp(policy, "writeback") == 0 && dirty > 0 &&
	    cache > dirty && ra >= cache - dirty && ra < cache) {
		ccb_explain_fmt_bytes(cache - dirty, c, sizeof(c));
		ccb_explain_add(
		    list, "readahead", "warn",
		    json_pack("{s:f, s:f, s:f}", "readahead_bytes", ra, "cache_bytes", cache,
		              "max_dirty_bytes", dirty),
		    "readahead of %s at or above the %s that rbd_cache_size %s leaves beside "
		    "rbd_cache_max_dirty under writes: what is read ahead may be evicted before it "
		    "is read",
		    a, c, b);
	}
	/* librbd reads ahead only after rbd_readahead_trigger_requests
	 * sequential requests: random reads never make them. */
	const char *pattern = str(json_object_get(r, "parameters"), "pattern");
	double trig = num(lib, "rbd_readahead_trigger_requests");
	if (strcmp(mode, "rand") == 0 || (pattern && strcmp(pattern, "rand") == 0)) {
		ccb_explain_add(
		    list, "readahead", "info",
		    json_pack("{s:f, s:f}", "readahead_bytes", ra, "trigger_requests", trig),
		    "random reads never make the %.0f sequential requests "
		    "(rbd_readahead_trigger_requests) that start librbd's readahead: the %s "
		    "readahead does nothing here",
		    trig > 0 ? trig : 10, a);
		return;
	}
	/* librbd stops reading ahead after rbd_readahead_disable_after_bytes
	 * per open image (librbd's default 50M, ccbench's 0: never). */
	double after = num(lib, "rbd_readahead_disable_after_bytes");
	double clients = num(r, "clients_n") > 0 ? num(r, "clients_n") : 1;
	double per_client = num(r, "bytes") / clients;
	if (after > 0 && per_client > after) {
		ccb_explain_fmt_bytes(after, c, sizeof(c));
		ccb_explain_fmt_bytes(per_client, b, sizeof(b));
		ccb_explain_add(
		    list, "readahead", "warn",
		    json_pack("{s:f, s:f}", "disable_after_bytes", after, "bytes_per_client",
		              per_client),
		    "readahead stopped after rbd_readahead_disable_after_bytes %s: each client "
		    "read %s, so %.0f %% of it ran without readahead",
		    c, b, (1 - after / per_client) * 100);
	}
}

/*
 * krbd's read-ahead: the kernel reads ahead read_ahead_kb, split into
 * requests of at most max_sectors_kb (and by rbd at object boundaries);
 * the device's stat says what sizes really went out.
 */
static void krbd_readahead(const json_t *r, json_t *list)
{
	const json_t *layout = json_object_get(r, "layout");
	const json_t *dev = json_object_get(layout, "device_reads");
	double ra = num(json_object_get(layout, "read_ahead_kb"), "during");
	double maxs = num(json_object_get(layout, "queue"), "max_sectors_kb");
	double obj = num(json_object_get(layout, "image"), "object_size");
	double reqs = num(dev, "requests"), dbytes = num(dev, "bytes"), served = num(r, "bytes");
	const char *mode = str_or(r, "mode", "");

	/* The kernel's read_ahead_kb in the layout is what makes it a kernel
	 * device's run (librbd's readahead is under "librbd"). */
	if (json_is_true(json_object_get(layout, "direct")) || ra <= 0)
		return;
	if (maxs > 0 && ra > maxs)
		ccb_explain_add(
		    list, "readahead", "info",
		    json_pack("{s:f, s:f}", "read_ahead_kb", ra, "max_sectors_kb", maxs),
		    "read_ahead_kb %.0f above max_sectors_kb %.0f: each readahead goes out as "
		    "%.0f requests of at most %.0f KiB",
		    ra, maxs, ceil(ra / maxs), maxs);
	if (obj > 0 && ra * 1024 > obj)
		ccb_explain_add(
		    list, "readahead", "info",
		    json_pack("{s:f, s:f}", "read_ahead_kb", ra, "object_bytes", obj),
		    "read_ahead_kb %.0f spans %.0f objects of %.0f KiB: rbd splits each readahead "
		    "at object boundaries",
		    ra, ceil(ra * 1024 / obj), obj / 1024);
	if (reqs <= 0 || dbytes < (double)CCB_EXPLAIN_CACHE_MIN_BYTES)
		return;
	double avg_kb = dbytes / reqs / 1024, want = maxs > 0 && maxs < ra ? maxs : ra;
	json_t *fig = json_pack("{s:f, s:f, s:f}", "read_ahead_kb", ra, "request_kb", avg_kb,
	                        "device_bytes", dbytes);
	if (strcmp(mode, "seq") == 0 && avg_kb < want * CCB_EXPLAIN_RA_REQ_SHARE)
		ccb_explain_add(
		    list, "readahead", "warn", fig,
		    "readahead %.0f KiB but requests averaged %.0f KiB (%.0f requests, device "
		    "stat): "
		    "the readahead did not reach the device as large as asked",
		    ra, avg_kb, reqs);
	else if (strcmp(mode, "rand") == 0 && served > 0 && dbytes > served * CCB_EXPLAIN_RA_WASTE)
		ccb_explain_add(
		    list, "readahead", "warn", fig,
		    "random reads with read_ahead_kb %.0f: the device read %.1f times what was "
		    "served (requests averaged %.0f KiB); the readahead is wasted here",
		    ra, dbytes / served, avg_kb);
	else
		json_decref(fig);
}

/* Per-second bandwidth: coefficient of variation. */
static void variance(const json_t *r, json_t *list)
{
	const json_t *bw = json_object_get(r, "bandwidth_per_second_mib_s");
	double mean = num(bw, "mean"), sd = num(bw, "stddev"), cov;

	if (json_integer_value(json_object_get(bw, "samples")) < 3 || mean <= 0)
		return;
	cov = sd / mean;
	if (cov <= CCB_EXPLAIN_COV_INFO)
		return;
	ccb_explain_add(
	    list, "variance", cov > CCB_EXPLAIN_COV_WARN ? "warn" : "info",
	    json_pack("{s:f, s:f, s:f}", "mean_mib_s", mean, "stddev_mib_s", sd, "cov", cov),
	    "per-second bandwidth varies by %.0f %% (stddev %.1f of mean %.1f MiB/s): one figure "
	    "hides it; look at the series or run longer",
	    cov * 100, sd, mean);
}

/*
 * Injected latency, and on which side: the OSDs' (--osd-latency: every
 * client sees it, the kernel's too), the client's (--sim-osd-latency: a
 * librados setting, librbd only), both. An OSD that restarted during the
 * run lost it: the run then measured less latency than it records.
 */
static void simulated(const json_t *r, json_t *list)
{
	const json_t *li = json_object_get(r, "latency_injection");
	const json_t *v = json_object_get(json_object_get(r, "layout"), "simulated_osd_latency_us");
	const json_t *lost = json_object_get(li, "lost"), *probe = json_object_get(li, "probe");
	double osd = num(li, "osd_us"), client = li ? num(li, "client_us") : json_number_value(v);
	char d[32], c[32], pr[96] = "";

	if (json_array_size(lost)) {
		ccb_explain_add(
		    list, "simulated", "distrust",
		    json_pack("{s:f, s:O}", "osd_latency_us", osd, "lost", lost),
		    "the OSD-side latency was not on every OSD for all of this run (%s%s): "
		    "it measured less latency than it records",
		    string_or(json_array_get(lost, 0), "?"),
		    json_array_size(lost) > 1 ? ", ..." : "");
	}
	if (osd <= 0 && client <= 0)
		return;
	ccb_format_duration((uint64_t)osd, d, sizeof(d));
	ccb_format_duration((uint64_t)client, c, sizeof(c));
	if (json_is_number(json_object_get(probe, "mean_us")))
		snprintf(pr, sizeof(pr), "; probe: round trips at depth 1 took %.2f ms on average",
		         num(probe, "mean_us") / 1e3);
	if (osd > 0 && client > 0)
		ccb_explain_add(
		    list, "simulated", "info",
		    json_pack("{s:f, s:f}", "osd_latency_us", osd, "client_latency_us", client),
		    "injected latency on both sides: about %s on every OSD (--osd-latency) plus %s "
		    "on "
		    "this client (--sim-osd-latency)%s; a kernel client gets only the first; real "
		    "OSD latency differs",
		    d, c, pr);
	else if (osd > 0)
		ccb_explain_add(
		    list, "simulated", "info", json_pack("{s:f}", "osd_latency_us", osd),
		    "injected latency on the OSDs: about %s on each client message "
		    "(--osd-latency), the same for librbd and the kernel client%s; real OSD "
		    "latency differs",
		    d, pr);
	else
		ccb_explain_add(
		    list, "simulated", "info", json_pack("{s:f}", "osd_latency_us", client),
		    "simulated %s OSD latency (--sim-osd-latency), on this client only: a "
		    "kernel client cannot get it, so compare with runs under the same "
		    "latency side%s; real OSD latency differs",
		    c, pr);
}

/*
 * krbd: bytes served against bytes the device (and a loop device's
 * backing disk) read. What the device never read came from a page cache.
 * librbd: against the bytes the client received from the cluster; what it
 * never received came from librbd's cache (rbd_cache).
 */
static void cache(const json_t *r, json_t *list)
{
	const json_t *layout = json_object_get(r, "layout"), *w;
	const json_t *dev = json_object_get(layout, "device_reads");
	const json_t *back = json_object_get(layout, "backing_reads");
	double served = num(r, "bytes"), read = -1, share;
	const char *what = "the device";
	char a[32], b[32];
	size_t i;

	const json_t *lib = json_object_get(json_object_get(layout, "librbd"), "cache");
	bool librbd = false;

	if (json_is_object(dev))
		read = num(dev, "bytes");
	/* librbd: what the client received from the cluster (its messenger). */
	if (json_is_number(json_object_get(lib, "cluster_bytes"))) {
		read = num(lib, "cluster_bytes");
		what = "the cluster";
		librbd = true;
	}
	/* A loop device's reads end on its backing disk: the lower figure. */
	if (json_is_object(back) && read >= 0 && num(back, "bytes") < read) {
		read = num(back, "bytes");
		what = "the backing disk";
	}
	if (read >= 0 && served >= (double)CCB_EXPLAIN_CACHE_MIN_BYTES && read < served) {
		share = 1 - read / served;
		if (share < CCB_EXPLAIN_CACHE_WARN)
			return;
		/* Both in one unit, to a tenth: messenger bytes are never round
		 * ("627.3M for 1226.4M", not "627.3M for 1255872K"). */
		fmt_mib(read, a, sizeof(a));
		fmt_mib(served, b, sizeof(b));
		ccb_explain_add(
		    list, "cache", share >= CCB_EXPLAIN_CACHE_DISTRUST ? "distrust" : "warn",
		    json_pack("{s:f, s:f, s:f}", "served_bytes", served,
		              librbd ? "cluster_bytes" : "device_bytes", read, "cached_share",
		              share),
		    "%.0f %% of this read came from a cache: %s %s %s for %s served%s", share * 100,
		    what, librbd ? "delivered" : "read", a, b, librbd ? " (librbd's cache)" : "");
		return;
	}
	/* Passes found cached while the run went (no end figure says so). */
	json_array_foreach(json_object_get(r, "warnings"), i, w)
	{
		const char *t = json_string_value(w);
		if (t && strncmp(t, "served from the page cache", 26) == 0) {
			ccb_explain_add(list, "cache", "distrust", NULL,
			                "part of this read came from a cache: %s", t);
			return;
		}
	}
}

json_t *ccb_explain(const json_t *result, const struct ccb_explain_ctx *ctx)
{
	json_t *list = json_array();

	if (!list || !json_is_object(result))
		return list;
	littles_law(result, list);
	client_cpu(result, ctx, list);
	emulated(result, list);
	readahead(result, list);
	krbd_readahead(result, list);
	cache(result, list);
	ccb_explain_fs(result, list);
	ccb_explain_fault(result, list);
	ccb_explain_stall(result, list);
	ccb_explain_cluster(result, list);
	ccb_explain_ec(result, list);
	ccb_explain_sched(result, list);
	ccb_explain_osd(result, list);
	ccb_explain_network(result, list);
	variance(result, list);
	simulated(result, list);
	ccb_explain_steady(result, list);
	/* Last: it reads the client's CPU and the scheduler's entries above. */
	ccb_explain_open_loop(result, list);
	return list;
}

bool ccb_explain_has(const json_t *explain, const char *severity, const char **text)
{
	const json_t *e;
	size_t i;

	json_array_foreach(explain, i, e)
	{
		const char *s = str(e, "severity");
		if (s && strcmp(s, severity) == 0) {
			if (text)
				*text = str(e, "text");
			return true;
		}
	}
	return false;
}

void ccb_explain_summary(const json_t *explain, char *buf, size_t len)
{
	const json_t *e;
	size_t i, o = 0;

	if (len)
		buf[0] = '\0';
	json_array_foreach(explain, i, e)
	{
		char kind[64], sev[32];
		/* A saved result's strings: for a terminal or a CSV cell. */
		int n = snprintf(buf + o, len - o, "%s%s:%s", i ? ";" : "",
		                 ccb_text_esc(str_or(e, "kind", "?"), kind, sizeof(kind)),
		                 ccb_text_esc(str_or(e, "severity", "?"), sev, sizeof(sev)));
		if (n < 0 || (size_t)n >= len - o)
			break;
		o += (size_t)n;
	}
}

void ccb_explain_write_text(const json_t *explain, FILE *out)
{
	const json_t *e;
	size_t i;

	json_array_foreach(explain, i, e)
	{
		const char *sev = str_or(e, "severity", "info");
		fprintf(out, "%-18s %s", "why",
		        strcmp(sev, "distrust") == 0 ? "DISTRUST: "
		        : strcmp(sev, "warn") == 0   ? "warning: "
		                                     : "");
		/* The text holds the document's strings (a saved result's, or
		 * another host's record): escaped for the terminal. */
		ccb_text_put(out, str_or(e, "text", ""));
		fputc('\n', out);
	}
}
