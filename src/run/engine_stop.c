/*
 * How a run stops, below the engine and everything it calls: the first
 * reason, which sticks (ccb_run_stop), the warnings said on the way
 * (ccb_run_warn), and the terminating signals that stop it (ccb_signal_pending,
 * ccb_signals_install). Called from client threads, library threads, the
 * supervisor and the paths alike; declared in engine.h.
 */
#include <ccbench/engine.h>
#include <ccbench/undo.h>

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

volatile sig_atomic_t ccb_signal_pending;

/* Terminating signals so far, the one that stopped the run included. */
static volatile sig_atomic_t n_signals;

/*
 * The first signal stops the run and sticks (its number gives the exit
 * status, 128 + N). SIGPIPE is a reader that went away (`ccbench | head`,
 * a closed stderr): it stops the run like the others, but never counts
 * as a repeat -- the unwind's own messages may raise it again. Further
 * SIGINT/SIGTERM/SIGHUP go to the undo log: the 2nd says what is still
 * being undone, the 3rd gives up (see ccb_undo_on_signal).
 */
static void on_signal(int signo)
{
	if (!ccb_signal_pending) {
		ccb_signal_pending = signo;
		n_signals = 1;
		return;
	}
	if (signo == SIGPIPE)
		return;
	n_signals++;
	ccb_undo_on_signal(n_signals, ccb_signal_pending);
}

void ccb_signals_install(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* No signal interrupts the handler: the count and the texts stay whole. */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	/* SIGPIPE is caught, not ignored: the failing write still returns
	 * EPIPE, the run learns of it, and the programs ccbench starts (rbd,
	 * rbd-fuse) get the default disposition back at exec, as an ignored
	 * signal would not. */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

void ccb_run_stop(struct ccb_run *run, enum ccb_stop why, int err, const char *fmt, ...)
{
	int expected = CCB_STOP_NONE;
	va_list ap;

	/* The first reason sticks, except that an op failing while the run
	 * drains after a normal end still makes it a failed run. */
	if (!atomic_compare_exchange_strong(&run->stop, &expected, (int)why)) {
		expected = CCB_STOP_DONE;
		if ((why != CCB_STOP_ERROR && why != CCB_STOP_TIMEOUT) ||
		    !atomic_compare_exchange_strong(&run->stop, &expected, (int)why))
			return;
	}
	pthread_mutex_lock(&run->reason_lock);
	run->error_ret = err;
	va_start(ap, fmt);
	vsnprintf(run->reason, sizeof(run->reason), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&run->reason_lock);
}

void ccb_run_warn(struct ccb_run *run, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&run->reason_lock);
	if (!run->warnings)
		run->warnings = json_array();
	json_array_append_new(run->warnings, json_string(msg));
	pthread_mutex_unlock(&run->reason_lock);
}
