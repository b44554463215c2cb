/*
 * The capacity search's arithmetic: which rate to try next from the
 * outcomes so far (capacity.h). No I/O, so a model of latency against
 * rate tests it (tests/unit/test_capacity.c).
 *
 * Why geometric: capacities span four orders of magnitude (a few ops per
 * second on a throttled pool to 10^5 on memstore), and the probe's figure
 * can be off by more than a factor; steps by a ratio reach any of them in
 * a few steps, and bisecting by the geometric mean halves the bracket's
 * ratio each time, which is what the precision (a ratio) asks.
 */
#include <ccbench/capacity.h>

#include <math.h>
#include <string.h>

void ccb_cap_search_init(struct ccb_cap_search *s, double start_ops_s, double precision,
                         unsigned max_steps)
{
	memset(s, 0, sizeof(*s));
	s->start = start_ops_s;
	s->precision = precision;
	s->max_steps = max_steps;
}

enum ccb_cap_phase ccb_cap_search_phase(const struct ccb_cap_search *s)
{
	if (s->steps >= s->max_steps || !(s->start > 0))
		return CCB_CAP_DONE;
	if (s->hi == 0)
		return s->lo * CCB_CAP_STEP_UP > CCB_CAP_MAX_OPS_S ? CCB_CAP_DONE : CCB_CAP_UP;
	if (s->lo == 0)
		return s->hi * CCB_CAP_STEP_DOWN < CCB_CAP_MIN_OPS_S ? CCB_CAP_DONE : CCB_CAP_DOWN;
	return s->hi / s->lo - 1 <= s->precision ? CCB_CAP_DONE : CCB_CAP_BISECT;
}

double ccb_cap_search_next(const struct ccb_cap_search *s)
{
	switch (ccb_cap_search_phase(s)) {
	case CCB_CAP_UP:
		return s->lo > 0 ? s->lo * CCB_CAP_STEP_UP : s->start;
	case CCB_CAP_DOWN:
		return s->hi * CCB_CAP_STEP_DOWN;
	case CCB_CAP_BISECT:
		return sqrt(s->lo * s->hi);
	case CCB_CAP_DONE:
		break;
	}
	return 0;
}

void ccb_cap_search_record(struct ccb_cap_search *s, double rate_ops_s, bool pass)
{
	s->steps++;
	if (pass) {
		if (rate_ops_s > s->lo)
			s->lo = rate_ops_s;
		/* A pass at or above the lowest failure: that failure was noise
		 * (or the curve is not monotone); the bracket starts again above. */
		if (s->hi && s->lo >= s->hi) {
			s->hi = 0;
			s->out_of_order = true;
		}
		return;
	}
	if (rate_ops_s <= s->lo) {
		s->out_of_order = true;
		return;
	}
	if (s->hi == 0 || rate_ops_s < s->hi)
		s->hi = rate_ops_s;
}

bool ccb_cap_carried(double rate_ops_s, double arrivals, double open, double dropped, double slots,
                     double svc_mean_s, bool poisson)
{
	double e = rate_ops_s > 0 && svc_mean_s > 0 ? rate_ops_s * svc_mean_s : 0;
	double expect = fmin(2 * slots, ceil(e + (poisson ? 2 : 1) * sqrt(e) + 1));

	return dropped == 0 && open <= fmax(0.01 * arrivals, expect);
}

const char *ccb_cap_phase_name(enum ccb_cap_phase p)
{
	switch (p) {
	case CCB_CAP_UP:
		return "up";
	case CCB_CAP_DOWN:
		return "down";
	case CCB_CAP_BISECT:
		return "bisect";
	case CCB_CAP_DONE:
		break;
	}
	return "done";
}
