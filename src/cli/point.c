/*
 * One point: the same sequence for a plain command, each point of a sweep
 * and each member of a group, so they cannot drift apart.
 */
#include <ccbench/explain.h>
#include <ccbench/fault.h>
#include <ccbench/latency_probe.h>
#include <ccbench/osd_inject.h>
#include <ccbench/path.h>
#include <ccbench/registry.h>
#include <ccbench/point.h>
#include <ccbench/result.h>
#include <ccbench/undo.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * What emulates this machine's CPU: a qemu machine (its DMI vendor) with
 * no KVM clock is qemu's TCG, which translates every instruction (the
 * krbd-vm guest); a figure measured there is the emulator's once its CPU
 * is busy (explain's client-cpu). NULL: real hardware, or hardware
 * virtualization.
 */
static const char *emulated_cpu(void)
{
	char vendor[64] = "", clocks[256] = "";
	FILE *f = fopen("/sys/class/dmi/id/sys_vendor", "r");

	if (f) {
		if (!fgets(vendor, sizeof(vendor), f))
			vendor[0] = '\0';
		fclose(f);
	}
	if (strncmp(vendor, "QEMU", 4) != 0)
		return NULL;
	f = fopen("/sys/devices/system/clocksource/clocksource0/available_clocksource", "r");
	if (f) {
		if (!fgets(clocks, sizeof(clocks), f))
			clocks[0] = '\0';
		fclose(f);
	}
	return strstr(clocks, "kvm-clock") ? NULL : "qemu-tcg";
}

/*
 * The result's "client_cpu" and "explain". The CPU is the whole process's
 * (client threads and the library's) over ccb_run_execute(), so set-up
 * (prefill, connecting) does not count; stored so a saved result
 * re-derives the same explain list. --explain=off leaves both out.
 */
static int add_explain(json_t *result, const struct ccb_opts *o, const struct rusage *ru0,
                       const struct rusage *ru1, double wall_s)
{
	struct ccb_explain_ctx ctx = {
	    .have_cpu = wall_s > 0,
	    .cpu_user_s = tv_s(ru1->ru_utime) - tv_s(ru0->ru_utime),
	    .cpu_sys_s = tv_s(ru1->ru_stime) - tv_s(ru0->ru_stime),
	    .wall_s = wall_s,
	    .online_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN),
	    .emulated = emulated_cpu(),
	};
	json_t *cpu, *ex;

	if (o->explain && strcmp(o->explain, "off") == 0)
		return 0;
	cpu = ccb_explain_cpu_json(&ctx);
	if (cpu && json_object_set_new(result, "client_cpu", cpu) < 0)
		return -ENOMEM;
	ex = ccb_explain(result, &ctx);
	if (!ex || json_object_set_new(result, "explain", ex) < 0)
		return -ENOMEM;
	return 0;
}

int ccb_point_run(const struct ccb_point *pt, json_t **result)
{
	const struct ccb_opts *o = pt->opts;
	struct ccb_run run = {0};
	struct ccb_opts scratch;
	char setup_buf[300];
	int mark = ccb_undo_mark();
	int r, status = 1;
	struct rusage ru0, ru1;
	double t0, wall_s;
	json_t *probe = NULL;
	struct ccb_fault_point *fault = NULL;

	*result = NULL;
	run.opts = o;
	run.ops = ccb_path_for(pt->ops    ? pt->ops
	                       : pt->path ? ccb_path_find(pt->path, pt->mode)
	                                  : NULL,
	                       o);
	if (!run.ops) {
		fprintf(stderr, "ccbench: %s: no such path '%s' in this build\n", pt->command,
		        pt->path ? pt->path : "");
		return 2;
	}
	run.command = pt->command;
	run.mode = pt->mode;
	run.is_write = pt->mode == CCB_MODE_WRITE || pt->mode == CCB_MODE_RANDWRITE;
	run.no_space = pt->no_space;
	run.n_clients = (unsigned)o->clients;
	run.queue_depth = ccb_path_queue_depth(run.ops, o);
	run.op_bytes = o->op_size_bytes;
	run.before_start = pt->before_start;
	run.before_start_arg = pt->before_start_arg;
	run.on_tick = pt->on_tick;
	run.on_tick_arg = pt->on_tick_arg;
	/* --total and --duration together: whichever comes first, so that a
	 * run is bounded by bytes on a fast machine and by time on a slow one. */
	if (ccb_opt_given(o, "total"))
		run.total_bytes = o->total_bytes;
	if (ccb_opt_given(o, "duration") ||
	    (!ccb_opt_given(o, "total") && !(run.ops->flags & CCB_PATH_ONE_PASS)))
		run.duration_usec = o->duration_usec;
	/* Until steady, with nothing else to end it: not the 10 s default, which
	 * a ramp and a window may need most of, but at most a minute. */
	if (o->until_steady.on && !ccb_opt_given(o, "duration") && !ccb_opt_given(o, "total") &&
	    !(run.ops->flags & CCB_PATH_ONE_PASS))
		run.duration_usec = CCB_STEADY_MAX_USEC;
	/* else: one pass (rbd and krbd over the image or device, fs one file
	 * per client, like dd); the path ends it with CCB_SUBMIT_END. */
	atomic_init(&run.stop, CCB_STOP_NONE);

	/* --fault: the schedule's OSDs checked against the map before
	 * anything is made or changed (fault.h). */
	if (o->faults.n) {
		char err[1024];

		r = ccb_fault_point_begin(o, &run, &fault, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "ccbench: %s: %s\n", pt->command, err);
			status = r == -EINVAL         ? 2
			         : ccb_signal_pending ? 128 + ccb_signal_pending
			                              : 1;
			goto out;
		}
	}
	/* OSD-side latency, before anything connects: it applies to the
	 * connections made after it (a sweep sets it once, for all points). */
	if (o->osd_latency_usec && !ccb_osd_inject_active()) {
		char err[1024];

		r = ccb_osd_inject_start(o, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "ccbench: %s: %s\n", pt->command, err);
			status = r == -EPERM || r == -EACCES ? 2
			         : ccb_signal_pending        ? 128 + ccb_signal_pending
			                                     : 1;
			goto out;
		}
		probe = ccb_latency_probe(o, o->sim_osd_latency_usec);
	}

	/* What the path makes before prepare (krbd: a temporary image). */
	if (run.ops->setup) {
		r = run.ops->setup(&run, &scratch, setup_buf, sizeof(setup_buf));
		if (r < 0) {
			status = ccb_signal_pending ? 128 + ccb_signal_pending : 1;
			goto out;
		}
		o = run.opts;
	}
	r = run.ops->prepare(&run);
	if (r < 0) {
		status = run.bad_input ? 2 : ccb_signal_pending ? 128 + ccb_signal_pending : 1;
		goto out;
	}
	getrusage(RUSAGE_SELF, &ru0);
	t0 = mono_s();
	r = ccb_run_execute(&run);
	wall_s = mono_s() - t0;
	getrusage(RUSAGE_SELF, &ru1);
	if (r < 0) {
		if (r != -ECANCELED)
			fprintf(stderr, "ccbench: %s: could not start the clients: %s\n",
			        run.command, strerror(-r));
		status = ccb_signal_pending ? 128 + ccb_signal_pending : 1;
		goto out;
	}
	if (pt->after_run)
		pt->after_run(&run, pt->after_run_arg);
	if (run.ops->finish)
		run.ops->finish(&run);
	*result = ccb_result_build(&run, pt->cmd_mask, pt->argc, pt->argv);
	ccb_fault_point_result(fault, &run, *result);
	/* Which side the latency was on, and whether the OSDs kept theirs. */
	ccb_osd_inject_annotate(*result, o->sim_osd_latency_usec,
	                        ccb_osd_inject_active() ? ccb_osd_inject_check() : NULL);
	if (*result && probe)
		json_object_set(json_object_get(*result, "latency_injection"), "probe", probe);
	if (*result && add_explain(*result, o, &ru0, &ru1, wall_s) < 0) {
		json_decref(*result);
		*result = NULL;
	}
	if (!*result)
		status = 1;
	else if (atomic_load(&run.stop) == CCB_STOP_SIGNAL)
		status = 128 + run.signal;
	else
		status = strcmp(ccb_result_status(&run), "ok") == 0 ? 0 : 1;
	if (status == 1 && run.reason[0])
		fprintf(stderr, "ccbench: %s: %s\n", run.command, run.reason);
out:
	/* The undo log runs whatever happened: objects, images, settings,
	 * connections; entries older than this point (a sweep's) stay. */
	ccb_undo_unwind_to(mark);
	ccb_fault_point_end(fault, *result);
	ccb_run_free(&run);
	json_decref(probe);
	return status;
}
