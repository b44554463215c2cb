/*
 * Every result explains itself. Each kind reads only the result document
 * (and, for the CPU, what the run measured and stored in it), so a saved
 * result re-derives the same list: `ccbench explain RESULT.json`.
 * Thresholds are in explain.h and README; each check says nothing rather
 * than guess when a figure it needs is missing.
 */
#include <ccbench/explain.h>
#include <ccbench/units.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static const char *str_or(const json_t *o, const char *key, const char *dflt)
{
	const char *s = str(o, key);
	return s ? s : dflt;
}

/* Appends {kind, severity, text, figures}; @p figures is stolen. */
static void add(json_t *list, const char *kind, const char *severity, json_t *figures,
                const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:o}", "kind", kind, "severity",
	                                      severity, "text", text, "figures",
	                                      figures ? figures : json_object()));
}

static void fmt_bytes(double b, char *buf, size_t len)
{
	ccb_format_bytes(b > 0 ? (uint64_t)b : 0, buf, len);
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

	/* fs meta counts files, not bytes in flight. */
	if (json_object_get(r, "phases") || n <= 0 || size <= 0 || mean_us <= 0 || ops <= 0)
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
	fmt_bytes(size, s, sizeof(s));
	fmt_bytes(avg, a, sizeof(a));
	json_t *fig = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "in_flight", n, "op_bytes", size,
	                        "mean_latency_us", mean_us, "bound_mib_s", bound, "bandwidth_mib_s",
	                        bw, "ratio", ratio);
	if (mean_in >= 0) {
		json_object_set_new(fig, "mean_in_flight", json_real(mean_in));
		json_object_set_new(fig, "occupancy", json_real(occ));
		json_object_set_new(fig, "ramp_drain_share", json_real(edge));
	}
	if (ratio >= CCB_EXPLAIN_LITTLE_NEAR && ratio <= CCB_EXPLAIN_LITTLE_OVER) {
		add(list, "littles-law", "info", fig,
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
		add(list, "littles-law", "info", fig,
		    "short run: %.1f of %.0f in flight on average (%.0f %%), as its ramp-up and "
		    "drain allow (%.0f ops, %.1f per slot, the slowest %.1f ms); not a stall: run "
		    "longer (--total, --duration) for the steady figure",
		    mean_in, n, occ * 100, ops, ops / n, max_us / 1e3);
	else if (occ >= 0 && occ < CCB_EXPLAIN_LITTLE_FAR &&
	         (secs * n - ops * mean_us / 1e6) / ops * 1e6 <= CCB_EXPLAIN_LITTLE_GAP_US)
		/* Each slot idled only microseconds between ops: not a stall,
		 * the client's own work per op (a page-cache read of 24 us
		 * with 24 us between ops is half in flight). */
		add(list, "littles-law", "warn", fig,
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
		add(list, "littles-law", "warn", fig,
		    "client stalled: %.1f of %.0f in flight on average (%.0f %%; ops × mean "
		    "latency ÷ "
		    "seconds), more than ramp-up and drain explain (%.0f %%): the client did not "
		    "keep "
		    "them in flight (CPU, a lock, a throttle%s); %.1f MiB/s is %.0f %% of the %.1f "
		    "MiB/s bound",
		    mean_in, n, occ * 100, edge * 100, thr, bw, ratio * 100, bound);
	} else if (avg < size * CCB_EXPLAIN_LITTLE_NEAR)
		add(list, "littles-law", "warn", fig,
		    "ops smaller than asked: %s on average for %s asked, so %.1f MiB/s is %.0f %% "
		    "of the %.1f MiB/s that %.0f in flight × %s ÷ %.3f ms allow",
		    a, s, bw, ratio * 100, bound, n, s, mean_us / 1e3);
	else
		add(list, "littles-law", "warn", fig,
		    "%.1f MiB/s is %.0f %% of the %.1f MiB/s that %.0f in flight × %s ÷ %.3f ms "
		    "allow: %.1f in flight on average (%.0f %%) with ops of %s for %s asked",
		    bw, ratio * 100, bound, n, s, mean_us / 1e3, mean_in, occ * 100, a, s);
}

json_t *ccb_explain_cpu_json(const struct ccb_explain_ctx *ctx)
{
	if (!ctx || !ctx->have_cpu)
		return NULL;
	return json_pack("{s:f, s:f, s:f, s:i}", "user_s", ctx->cpu_user_s, "sys_s", ctx->cpu_sys_s,
	                 "wall_s", ctx->wall_s, "online_cpus", ctx->online_cpus);
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

	if (!json_is_number(host) || cpus <= 0 || wall <= 0)
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
	/* A short run's ramp-up and drain explain the shortfall (littles-law). */
	const json_t *lat = json_object_get(r, "latency_us");
	double edge = (fmax(num(lat, "max"), num(lat, "mean")) + num(lat, "mean")) / 1e6 / secs;
	if (mean_in >= n * CCB_EXPLAIN_LITTLE_NEAR || 1 - mean_in / n <= edge) {
		/* The client kept its ops in flight, but with the OSDs on this
		 * host and its CPUs saturated, the OSDs ran on what the client
		 * left them (8 clients x 32 of 4M writes with zero-copy: ccbench
		 * 9 % of a 100 % busy 2-core host): the figure is this host's,
		 * not what a cluster on its own hardware would give. Worth a
		 * note, not a warning: nothing better can be had here. */
		if (local)
			add(list, "client-cpu", "info",
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
	add(list, "client-cpu", "warn",
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
		add(list, "client-cpu", "warn",
		    json_pack("{s:i, s:f, s:f}", "client", (int)best_client, "cpu_s", best, "share",
		              best / wall),
		    "client thread %zu used %.0f %% of one CPU: it submits and reaps every op of "
		    "its "
		    "client, so the figure measures this host (more --clients spread it)",
		    best_client, best / wall * 100);
	v = json_array_get(json_object_get(tc, "busiest"), 0);
	name = str(v, "name");
	if (name && num(v, "cpu_s") / wall >= CCB_EXPLAIN_THREAD_BUSY)
		add(list, "client-cpu", "warn",
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
		add(list, "client-cpu", distrust ? "distrust" : "warn",
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
	fmt_bytes(ra, a, sizeof(a));
	fmt_bytes(cache, b, sizeof(b));
	if (json_is_false(active)) {
		bool writearound = policy && strcmp(policy, "writearound") == 0;
		/* librbd's own default (512K under writearound) is worth a
		 * note; a --readahead the user asked for and lost, a warning. */
		bool asked =
		    json_is_integer(json_object_get(json_object_get(r, "parameters"), "readahead"));
		add(list, "readahead", asked ? "warn" : "info",
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
		add(list, "readahead", "warn",
		    json_pack("{s:f, s:f}", "readahead_bytes", ra, "cache_bytes", cache),
		    "readahead of %s at or above rbd_cache_size %s: sequential reads collapse (on "
		    "the test cluster 901 MiB/s at 8M, ~30 at 32M and more); keep it below the "
		    "cache",
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
		fmt_bytes(cache - dirty, c, sizeof(c));
		add(list, "readahead", "warn",
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
		add(list, "readahead", "info",
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
		fmt_bytes(after, c, sizeof(c));
		fmt_bytes(per_client, b, sizeof(b));
		add(list, "readahead", "warn",
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
		add(list, "readahead", "info",
		    json_pack("{s:f, s:f}", "read_ahead_kb", ra, "max_sectors_kb", maxs),
		    "read_ahead_kb %.0f above max_sectors_kb %.0f: each readahead goes out as "
		    "%.0f requests of at most %.0f KiB",
		    ra, maxs, ceil(ra / maxs), maxs);
	if (obj > 0 && ra * 1024 > obj)
		add(list, "readahead", "info",
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
		add(list, "readahead", "warn", fig,
		    "readahead %.0f KiB but requests averaged %.0f KiB (%.0f requests, device "
		    "stat): "
		    "the readahead did not reach the device as large as asked",
		    ra, avg_kb, reqs);
	else if (strcmp(mode, "rand") == 0 && served > 0 && dbytes > served * CCB_EXPLAIN_RA_WASTE)
		add(list, "readahead", "warn", fig,
		    "random reads with read_ahead_kb %.0f: the device read %.1f times what was "
		    "served (requests averaged %.0f KiB); the readahead is wasted here",
		    ra, dbytes / served, avg_kb);
	else
		json_decref(fig);
}

/* Seconds with no completion. The last second of the series is skipped
 * when the run ended less than half into it. */
static void stall(const json_t *r, json_t *list)
{
	const json_t *series = json_object_get(r, "series"), *s;
	double secs = num(r, "seconds");
	json_t *which = json_array();
	char buf[256] = "";
	size_t i, o = 0, n = json_array_size(series);

	json_array_foreach(series, i, s)
	{
		double t = num(s, "t");
		if (json_integer_value(json_object_get(s, "ops")) != 0)
			continue;
		if (i + 1 == n && secs - (t - 1) < 0.5)
			continue;
		json_array_append_new(which, json_integer((json_int_t)t));
		if (o < sizeof(buf) - 16)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%.0f", o ? "," : "", t);
		else if (!strstr(buf, "..."))
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, ",...");
	}
	/* What the engine's stall check found while it waited (the progress
	 * line's "no completion for N s: osd.1 down"). */
	char found[320] = "";
	const json_t *d;
	size_t j, fo = 0, k = json_array_size(which);
	json_array_foreach(json_object_get(r, "stall_diagnosis"), j, d)
	{
		if (!str(d, "why") || fo >= sizeof(found) - 8)
			continue;
		fo += (size_t)snprintf(found + fo, sizeof(found) - fo,
		                       "%s%s (no completion from "
		                       "%.1f s into the run)",
		                       fo ? "; " : "", str(d, "why"), num(d, "since_s"));
	}
	if (!k && !found[0]) {
		json_decref(which);
		return;
	}
	json_t *fig = json_pack("{s:o, s:I}", "seconds", which, "count", (json_int_t)k);
	if (found[0] && !k) {
		json_object_set(fig, "diagnosis", json_object_get(r, "stall_diagnosis"));
		add(list, "stall", "warn", fig, "the I/O stopped: %s", found);
	} else if (found[0]) {
		json_object_set(fig, "diagnosis", json_object_get(r, "stall_diagnosis"));
		add(list, "stall", "warn", fig, "%zu second%s of %zu with no completion (t=%s): %s",
		    k, k == 1 ? "" : "s", n, buf, found);
	} else {
		add(list, "stall", "warn", fig,
		    "%zu second%s of %zu with no completion (t=%s): something stopped the I/O", k,
		    k == 1 ? "" : "s", n, buf);
	}
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
	add(list, "variance", cov > CCB_EXPLAIN_COV_WARN ? "warn" : "info",
	    json_pack("{s:f, s:f, s:f}", "mean_mib_s", mean, "stddev_mib_s", sd, "cov", cov),
	    "per-second bandwidth varies by %.0f %% (stddev %.1f of mean %.1f MiB/s): one figure "
	    "hides it; look at the series or run longer",
	    cov * 100, sd, mean);
}

static void simulated(const json_t *r, json_t *list)
{
	const json_t *v = json_object_get(json_object_get(r, "layout"), "simulated_osd_latency_us");
	char d[32];

	if (!json_is_number(v) || json_number_value(v) <= 0)
		return;
	ccb_format_duration((uint64_t)json_number_value(v), d, sizeof(d));
	add(list, "simulated", "info", json_pack("{s:f}", "osd_latency_us", json_number_value(v)),
	    "simulated %s OSD latency (--sim-osd-latency): real OSD latency differs", d);
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
		fmt_bytes(read, a, sizeof(a));
		/* Messenger bytes are never round: "15.7M", not "16479393". */
		if (librbd && fmod(read, 1024) != 0)
			snprintf(a, sizeof(a), "%.1fM", read / 1048576);
		fmt_bytes(served, b, sizeof(b));
		add(list, "cache", share >= CCB_EXPLAIN_CACHE_DISTRUST ? "distrust" : "warn",
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
			add(list, "cache", "distrust", NULL,
			    "part of this read came from a cache: %s", t);
			return;
		}
	}
}

/* "osd.1, osd.2" of @p names (a JSON array), at most a few. */
static void names(const json_t *a, char *buf, size_t len)
{
	const json_t *v;
	size_t i, o = 0;

	buf[0] = '\0';
	json_array_foreach(a, i, v)
	{
		if (i == 4) {
			snprintf(buf + o, len - o, " and %zu more", json_array_size(a) - 4);
			break;
		}
		int n = snprintf(buf + o, len - o, "%s%s", i ? ", " : "", json_string_value(v));
		if (n < 0 || (size_t)n >= len - o)
			break;
		o += (size_t)n;
	}
}

/* In @p a (a JSON array of strings), @p s. */
static bool has_name(const json_t *a, const char *s)
{
	const json_t *v;
	size_t i;

	json_array_foreach(a, i, v) if (s && strcmp(json_string_value(v), s) == 0) return true;
	return false;
}

/* "12 degraded, 3 recovering" of the PG counts of @p st; empty for none. */
static void pg_trouble(const json_t *st, char *buf, size_t len)
{
	static const char *const keys[][2] = {{"pgs_inactive", "inactive"},
	                                      {"pgs_degraded", "degraded"},
	                                      {"pgs_recovering", "recovering"},
	                                      {"pgs_backfilling", "backfilling"}};
	size_t o = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		json_int_t n = json_integer_value(json_object_get(st, keys[k][0]));
		if (n > 0 && o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%lld %s", o ? ", " : "",
			                      (long long)n, keys[k][1]);
	}
}

/* The health checks of @p st, "NAME (message); ...". */
static void checks_text(const json_t *st, char *buf, size_t len)
{
	const char *key;
	const json_t *v;
	size_t o = 0;

	buf[0] = '\0';
	json_object_foreach((json_t *)json_object_get(st, "checks"), key, v)
	{
		int n = snprintf(buf + o, len - o, "%s%s (%s)", o ? "; " : "", key,
		                 json_string_value(v) ? json_string_value(v) : "");
		if (n < 0 || (size_t)n >= len - o)
			break;
		o += (size_t)n;
	}
}

/*
 * What the cluster said at the start and end (cluster_state, read-only
 * mon commands). A capacity check on a cluster that is repairing itself
 * (degraded, recovering, backfilling PGs, an OSD down) measures the
 * repair too: warn; an OSD that went down during the run moved the
 * figure under it: distrust. A full or nearfull flag: warn. Scrubs read
 * beside the run: info. Other health checks (a pool without redundancy,
 * clock skew): info, named.
 */
static void cluster(const json_t *r, json_t *list)
{
	const json_t *cs = json_object_get(r, "cluster_state"), *v;
	const json_t *st = json_object_get(cs, "start"), *en = json_object_get(cs, "end");
	char a[160], b[160], c[400];
	size_t i;

	if (!json_is_object(cs))
		return;
	if (str(st, "error") || str(en, "error")) {
		add(list, "cluster", "info", NULL,
		    "the cluster state could not be read at the %s: %s",
		    str(st, "error") ? "start" : "end",
		    str_or(st, "error", str_or(en, "error", "")));
		if (str(st, "error") && str(en, "error"))
			return;
	}
	/* OSDs down during the run: at the end and not at the start. */
	json_t *went = json_array(), *back = json_array();
	json_array_foreach(json_object_get(en, "osds_down"), i,
	                   v) if (json_is_object(st) && !str(st, "error") &&
	                          !has_name(json_object_get(st, "osds_down"), json_string_value(v)))
	    json_array_append(went, (json_t *)v);
	json_array_foreach(json_object_get(st, "osds_down"), i,
	                   v) if (json_is_object(en) && !str(en, "error") &&
	                          !has_name(json_object_get(en, "osds_down"), json_string_value(v)))
	    json_array_append(back, (json_t *)v);
	if (json_array_size(went)) {
		names(went, a, sizeof(a));
		add(list, "cluster", "distrust", json_pack("{s:O}", "went_down", went),
		    "%s went down during the run (%lld of %lld OSDs up at the end): the figure "
		    "mixes a healthy cluster and a failover",
		    a, (long long)json_integer_value(json_object_get(en, "osds_up")),
		    (long long)json_integer_value(json_object_get(en, "osds")));
	}
	if (json_array_size(back)) {
		names(back, a, sizeof(a));
		add(list, "cluster", "warn", json_pack("{s:O}", "came_up", back),
		    "%s came back up during the run: the figure mixes a degraded and a recovering "
		    "cluster",
		    a);
	}
	json_decref(went);
	json_decref(back);
	for (int k = 0; k < 2; k++) {
		const json_t *s = k == 0 ? st : en;
		const char *when = k == 0 ? "start" : "end";

		if (!json_is_object(s) || str(s, "error"))
			continue;
		/* An OSD down at the start (and still at the end: the same
		 * names say it once). */
		if (k == 0 && json_array_size(json_object_get(s, "osds_down"))) {
			names(json_object_get(s, "osds_down"), a, sizeof(a));
			add(list, "cluster", "warn",
			    json_pack("{s:O}", "osds_down", json_object_get(s, "osds_down")),
			    "%s down at the start (%lld of %lld OSDs up): a capacity check on a "
			    "degraded cluster measures it degraded",
			    a, (long long)json_integer_value(json_object_get(s, "osds_up")),
			    (long long)json_integer_value(json_object_get(s, "osds")));
		}
		pg_trouble(s, b, sizeof(b));
		if (b[0] && (k == 0 || (pg_trouble(st, c, sizeof(c)), strcmp(b, c) != 0)))
			add(list, "cluster", "warn", NULL,
			    "PGs at the %s: %s of %lld: a capacity check during recovery measures "
			    "a cluster busy repairing itself, not its capacity",
			    when, b, (long long)json_integer_value(json_object_get(s, "pgs")));
		if (json_is_true(json_object_get(s, "full")) ||
		    json_is_true(json_object_get(s, "nearfull")))
			add(list, "cluster", "warn", NULL,
			    "the cluster was %s at the %s: writes slow down or stop",
			    json_is_true(json_object_get(s, "full")) ? "full" : "nearfull", when);
		if (json_integer_value(json_object_get(s, "pgs_scrubbing")) > 0)
			add(list, "cluster", "info", NULL,
			    "%lld PGs scrubbing at the %s: scrubs read the OSDs beside the run",
			    (long long)json_integer_value(json_object_get(s, "pgs_scrubbing")),
			    when);
	}
	/* The health checks, once: at the start, and those new at the end. */
	if (json_is_object(st) && !str(st, "error") &&
	    json_object_size(json_object_get(st, "checks"))) {
		checks_text(st, c, sizeof(c));
		add(list, "cluster", "info", NULL, "%s at the start: %s", str_or(st, "health", "?"),
		    c);
	}
	if (json_is_object(en) && !str(en, "error")) {
		json_t *fresh = json_object();
		const char *key;
		json_object_foreach((json_t *)json_object_get(en, "checks"), key,
		                    v) if (!json_object_get(json_object_get(st, "checks"), key))
		    json_object_set(fresh, key, (json_t *)v);
		if (json_object_size(fresh)) {
			json_t *tmp = json_pack("{s:O}", "checks", fresh);
			checks_text(tmp, c, sizeof(c));
			json_decref(tmp);
			add(list, "cluster", "info", NULL, "%s at the end, new during the run: %s",
			    str_or(en, "health", "?"), c);
		}
		json_decref(fresh);
	}
}

/*
 * How this host reaches the cluster (network, resolved at the start):
 * over loopback there is no link to saturate, and the client shares the
 * CPU with the OSDs; over a link that reports its speed, the share of it
 * the run used (warn above CCB_EXPLAIN_LINK_WARN).
 */
static void network(const json_t *r, json_t *list)
{
	const json_t *net = json_object_get(r, "network"), *p, *fast = NULL;
	double bw = num(r, "bandwidth_mib_s");
	size_t i, loop = 0, n = json_array_size(net);

	json_array_foreach(net, i, p)
	{
		if (json_is_true(json_object_get(p, "loopback")))
			loop++;
		else if (num(p, "speed_mbps") > 0 &&
		         (!fast || num(p, "speed_mbps") < num(fast, "speed_mbps")))
			fast = p; /* the slowest link is the limit */
	}
	if (!n)
		return;
	if (loop == n) {
		add(list, "network", "info", json_pack("{s:b}", "loopback", 1),
		    "mons and OSDs on this host (loopback): no link limits the run, and the client "
		    "shares this host's CPU with the OSDs");
		return;
	}
	if (fast) {
		double link = num(fast, "speed_mbps") * 1e6 / 8 / 1048576, share = bw / link;
		add(list, "network", share > CCB_EXPLAIN_LINK_WARN ? "warn" : "info",
		    json_pack("{s:s, s:f, s:f, s:f}", "interface", str_or(fast, "interface", "?"),
		              "speed_mbps", num(fast, "speed_mbps"), "link_mib_s", link, "share",
		              share),
		    "link %s %.0f Mb/s = %.0f MiB/s; this run used %.0f %% of it%s",
		    str_or(fast, "interface", "?"), num(fast, "speed_mbps"), link, share * 100,
		    share > CCB_EXPLAIN_LINK_WARN ? ": the network may be the limit" : "");
	}
}

json_t *ccb_explain(const json_t *result, const struct ccb_explain_ctx *ctx)
{
	json_t *list = json_array();

	if (!list || !json_is_object(result))
		return list;
	littles_law(result, list);
	client_cpu(result, ctx, list);
	readahead(result, list);
	krbd_readahead(result, list);
	cache(result, list);
	stall(result, list);
	cluster(result, list);
	network(result, list);
	variance(result, list);
	simulated(result, list);
	return list;
}

/*
 * A group's aggregate: what its members said (a distrusted member is in
 * the sum), how equal they were, how far apart they started against the
 * window in which all ran, who never reported, who shared a host.
 */
json_t *ccb_explain_group(const json_t *report)
{
	const json_t *members = json_object_get(report, "members"), *m, *e;
	const json_t *agg = json_object_get(report, "aggregate");
	json_t *list = json_array(), *hosts = json_object(), *kinds = json_object();
	size_t i, k, warned = 0, done = 0;
	double slow = INFINITY, fast = -INFINITY;
	const char *slow_m = NULL, *fast_m = NULL, *key;
	char buf[256];

	if (!list || !hosts || !kinds) {
		json_decref(hosts);
		json_decref(kinds);
		return list;
	}
	json_array_foreach(members, i, m)
	{
		const json_t *res = json_object_get(m, "result"), *h;
		const char *name = str_or(m, "member", "?"), *host = str(m, "host");
		bool distrust = false, warn = false;

		if (!json_is_object(res))
			continue;
		done++;
		json_array_foreach(json_object_get(res, "explain"), k, e)
		{
			const char *sev = str_or(e, "severity", "");
			if (strcmp(sev, "distrust") == 0 && !distrust) {
				distrust = true;
				add(list, "group", "distrust",
				    json_pack("{s:s, s:s?}", "member", name, "kind",
				              str(e, "kind")),
				    "member %s: %s; the aggregate includes it", name,
				    str_or(e, "text", ""));
			}
			if (strcmp(sev, "warn") == 0) {
				warn = true;
				json_object_set_new(kinds, str_or(e, "kind", "?"), json_true());
			}
		}
		warned += warn && !distrust;
		if (json_is_number(json_object_get(m, "window_bandwidth_mib_s"))) {
			double bw = num(m, "window_bandwidth_mib_s");
			if (bw < slow)
				slow = bw, slow_m = name;
			if (bw > fast)
				fast = bw, fast_m = name;
		}
		if (host && *host) {
			h = json_object_get(hosts, host);
			if (!h) {
				json_object_set_new(hosts, host, json_array());
				h = json_object_get(hosts, host);
			}
			json_array_append_new((json_t *)h, json_string(name));
		}
	}
	if (warned) {
		size_t o = 0;
		buf[0] = '\0';
		json_object_foreach(kinds, key, e) if (o < sizeof(buf)) o +=
		    (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s", o ? ", " : "", key);
		add(list, "group", "warn", json_pack("{s:I}", "members_warned", (json_int_t)warned),
		    "%zu of %zu members warned (%s): see the members' why lines", warned, done,
		    buf);
	}
	const json_t *jain = json_object_get(agg, "jain_index");
	if (json_is_number(jain) && done > 1 && json_number_value(jain) < CCB_EXPLAIN_GROUP_JAIN &&
	    slow_m && fast_m)
		add(list, "group", "warn",
		    json_pack("{s:f, s:f, s:f}", "jain_index", json_number_value(jain),
		              "slowest_mib_s", slow, "fastest_mib_s", fast),
		    "members unequal: Jain's index %.2f; %s %.1f MiB/s against %s %.1f in the "
		    "window: the sum hides the slow one",
		    json_number_value(jain), slow_m, slow, fast_m, fast);
	double skew = num(report, "start_skew_ms"),
	       win = num(json_object_get(report, "window"), "seconds");
	if (win > 0 && skew / 1e3 > CCB_EXPLAIN_GROUP_SKEW * win)
		add(list, "group", "warn",
		    json_pack("{s:f, s:f}", "start_skew_ms", skew, "window_s", win),
		    "members started %.0f ms apart, %.0f %% of the %.2f s in which all ran: the "
		    "window is short of what each measured",
		    skew, skew / 1e3 / win * 100, win);
	size_t missing = json_array_size(json_object_get(report, "missing"));
	if (missing)
		add(list, "group", "warn", json_pack("{s:I}", "missing", (json_int_t)missing),
		    "%zu member%s never reported: the aggregate is of %zu of %lld", missing,
		    missing == 1 ? "" : "s", done,
		    (long long)json_integer_value(json_object_get(report, "members_expected")));
	json_object_foreach(hosts, key, e)
	{
		if (json_array_size(e) < 2)
			continue;
		names(e, buf, sizeof(buf));
		add(list, "group", "info", json_pack("{s:s, s:O}", "host", key, "members", e),
		    "members %s ran on one host (%s): they share its CPU and its link", buf, key);
	}
	json_decref(hosts);
	json_decref(kinds);
	return list;
}

json_t *ccb_explain_group_rederive(const json_t *report)
{
	json_t *copy = json_deep_copy(report), *out = json_array(), *m, *ex;
	size_t i;

	if (!copy || !out)
		goto fail;
	/* Each member's list from its figures, as for a single result; the
	 * aggregate's from those lists, on the copy, so a report saved
	 * before a kind existed (or without any lists) gets them all. */
	json_array_foreach(json_object_get(copy, "members"), i, m)
	{
		json_t *res = json_object_get(m, "result");
		char point[256];

		if (!json_is_object(res))
			continue;
		ex = ccb_explain(res, NULL);
		if (!ex || json_object_set(res, "explain", ex) < 0)
			goto fail_ex;
		snprintf(point, sizeof(point), "member %s", str_or(m, "member", "?"));
		if (json_array_append_new(
		        out, json_pack("{s:s, s:o}", "point", point, "explain", ex)) < 0)
			goto fail;
	}
	ex = ccb_explain_group(copy);
	if (!ex || json_array_append_new(
	               out, json_pack("{s:s, s:o}", "point", "aggregate", "explain", ex)) < 0)
		goto fail;
	json_decref(copy);
	return out;
fail_ex:
	json_decref(ex);
fail:
	json_decref(copy);
	json_decref(out);
	return NULL;
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
		int n = snprintf(buf + o, len - o, "%s%s:%s", i ? ";" : "", str_or(e, "kind", "?"),
		                 str_or(e, "severity", "?"));
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
		fprintf(out, "%-18s %s%s\n", "why",
		        strcmp(sev, "distrust") == 0 ? "DISTRUST: "
		        : strcmp(sev, "warn") == 0   ? "warning: "
		                                     : "",
		        str_or(e, "text", ""));
	}
}
