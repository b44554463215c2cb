/*
 * The undo log. A plain array, unwound newest first. Entries are pushed
 * before the change they undo is made, so a failure between the two only
 * costs a harmless undo of nothing (removing an absent object is fine).
 */
#include <ccbench/undo.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	int handle;
	char what[160];
	ccb_undo_fn fn;
	void *arg;
	void (*free_arg)(void *);
};

static struct entry *log_entries;
static int n_entries, cap_entries, next_handle = 1;

int ccb_undo_push(const char *what, ccb_undo_fn fn, void *arg, void (*free_arg)(void *))
{
	struct entry *e;

	if (n_entries == cap_entries) {
		int cap = cap_entries ? cap_entries * 2 : 16;
		struct entry *n = realloc(log_entries, (size_t)cap * sizeof(*n));
		if (!n) {
			/* The change will not be made, so its argument is ours to free. */
			if (free_arg)
				free_arg(arg);
			return -ENOMEM;
		}
		log_entries = n;
		cap_entries = cap;
	}
	e = &log_entries[n_entries++];
	e->handle = next_handle++;
	snprintf(e->what, sizeof(e->what), "%s", what);
	e->fn = fn;
	e->arg = arg;
	e->free_arg = free_arg;
	return e->handle;
}

void ccb_undo_drop(int handle)
{
	for (int i = 0; i < n_entries; i++) {
		if (log_entries[i].handle != handle)
			continue;
		if (log_entries[i].free_arg)
			log_entries[i].free_arg(log_entries[i].arg);
		memmove(&log_entries[i], &log_entries[i + 1],
			(size_t)(n_entries - i - 1) * sizeof(*log_entries));
		n_entries--;
		return;
	}
}

int ccb_undo_unwind(void)
{
	int first = 0;

	while (n_entries > 0) {
		struct entry e = log_entries[--n_entries];
		int r = e.fn(e.arg);

		if (r < 0) {
			fprintf(stderr, "ccbench: undo failed: %s: %s\n", e.what, strerror(-r));
			if (!first)
				first = r;
		}
		if (e.free_arg)
			e.free_arg(e.arg);
	}
	free(log_entries);
	log_entries = NULL;
	cap_entries = 0;
	return first;
}

int ccb_undo_pending(void)
{
	return n_entries;
}
