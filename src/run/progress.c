/*
 * Progress on stderr. stdout carries the result alone, so a JSON reader
 * never sees a status line (rados bench mixed them for a decade).
 */
#include "progress.h"

#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

void ccb_progress_init(struct ccb_progress *p, bool quiet)
{
	*p = (struct ccb_progress){0};
	p->enabled = !quiet;
	p->tty = isatty(STDERR_FILENO);
}

void ccb_progress_tick(struct ccb_progress *p, struct ccb_run *run, uint64_t now_nsec)
{
	struct ccb_run_totals t;
	uint64_t bytes, ops, lat, in_flight;
	uint64_t since;
	double elapsed, dt, now_mib, avg_mib, lat_ms;

	if (!p->enabled)
		return;
	if (!p->last_nsec) {
		p->last_nsec = run->start_nsec;
	}
	if (now_nsec - p->last_nsec < 1000000000ull)
		return;
	ccb_run_totals(run, &t);
	bytes = t.bytes;
	ops = t.ops;
	lat = t.lat_sum_nsec;
	in_flight = t.in_flight;
	elapsed = (double)(now_nsec - run->start_nsec) / 1e9;
	dt = (double)(now_nsec - p->last_nsec) / 1e9;
	now_mib = (double)(bytes - p->last_bytes) / 1048576.0 / dt;
	avg_mib = elapsed > 0 ? (double)bytes / 1048576.0 / elapsed : 0;
	lat_ms = ops > p->last_ops
	             ? (double)(lat - p->last_lat_nsec) / 1e6 / (double)(ops - p->last_ops)
	             : 0;
	if (p->tty ? p->lines == 0 : p->lines % 20 == 0)
		fprintf(stderr, "%8s %9s %10s %10s %10s %10s\n", "sec", "in-flight", "completed",
		        "MiB/s", "avg MiB/s", "lat ms");
	fprintf(stderr, "%s%8.0f %9llu %10llu %10.1f %10.1f %10.3f", p->tty ? "\r" : "", elapsed,
	        (unsigned long long)in_flight, (unsigned long long)ops, now_mib, avg_mib, lat_ms);
	/* A 0 MiB/s line says why, as far as the engine knows. */
	since = atomic_load(&run->stalled_since_nsec);
	if (since && now_nsec - since >= 2000000000ull) {
		char why[sizeof(run->stall_why)];

		pthread_mutex_lock(&run->reason_lock);
		snprintf(why, sizeof(why), "%s", run->stall_why);
		pthread_mutex_unlock(&run->reason_lock);
		fprintf(stderr, "  no completion for %.0f s%s%s", (double)(now_nsec - since) / 1e9,
		        why[0] ? ": " : "", why);
		p->stall_shown = true;
	} else if (run->steady) {
		/* --until-steady: where the detector is (fed on this thread). */
		const struct ccb_steady *d = run->steady;

		if (!d->ramp_over)
			fprintf(stderr, "  until steady: ramp");
		else if (d->have_band)
			fprintf(stderr, "  until steady: last %zu s within %.0f %%", d->window_n,
			        d->spec.slope ? d->band.trend_pct : d->band.max_deviation_pct);
		else
			fprintf(stderr, "  until steady: %zu of %zu s", d->n, d->window_n);
		if (p->tty)
			fprintf(stderr, "\033[K"); /* and erase what a longer note left */
		p->stall_shown = false;
	} else if (p->tty && p->stall_shown) {
		fprintf(stderr, "\033[K"); /* erase the old note */
		p->stall_shown = false;
	}
	fputs(p->tty ? " " : "\n", stderr);
	fflush(stderr);
	p->lines++;
	p->last_nsec = now_nsec;
	p->last_bytes = bytes;
	p->last_ops = ops;
	p->last_lat_nsec = lat;
}

void ccb_progress_done(struct ccb_progress *p)
{
	if (p->enabled && p->tty && p->lines)
		fputc('\n', stderr);
}
