/*
 * The result model. Built once per run from the clients' merged
 * histograms and series; every report format reads this object.
 */
#include <ccbench/result.h>
#include <ccbench/openloop.h>
#include <ccbench/path.h>
#include <ccbench/release.h>
#include <ccbench/stats.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef CCB_VERSION
#define CCB_VERSION "dev"
#endif

json_t *ccb_result_latency(const struct ccb_hist *h)
{
	return json_pack(
	    "{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "n", (json_int_t)h->count, "min",
	    h->count ? (double)h->min_nsec / 1e3 : 0.0, "mean", ccb_hist_mean(h) / 1e3, "stddev",
	    ccb_hist_stddev(h) / 1e3, "p50", (double)ccb_hist_percentile(h, 50) / 1e3, "p90",
	    (double)ccb_hist_percentile(h, 90) / 1e3, "p99",
	    (double)ccb_hist_percentile(h, 99) / 1e3, "p99_9",
	    (double)ccb_hist_percentile(h, 99.9) / 1e3, "max", (double)h->max_nsec / 1e3);
}

const char *ccb_mode_name(enum ccb_mode mode)
{
	static const char *const names[] = {
	    [CCB_MODE_WRITE] = "write",         [CCB_MODE_SEQ] = "seq", [CCB_MODE_RAND] = "rand",
	    [CCB_MODE_RANDWRITE] = "randwrite", [CCB_MODE_RW] = "rw",
	};
	return (unsigned)mode < sizeof(names) / sizeof(names[0]) ? names[mode] : "?";
}

const char *ccb_result_status(const struct ccb_run *run)
{
	switch (atomic_load(&((struct ccb_run *)run)->stop)) {
	case CCB_STOP_SIGNAL:
		return "interrupted";
	case CCB_STOP_TIMEOUT:
	case CCB_STOP_ERROR:
		return "aborted";
	default:
		return "ok";
	}
}

static json_t *series_json(const struct ccb_series *s)
{
	json_t *a = json_array();

	for (size_t i = 0; i < s->n_secs; i++)
		json_array_append_new(
		    a, json_pack("{s:I, s:I, s:I, s:f, s:f}", "t", (json_int_t)i + 1, "bytes",
		                 (json_int_t)s->bytes[i], "ops", (json_int_t)s->ops[i],
		                 "bandwidth_mib_s", (double)s->bytes[i] / 1048576.0, "lat_mean_us",
		                 s->ops[i] ? (double)s->lat_sum_nsec[i] / 1e3 / (double)s->ops[i]
		                           : 0.0));
	return a;
}

bool ccb_result_stopped_steady(const json_t *run)
{
	const json_t *ss = json_object_get(run, "steady_state");

	return json_is_true(json_object_get(ss, "attained")) &&
	       !json_is_true(json_object_get(ss, "read_to_end"));
}

double ccb_result_level(const json_t *run, const char *what)
{
	const json_t *w = json_object_get(json_object_get(run, "steady_state"), "window");

	if (ccb_result_stopped_steady(run) && json_is_number(json_object_get(w, what)))
		return json_number_value(json_object_get(w, what));
	return json_number_value(json_object_get(run, what));
}

static double mib_s(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes / 1048576.0 / secs : 0;
}

/* ---- key material ---------------------------------------------------------
 *
 * A result travels: stdout, --output files, CI artefacts, and in group mode
 * RADOS objects every client of the cluster can read. The command line and
 * -o settings it records may carry key material (-o key=..., --map-options
 * secret=...). Values of such settings are replaced where the result is
 * built, so no view, file or group record can hold them. Paths (-k
 * KEYRING) stay: they name where a key is, not the key.
 */

static const char *const secret_names[] = {"key", "secret", "keyring", "password", "token"};

/* Option words of other tools that take key material as the next word
 * ("rbd --key AQB..."): their value goes in free text and in argv. Not
 * --keyring, which names a file. */
static const char *const secret_flags[] = {"--key", "--secret", "--token", "--password"};

/* @p name (@p len bytes) names key material: "key", "secret", "keyring",
 * "password", "token", or ends in "_key", "-secret", ".token" ...; an
 * option word ("-okey", "-qokey") ends in one. Case and '-'/'_' do not
 * matter. */
static bool secret_name(const char *name, size_t len, bool option_word)
{
	for (size_t k = 0; k < sizeof(secret_names) / sizeof(secret_names[0]); k++) {
		size_t sl = strlen(secret_names[k]);
		const char *tail = name + len - sl;
		char before;

		if (len < sl || strncasecmp(tail, secret_names[k], sl) != 0)
			continue;
		before = len > sl ? tail[-1] : '\0';
		if (!before || before == '_' || before == '-' || before == '.' || option_word)
			return true;
	}
	return false;
}

static bool secret_flag(const char *s, size_t len)
{
	for (size_t k = 0; k < sizeof(secret_flags) / sizeof(secret_flags[0]); k++)
		if (strlen(secret_flags[k]) == len && strncmp(s, secret_flags[k], len) == 0)
			return true;
	return false;
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* Where a free-text value ends: a comma, whitespace, a quote. */
static bool value_end(char c)
{
	return !c || c == ',' || c == '"' || c == '\'' || isspace((unsigned char)c);
}

static bool b64_char(char c)
{
	return isalnum((unsigned char)c) || c == '+' || c == '/';
}

/* A ceph secret as keyrings and `ceph auth get-key` spell it starts at
 * @p s: base64 of 28 bytes whose first two are the key type 1 ("AQ"), 40
 * characters ending "==", no base64 character on either side. So specific
 * that no ordinary word matches. */
static size_t ceph_key_at(const char *text, const char *s)
{
	if ((s > text && b64_char(s[-1])) || s[0] != 'A' || s[1] != 'Q')
		return 0;
	for (int i = 2; i < 38; i++)
		if (!b64_char(s[i]))
			return 0;
	return s[38] == '=' && s[39] == '=' && !b64_char(s[40]) && s[40] != '=' ? 40 : 0;
}

/* Copy-and-scan state of ccb_redact_text(): the output so far, and the
 * text's first blank or quote (NULL: none yet), kept as the scan moves so
 * that the whole is linear. */
struct redact {
	char *out;
	size_t o;
	const char *blank;
};

/* The scan passes over [@p from, @p to). */
static void pass(struct redact *r, const char *from, const char *to)
{
	for (const char *q = from; !r->blank && q < to; q++)
		if (*q == '"' || *q == '\'' || isspace((unsigned char)*q))
			r->blank = q;
}

static void put_redacted(struct redact *r)
{
	memcpy(r->out + r->o, CCB_REDACTED, sizeof(CCB_REDACTED) - 1);
	r->o += sizeof(CCB_REDACTED) - 1;
}

char *ccb_redact_text(const char *text)
{
	size_t len = strlen(text);
	/* Each redaction replaces at least 2 bytes ("=X", " X") or 40. */
	struct redact r = {.out = malloc(len + sizeof(CCB_REDACTED) * (len / 2 + 1) + 1)};
	const char *p = text;

	if (!r.out)
		return NULL;
	while (*p) {
		const char *v = NULL, *name, *end;
		size_t kl;

		if ((kl = ceph_key_at(text, p)) > 0) {
			put_redacted(&r);
			p += kl; /* base64: no comma, blank or quote to pass */
			continue;
		}
		r.out[r.o++] = *p;
		pass(&r, p, p + 1);
		if (*p == '=') {
			/* NAME=VALUE: NAME is the run of name characters before. */
			for (name = p; name > text && name_char(name[-1]); name--)
				;
			bool option_word = name[0] == '-' && name[1] != '-';
			/* --keyring=PATH names a file, like -k PATH: kept. */
			bool keyring_path = p - name == 9 && strncmp(name, "--keyring", 9) == 0;
			if (name < p && !keyring_path &&
			    secret_name(name, (size_t)(p - name), option_word))
				v = p + 1;
		} else if (isspace((unsigned char)*p) && p > text) {
			/* "--key VALUE": the word before this blank is a secret flag. */
			for (name = p; name > text && !value_end(name[-1]); name--)
				;
			if (secret_flag(name, (size_t)(p - name))) {
				while (p[1] == ' ' || p[1] == '\t')
					r.out[r.o++] = *++p;
				v = p + 1;
			}
		}
		p++;
		if (v && (*v == '"' || *v == '\'') && (end = strchr(v + 1, *v)) && end > v + 1) {
			/* A quoted value: to its closing quote, which stays. */
			r.out[r.o++] = *p;
			put_redacted(&r);
			pass(&r, p, end);
			p = end;
			continue;
		}
		if (!v || value_end(*v))
			continue;
		/* One word, as an argv item is ("key=X", "secret=X,noshare",
		 * "--set=key=X"): the value is the rest of its comma item, blanks
		 * after it and all. In free text ("... -o secret=X,noudev", a
		 * blank before it): up to a comma, blank or quote. */
		bool item = !r.blank;
		for (end = p; *end && *end != ',' && (item || !value_end(*end)); end++)
			;
		pass(&r, p, end);
		p = end;
		put_redacted(&r);
	}
	r.out[r.o] = '\0';
	return r.out;
}

int ccb_redact_json(json_t *doc)
{
	const char *key;
	json_t *v;
	size_t i;
	int r = 0;

	if (json_is_string(doc)) {
		const char *s = json_string_value(doc);
		char *red;

		/* Nothing to redact without NAME=, a "--flag VALUE" or a key's "==". */
		if (!strchr(s, '=') && !strstr(s, "--"))
			return 0;
		red = ccb_redact_text(s);
		if (!red)
			return -ENOMEM;
		if (strcmp(red, s) != 0 && json_string_set(doc, red) < 0)
			r = -ENOMEM;
		free(red);
		return r;
	}
	if (json_is_object(doc))
		json_object_foreach(doc, key, v) if (r == 0) r = ccb_redact_json(v);
	if (json_is_array(doc))
		json_array_foreach(doc, i, v) if (r == 0) r = ccb_redact_json(v);
	return r;
}

json_t *ccb_redact_argv(int argc, char *const *argv)
{
	json_t *args = json_array();

	for (int i = 0; args && i < argc; i++) {
		/* "--key VALUE" as two words: the second goes whole. */
		bool after_flag = i > 0 && secret_flag(argv[i - 1], strlen(argv[i - 1]));
		char *red = after_flag ? strdup(CCB_REDACTED) : ccb_redact_text(argv[i]);
		if (!red || json_array_append_new(args, json_string(red)) < 0) {
			free(red);
			json_decref(args);
			return NULL;
		}
		free(red);
	}
	return args;
}

json_t *ccb_result_build(const struct ccb_run *run, unsigned cmd_mask, int argc, char **argv)
{
	struct ccb_hist *all = calloc(1, sizeof(*all));
	struct ccb_series series;
	struct ccb_bw_summary bw;
	uint64_t bytes = 0, ops = 0, errors = 0, run_nsec = run->end_nsec - run->start_nsec;
	double secs = (double)run_nsec / 1e9;
	json_t *res, *clients = json_array(), *args = ccb_redact_argv(argc, argv);
	const char *error_msg = NULL;
	char started[64];
	time_t now = time(NULL);
	struct tm tm;

	if (!all)
		return NULL;
	ccb_hist_init(all);
	ccb_series_init(&series);
	for (unsigned i = 0; run->clients && i < run->n_clients; i++) {
		const struct ccb_client *cl = &run->clients[i];
		uint64_t cb = atomic_load(&((struct ccb_client *)cl)->bytes_done);
		uint64_t co = atomic_load(&((struct ccb_client *)cl)->ops_done);

		ccb_hist_merge(all, &cl->hist);
		ccb_series_merge(&series, &cl->series);
		bytes += cb;
		ops += co;
		errors += cl->errors;
		if (!error_msg && cl->first_error_msg[0])
			error_msg = cl->first_error_msg;
		if (run->n_clients > 1)
			json_array_append_new(
			    clients, json_pack("{s:i, s:I, s:I, s:f, s:f, s:I, s:o}", "client",
			                       (int)i, "bytes", (json_int_t)cb, "ops",
			                       (json_int_t)co, "bandwidth_mib_s", mib_s(cb, secs),
			                       "iops", secs > 0 ? (double)co / secs : 0.0, "errors",
			                       (json_int_t)cl->errors, "latency_us",
			                       ccb_result_latency(&cl->hist)));
	}
	ccb_series_bw_summary(&series, run_nsec, &bw);
	gmtime_r(&now, &tm);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);

	res = json_pack("{s:s, s:i, s:s, s:s, s:s, s:o, s:o, s:s, s:s}", "ccbench_version",
	                CCB_VERSION, "schema", CCB_RESULT_SCHEMA, "command", run->command, "path",
	                run->ops->name, "mode", ccb_mode_name(run->mode), "argv", args,
	                "parameters", ccb_opts_to_json(run->opts, cmd_mask), "fsid", run->fsid,
	                "finished_at", started);
	if (!res)
		goto out;
	json_object_set_new(res, "status", json_string(ccb_result_status(run)));
	json_object_set_new(res, "reason", json_string(run->reason[0] ? run->reason : "completed"));
	if (error_msg)
		json_object_set_new(res, "error", json_string(error_msg));
	json_object_set_new(res, "seconds", json_real(secs));
	json_object_set_new(res, "bytes", json_integer((json_int_t)bytes));
	json_object_set_new(res, "ops", json_integer((json_int_t)ops));
	json_object_set_new(res, "errors", json_integer((json_int_t)errors));
	json_object_set_new(res, "bandwidth_mib_s", json_real(mib_s(bytes, secs)));
	json_object_set_new(res, "iops", json_real(secs > 0 ? (double)ops / secs : 0));
	json_object_set_new(res, "bandwidth_per_second_mib_s",
	                    json_pack("{s:I, s:f, s:f, s:f, s:f}", "samples",
	                              (json_int_t)bw.samples, "mean", bw.mean_mib_s, "stddev",
	                              bw.stddev_mib_s, "min", bw.min_mib_s, "max", bw.max_mib_s));
	json_object_set_new(res, "latency_us", ccb_result_latency(all));
	json_object_set_new(res, "clients_n", json_integer(run->n_clients));
	json_object_set_new(res, "queue_depth", json_integer((json_int_t)run->queue_depth));
	/* One name for every path's op size (-b, --io-size, --block-size). */
	json_object_set_new(res, "op_bytes", json_integer((json_int_t)run->op_bytes));
	json_object_set_new(res, "layout", run->layout ? json_incref(run->layout) : json_object());
	json_object_set_new(res, "series", series_json(&series));
	json_object_set_new(res, "clients", clients);
	clients = NULL;
	json_object_set_new(res, "warnings",
	                    run->warnings ? json_incref(run->warnings) : json_array());
	/* A pass that ran out of work sets no reason. */
	if (run->steady)
		json_object_set_new(
		    res, "steady_state",
		    ccb_steady_json(run->steady, run->reason[0] ? run->reason : "its pass was over",
		                    bytes));
	if (run->extra)
		json_object_update(res, run->extra);
	/* The client side of "releases" (the engine read the cluster's). */
	{
		json_t *rel = json_object_get(res, "releases");

		if (!json_is_object(rel)) {
			rel = json_object();
			json_object_set_new(res, "releases", rel);
		}
		json_object_set_new(rel, "client", ccb_release_client());
	}
	/* --rate: latency_us stays the service time, beside the response time. */
	if (run->openloop)
		json_object_set_new(res, "open_loop", ccb_openloop_json(run, ccb_result_latency));
	if (run->ops->result)
		run->ops->result(run, res);
	/* Last, over everything, the path's own additions too (krbd's
	 * map_options): whatever names key material loses its value. */
	if (ccb_redact_json(res) < 0) {
		json_decref(res);
		res = NULL;
	}
out:
	json_decref(clients);
	ccb_series_free(&series);
	free(all);
	return res;
}
