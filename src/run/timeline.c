/*
 * A run's timeline: per-second latency histograms and the 10 ms ticks in
 * which ops completed (timeline.h). Each client fills its own; the run's
 * table takes a client's second once the second is over (one lock a
 * second a client) and its ticks once the client ends.
 */
#include <ccbench/timeline.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static unsigned sech_bucket(uint64_t nsec)
{
	uint64_t u = nsec >> CCB_SECH_SHIFT;
	unsigned msb, group;

	if (u < CCB_SECH_SUB)
		return (unsigned)u;
	msb = 63u - (unsigned)__builtin_clzll(u);
	group = msb - CCB_SECH_SUB_BITS + 1;
	if (group >= CCB_SECH_GROUPS)
		return CCB_SECH_BUCKETS - 1;
	return group * CCB_SECH_SUB +
	       (unsigned)((u >> (msb - CCB_SECH_SUB_BITS)) & (CCB_SECH_SUB - 1));
}

/* The midpoint of bucket @p idx, in nanoseconds. */
static uint64_t sech_mid(unsigned idx)
{
	unsigned group = idx / CCB_SECH_SUB, sub = idx % CCB_SECH_SUB;
	uint64_t low, width;

	if (group == 0)
		return ((uint64_t)sub << CCB_SECH_SHIFT) + (1u << (CCB_SECH_SHIFT - 1));
	low = (uint64_t)(CCB_SECH_SUB + sub) << (group - 1);
	width = 1ull << (group - 1);
	return (low << CCB_SECH_SHIFT) + (width << CCB_SECH_SHIFT) / 2;
}

void ccb_sech_record(struct ccb_sech *h, uint64_t nsec)
{
	h->n[sech_bucket(nsec)]++;
	h->count++;
	if (nsec > h->max_nsec)
		h->max_nsec = nsec;
}

void ccb_sech_merge(struct ccb_sech *dst, const struct ccb_sech *src)
{
	if (!src->count && !src->errors)
		return;
	for (unsigned i = 0; i < CCB_SECH_BUCKETS; i++)
		dst->n[i] += src->n[i];
	dst->count += src->count;
	dst->errors += src->errors;
	if (src->max_nsec > dst->max_nsec)
		dst->max_nsec = src->max_nsec;
}

uint64_t ccb_sech_percentile(const struct ccb_sech *h, double pct)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	if (pct >= 100)
		return h->max_nsec;
	rank = (uint64_t)((pct / 100.0) * (double)h->count + 0.999999);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < CCB_SECH_BUCKETS; i++) {
		seen += h->n[i];
		if (seen >= rank) {
			uint64_t v = sech_mid(i);
			return v > h->max_nsec ? h->max_nsec : v;
		}
	}
	return h->max_nsec;
}

int ccb_timeline_init(struct ccb_timeline *t)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	return 0;
}

void ccb_timeline_free(struct ccb_timeline *t)
{
	free(t->secs);
	free(t->done);
	pthread_mutex_destroy(&t->lock);
	memset(t, 0, sizeof(*t));
}

/* Room for second @p sec in the table (under its lock). */
static struct ccb_sech *table_second(struct ccb_timeline *t, size_t sec)
{
	if (sec >= CCB_TIMELINE_MAX_SECS) {
		t->truncated = true;
		return NULL;
	}
	if (sec >= t->cap_secs) {
		size_t cap = t->cap_secs ? t->cap_secs : 64;
		struct ccb_sech *n;

		while (cap <= sec)
			cap *= 2;
		n = realloc(t->secs, cap * sizeof(*n));
		if (!n) {
			t->truncated = true;
			return NULL;
		}
		memset(n + t->cap_secs, 0, (cap - t->cap_secs) * sizeof(*n));
		t->secs = n;
		t->cap_secs = cap;
	}
	if (sec >= t->n_secs)
		t->n_secs = sec + 1;
	return &t->secs[sec];
}

static void flush(struct ccb_timeline *t, struct ccb_tl_client *c)
{
	struct ccb_sech *dst;

	if (!c->used)
		return;
	pthread_mutex_lock(&t->lock);
	dst = table_second(t, c->cur_sec);
	if (dst)
		ccb_sech_merge(dst, &c->cur);
	pthread_mutex_unlock(&t->lock);
	memset(&c->cur, 0, sizeof(c->cur));
	c->used = false;
}

/*
 * The client's histogram for second @p sec: its current one, a fresh one
 * once a new second began (the last handed over), or NULL for an op of a
 * second already handed over (one that started long before it completed,
 * through a stall): the caller adds that one to the table.
 */
static struct ccb_sech *second_of(struct ccb_timeline *t, struct ccb_tl_client *c, size_t sec)
{
	if (c->used && sec == c->cur_sec)
		return &c->cur;
	if (c->used && sec < c->cur_sec)
		return NULL;
	flush(t, c);
	c->cur_sec = sec;
	c->used = true;
	return &c->cur;
}

static void set_tick(struct ccb_tl_client *c, uint64_t since_nsec)
{
	size_t tick = (size_t)(since_nsec / CCB_TIMELINE_TICK_NSEC), w = tick / 64;

	if (tick >= (size_t)CCB_TIMELINE_MAX_SECS * (1000000000ull / CCB_TIMELINE_TICK_NSEC) ||
	    c->oom)
		return;
	if (w >= c->done_words) {
		size_t n = c->done_words ? c->done_words : 32;
		uint64_t *d;

		while (n <= w)
			n *= 2;
		d = realloc(c->done, n * sizeof(*d));
		if (!d) {
			c->oom = true;
			return;
		}
		memset(d + c->done_words, 0, (n - c->done_words) * sizeof(*d));
		c->done = d;
		c->done_words = n;
	}
	c->done[w] |= 1ull << (tick % 64);
}

void ccb_timeline_op(struct ccb_timeline *t, struct ccb_tl_client *c, uint64_t started_nsec,
                     uint64_t since_nsec, uint64_t lat_nsec)
{
	size_t sec = (size_t)(started_nsec / 1000000000ull);
	struct ccb_sech *h = second_of(t, c, sec);

	if (h) {
		ccb_sech_record(h, lat_nsec);
	} else {
		pthread_mutex_lock(&t->lock);
		h = table_second(t, sec);
		if (h)
			ccb_sech_record(h, lat_nsec);
		pthread_mutex_unlock(&t->lock);
	}
	set_tick(c, since_nsec);
}

void ccb_timeline_error(struct ccb_timeline *t, struct ccb_tl_client *c, uint64_t since_nsec)
{
	size_t sec = (size_t)(since_nsec / 1000000000ull);
	struct ccb_sech *h = second_of(t, c, sec);

	if (h) {
		h->errors++;
		return;
	}
	pthread_mutex_lock(&t->lock);
	h = table_second(t, sec);
	if (h)
		h->errors++;
	pthread_mutex_unlock(&t->lock);
}

void ccb_timeline_client_end(struct ccb_timeline *t, struct ccb_tl_client *c)
{
	flush(t, c);
	pthread_mutex_lock(&t->lock);
	if (c->oom)
		t->truncated = true;
	if (c->done_words > t->done_words) {
		uint64_t *d = realloc(t->done, c->done_words * sizeof(*d));

		if (d) {
			memset(d + t->done_words, 0, (c->done_words - t->done_words) * sizeof(*d));
			t->done = d;
			t->done_words = c->done_words;
		} else {
			t->truncated = true;
		}
	}
	for (size_t i = 0; i < c->done_words && i < t->done_words; i++)
		t->done[i] |= c->done[i];
	pthread_mutex_unlock(&t->lock);
}

void ccb_tl_client_free(struct ccb_tl_client *c)
{
	free(c->done);
	c->done = NULL;
	c->done_words = 0;
}

bool ccb_timeline_done_in(const struct ccb_timeline *t, size_t tick)
{
	size_t w = tick / 64;

	return w < t->done_words && (t->done[w] >> (tick % 64) & 1);
}
