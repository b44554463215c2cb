/*
 * The latency probe: reads at queue depth 1 of an object that does not
 * exist, on a fresh connection, so that the OSD-side injection (which
 * applies to connections made after it was set) and the client-side one
 * (a setting of the probe's own handle) are measured alike. Each read is
 * a whole round trip to the object's primary OSD (it looks the object up
 * and answers ENOENT), and nothing is written: there is nothing to remove,
 * even after a SIGKILL, and a pool ccbench may only read is fine.
 */
#include <ccbench/clock.h>
#include <ccbench/cluster.h>
#include <ccbench/engine.h>
#include <ccbench/latency_probe.h>
#include <ccbench/osd_inject.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rados/librados.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static json_t *failed(const char *call, const char *what, int r, uint64_t client_usec)
{
	char msg[600];

	snprintf(msg, sizeof(msg), "%s(%s): %s", call, what, strerror(-r));
	return json_pack("{s:s, s:I, s:I}", "error", msg, "client_us", (json_int_t)client_usec,
	                 "osd_us", (json_int_t)ccb_osd_inject_usec());
}

json_t *ccb_latency_probe(const struct ccb_opts *o, uint64_t client_usec)
{
	const char *pool = o->pool ? o->pool : "rbd";
	char err[512], buf[4096], oid[64];
	uint64_t lat[CCB_PROBE_MAX_OPS], t0, sum = 0;
	size_t n = 0;
	rados_t cl;
	rados_ioctx_t io;
	json_t *res = NULL;
	int r;

	r = ccb_cluster_configure(o, &cl, err, sizeof(err));
	if (r < 0)
		return json_pack("{s:s}", "error", err);
	if (client_usec && (r = ccb_cluster_set_sim_latency(cl, client_usec, err, sizeof(err))) < 0)
		goto fail_msg;
	r = ccb_cluster_connect_handle(cl, o, err, sizeof(err));
	if (r < 0)
		goto fail_msg;
	r = rados_ioctx_create(cl, pool, &io);
	if (r < 0) {
		res = failed("rados_ioctx_create", pool, r, client_usec);
		goto out;
	}
	rados_ioctx_set_namespace(io, o->rados_namespace ? o->rados_namespace : "");
	/* A name no run of ccbench writes; should it exist, its read is timed all the same. */
	snprintf(oid, sizeof(oid), "ccbench-latency-probe.%ld", (long)getpid());
	t0 = ccb_now_nsec();
	while (n < CCB_PROBE_MAX_OPS && !ccb_signal_pending) {
		uint64_t s = ccb_now_nsec(), el = (s - t0) / 1000;

		if ((n >= CCB_PROBE_MIN_OPS && el >= CCB_PROBE_USEC) || el >= CCB_PROBE_MAX_USEC)
			break;
		r = rados_read(io, oid, buf, sizeof(buf), 0);
		if (r < 0 && r != -ENOENT) {
			res = failed("rados_read", oid, r, client_usec);
			break;
		}
		lat[n] = (ccb_now_nsec() - s) / 1000;
		sum += lat[n++];
	}
	rados_ioctx_destroy(io);
	if (res)
		goto out;
	if (!n) {
		res = json_pack("{s:s, s:I, s:I}", "error", "interrupted before the first read",
		                "client_us", (json_int_t)client_usec, "osd_us",
		                (json_int_t)ccb_osd_inject_usec());
		goto out;
	}
	qsort(lat, n, sizeof(lat[0]), cmp_u64);
	res = json_pack("{s:s, s:I, s:I, s:f, s:I, s:I, s:I, s:I, s:s}", "op", "read (ENOENT)",
	                "ops", (json_int_t)n, "min_us", (json_int_t)lat[0], "mean_us",
	                (double)sum / (double)n, "p50_us", (json_int_t)lat[n / 2], "max_us",
	                (json_int_t)lat[n - 1], "client_us", (json_int_t)client_usec, "osd_us",
	                (json_int_t)ccb_osd_inject_usec(), "pool", pool);
	goto out;
fail_msg:
	res = json_pack("{s:s}", "error", err);
out:
	rados_shutdown(cl);
	return res;
}
