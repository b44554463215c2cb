/*
 * A run's counters so far, summed over its clients: what the progress line
 * prints and the engine's supervisor watches for a stall. Its own file,
 * below both engine.c and progress.c, so the progress line reads the
 * counters without calling up into the engine that drives it.
 */
#include <ccbench/engine.h>

#include <string.h>

void ccb_run_totals(const struct ccb_run *run, struct ccb_run_totals *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned i = 0; i < run->n_clients; i++) {
		struct ccb_client *cl = &run->clients[i];

		t->bytes += atomic_load_explicit(&cl->bytes_done, memory_order_relaxed);
		t->ops += atomic_load_explicit(&cl->ops_done, memory_order_relaxed);
		t->lat_sum_nsec += atomic_load_explicit(&cl->lat_sum_nsec, memory_order_relaxed);
		t->in_flight += atomic_load_explicit(&cl->in_flight_now, memory_order_relaxed);
	}
}
