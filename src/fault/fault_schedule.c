/*
 * The fault schedule as given: --fault WHEN:ACTION, repeatable, ';'
 * between several in one value (so that a sweep config can hold a whole
 * schedule in one string). Parsing is pure, and every rule is checked
 * before anything connects: bad input is exit 2 with one message.
 */
#include <ccbench/fault.h>
#include <ccbench/redact.h>
#include <ccbench/units.h>

#include "fault_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The osdmap flags a fault may set or unset: what `ceph osd set` takes and
 * changes nothing but the cluster's behaviour until unset. */
static const char *const flags[] = {
    "noout",       "noin",    "noup",         "nodown",      "norecover",  "nobackfill",
    "norebalance", "noscrub", "nodeep-scrub", "notieragent", "nosnaptrim", "pause",
};

bool ccb_fault_known_flag(const char *f)
{
	for (size_t i = 0; f && i < sizeof(flags) / sizeof(flags[0]); i++)
		if (strcmp(flags[i], f) == 0)
			return true;
	return false;
}

static int bad(char *err, size_t len, const char *text, const char *fmt, const char *arg)
{
	char why[CCB_FAULT_TEXT_MAX + 512];

	snprintf(why, sizeof(why), fmt, arg);
	snprintf(err, len, "--fault '%s': %s", text, why);
	return -EINVAL;
}

/* An OSD id: digits only, at most 65535 (more than any cluster has). */
static int parse_osd(const char *s, int *out)
{
	char *end;
	long v;

	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 5)
		return -EINVAL;
	v = strtol(s, &end, 10);
	if (v > 65535)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/*
 * Split @p cmd into words, as a shell would split plain words and quotes,
 * and nothing more: blanks separate, '...' keeps everything, "..." and a
 * backslash escape the next character; no variables, globs or tildes
 * (the command runs with no shell). Words go NUL-separated into @p words.
 */
static int split_words(const char *cmd, struct ccb_fault *f, char *err, size_t len)
{
	char *w = f->words, *end = f->words + sizeof(f->words) - 1;
	size_t n = 0;
	bool in_word = false;
	char quote = 0;

	for (const char *p = cmd;; p++) {
		char c = *p;

		if (!c) {
			if (quote)
				return bad(err, len, f->text, "a %s quote is not closed",
				           quote == '\'' ? "single" : "double");
			break;
		}
		if (!quote && (c == ' ' || c == '\t')) {
			if (in_word) {
				*w++ = '\0';
				in_word = false;
			}
			continue;
		}
		if (!in_word) {
			if (n == CCB_FAULT_ARGV_MAX)
				return bad(err, len, f->text, "more than %s words in the command",
				           "32");
			f->argv[n++] = w;
			in_word = true;
		}
		if (quote == '\'' && c == '\'') {
			quote = 0;
			continue;
		}
		if (!quote && (c == '\'' || c == '"')) {
			quote = c;
			continue;
		}
		if (quote == '"' && c == '"') {
			quote = 0;
			continue;
		}
		if (quote != '\'' && c == '\\' && p[1])
			c = *++p;
		if (w >= end)
			return bad(err, len, f->text, "%s", "the command is too long");
		*w++ = c;
	}
	if (in_word)
		*w++ = '\0';
	f->argv[n] = NULL;
	if (!n)
		return bad(err, len, f->text, "%s", "no command");
	return 0;
}

/* Whether @p prog names a program this host can run: a path to an
 * executable file, or a name found in $PATH. */
static bool runnable(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t l = strcspn(path, ":");

		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)l, l ? path : ".", prog) <
		        (int)sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return true;
		path += l + (path[l] == ':');
	}
	return false;
}

static int parse_command(const char *cmd, struct ccb_fault *f, char *err, size_t len)
{
	int r = split_words(cmd, f, err, len);

	if (r < 0)
		return r;
	if (!runnable(f->argv[0]))
		return bad(err, len, f->text,
		           "'%s': no such program (not an executable file, nor found in PATH)",
		           f->argv[0]);
	return 0;
}

/* config:WHO/NAME=VALUE */
static int parse_config(const char *a, struct ccb_fault *f, char *err, size_t len)
{
	const char *slash = strchr(a, '/'), *eq = slash ? strchr(slash, '=') : NULL;
	size_t wl = slash ? (size_t)(slash - a) : 0, nl = eq ? (size_t)(eq - slash - 1) : 0;

	if (!slash || !eq || !wl || !nl || !eq[1])
		return bad(
		    err, len, f->text, "%s",
		    "expected config:WHO/NAME=VALUE (config:osd/osd_mclock_profile=balanced)");
	if (wl >= sizeof(f->who) || nl >= sizeof(f->name) || strlen(eq + 1) >= sizeof(f->value))
		return bad(err, len, f->text, "%s", "WHO, NAME or VALUE too long");
	snprintf(f->who, sizeof(f->who), "%.*s", (int)wl, a);
	snprintf(f->name, sizeof(f->name), "%.*s", (int)nl, slash + 1);
	snprintf(f->value, sizeof(f->value), "%s", eq + 1);
	/* What `ceph config set` takes as WHO: a type, or TYPE.ID. */
	if (strspn(f->who, "abcdefghijklmnopqrstuvwxyz") == 0 ||
	    strspn(f->who, "abcdefghijklmnopqrstuvwxyz0123456789._-") != strlen(f->who))
		return bad(err, len, f->text, "WHO '%s': expected global, osd, osd.N, mon ...",
		           f->who);
	if (strspn(f->name, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(f->name))
		return bad(err, len, f->text, "NAME '%s': not an option name", f->name);
	if (!ccb_is_printable(f->value))
		return bad(err, len, f->text, "%s", "VALUE is not printable text");
	return 0;
}

static const char actions_expected[] =
    "expected osd-down:N, osd-out:N, osd-in:N, set:FLAG, unset:FLAG, config:WHO/NAME=VALUE, "
    "exec:COMMAND, undo:COMMAND or end";

static int parse_action(const char *a, struct ccb_fault *f, char *err, size_t len)
{
	static const struct {
		const char *prefix;
		enum ccb_fault_kind kind;
	} osd_actions[] = {{"osd-down:", CCB_FAULT_OSD_DOWN},
	                   {"osd-out:", CCB_FAULT_OSD_OUT},
	                   {"osd-in:", CCB_FAULT_OSD_IN}};

	if (strcmp(a, "end") == 0) {
		f->kind = CCB_FAULT_END;
		return 0;
	}
	for (size_t i = 0; i < sizeof(osd_actions) / sizeof(osd_actions[0]); i++) {
		size_t l = strlen(osd_actions[i].prefix);

		if (strncmp(a, osd_actions[i].prefix, l) != 0)
			continue;
		f->kind = osd_actions[i].kind;
		if (parse_osd(a + l, &f->osd) < 0)
			return bad(err, len, f->text, "OSD id '%s': expected a number (0 to 65535)",
			           a + l);
		return 0;
	}
	if (strncmp(a, "set:", 4) == 0 || strncmp(a, "unset:", 6) == 0) {
		const char *flag = strchr(a, ':') + 1;

		f->kind = a[0] == 's' ? CCB_FAULT_SET : CCB_FAULT_UNSET;
		if (!ccb_fault_known_flag(flag))
			return bad(err, len, f->text,
			           "flag '%s': expected noout, noin, noup, nodown, norecover, "
			           "nobackfill, norebalance, noscrub, nodeep-scrub, notieragent, "
			           "nosnaptrim or pause",
			           flag);
		snprintf(f->flag, sizeof(f->flag), "%s", flag);
		return 0;
	}
	if (strncmp(a, "config:", 7) == 0) {
		f->kind = CCB_FAULT_CONFIG;
		return parse_config(a + 7, f, err, len);
	}
	if (strncmp(a, "exec:", 5) == 0 || strncmp(a, "undo:", 5) == 0) {
		f->kind = a[0] == 'e' ? CCB_FAULT_EXEC : CCB_FAULT_UNDO;
		return parse_command(a + 5, f, err, len);
	}
	return bad(err, len, f->text, "unknown action: %s", actions_expected);
}

/* WHEN: a duration, clean or clean+DURATION. */
static int parse_when(const char *w, struct ccb_fault *f, char *err, size_t len)
{
	if (strncmp(w, "clean", 5) == 0) {
		f->when = CCB_FAULT_CLEAN;
		if (!w[5])
			return 0;
		if (w[5] != '+' || ccb_parse_duration_usec(w + 6, &f->at_usec) < 0)
			return bad(err, len, f->text, "WHEN '%s': expected clean or clean+DURATION",
			           w);
		return 0;
	}
	f->when = CCB_FAULT_AT;
	if (ccb_parse_duration_usec(w, &f->at_usec) < 0)
		return bad(err, len, f->text,
		           "WHEN '%s': expected a time into the run (20s, 500ms, 2m), clean or "
		           "clean+DURATION",
		           w);
	return 0;
}

static int parse_one(const char *text, struct ccb_fault *f, char *err, size_t len)
{
	const char *colon;
	char when[64];

	memset(f, 0, sizeof(*f));
	f->pair = -1;
	if (strlen(text) >= sizeof(f->text))
		return bad(err, len, "...", "%s", "longer than 1023 characters");
	snprintf(f->text, sizeof(f->text), "%s", text);
	/* What a command's argv carries is readable by every user of this host
	 * (/proc/PID/cmdline), and the fault is recorded in the result. */
	{
		char *red = ccb_redact_text(text);
		bool secret = !red || strcmp(red, text) != 0;

		free(red);
		if (secret)
			return bad(
			    err, len, "(withheld)", "%s",
			    "it carries key material (a key, secret, token or password): "
			    "refused, since a command's arguments are readable by every user "
			    "of this host and go into the result; give the command its key "
			    "another way (a keyring file)");
	}
	if (strncmp(text, "undo:", 5) == 0) {
		f->when = CCB_FAULT_UNWIND;
		return parse_action(text, f, err, len);
	}
	colon = strchr(text, ':');
	if (!colon)
		return bad(err, len, text, "expected WHEN:ACTION (%s)",
		           "20s:osd-out:1, clean:osd-in:1, 5s:exec:COMMAND");
	if ((size_t)(colon - text) >= sizeof(when))
		return bad(err, len, text, "%s", "WHEN too long");
	snprintf(when, sizeof(when), "%.*s", (int)(colon - text), text);
	if (parse_when(when, f, err, len) < 0)
		return -EINVAL;
	return parse_action(colon + 1, f, err, len);
}

/* Each undo: with the nearest exec: before it that has none yet. */
static int pair_undos(struct ccb_fault_schedule *s, char *err, size_t len)
{
	for (size_t i = 0; i < s->n; i++) {
		struct ccb_fault *f = &s->f[i];
		int j;

		if (f->kind != CCB_FAULT_UNDO)
			continue;
		for (j = (int)i - 1; j >= 0; j--)
			if (s->f[j].kind == CCB_FAULT_EXEC && s->f[j].pair < 0)
				break;
		if (j < 0)
			return bad(err, len, f->text, "%s",
			           "undo: without an exec: before it (undo:COMMAND names what puts "
			           "the exec: before it back)");
		s->f[j].pair = (int)i;
		f->pair = j;
	}
	return 0;
}

int ccb_fault_parse(const struct ccb_opt_list *faults, struct ccb_fault_schedule *s, char *err,
                    size_t err_len)
{
	uint64_t last_at = 0;
	const char *last_text = NULL;

	s->n = 0;
	for (unsigned i = 0; i < faults->n; i++) {
		const char *p = faults->v[i];

		for (;;) {
			size_t l = strcspn(p, ";");
			char one[CCB_FAULT_TEXT_MAX + 1];

			if (!l) {
				snprintf(err, err_len,
				         "--fault '%s': an empty fault (two ';' or a "
				         "';' at an end)",
				         faults->v[i]);
				return -EINVAL;
			}
			if (s->n == CCB_FAULT_MAX) {
				snprintf(err, err_len, "--fault: more than %d faults",
				         CCB_FAULT_MAX);
				return -EINVAL;
			}
			if (l > CCB_FAULT_TEXT_MAX)
				l = CCB_FAULT_TEXT_MAX; /* refused as too long below */
			snprintf(one, sizeof(one), "%.*s", (int)l, p);
			if (parse_one(one, &s->f[s->n], err, err_len) < 0)
				return -EINVAL;
			s->n++;
			p += strcspn(p, ";");
			if (!*p)
				break;
			p++;
		}
	}
	for (size_t i = 0; i < s->n; i++) {
		const struct ccb_fault *f = &s->f[i];

		if (f->kind == CCB_FAULT_END && i + 1 != s->n)
			return bad(err, err_len, f->text, "%s",
			           "end must be the last fault (nothing fires after it)");
		if (f->when != CCB_FAULT_AT)
			continue;
		if (last_text && f->at_usec < last_at) {
			char why[CCB_FAULT_TEXT_MAX + 64];

			snprintf(why, sizeof(why),
			         "earlier than '%s' before it (give them in order)", last_text);
			return bad(err, err_len, f->text, "%s", why);
		}
		last_at = f->at_usec;
		last_text = f->text;
	}
	return pair_undos(s, err, err_len);
}

void ccb_fault_describe(const struct ccb_fault *f, char *buf, size_t len)
{
	char when[64], cmd[CCB_FAULT_TEXT_MAX];

	if (f->when == CCB_FAULT_AT)
		snprintf(when, sizeof(when), "at %.1f s", (double)f->at_usec / 1e6);
	else if (f->when == CCB_FAULT_CLEAN && f->at_usec)
		snprintf(when, sizeof(when), "%.1f s after the cluster is clean",
		         (double)f->at_usec / 1e6);
	else if (f->when == CCB_FAULT_CLEAN)
		snprintf(when, sizeof(when), "once the cluster is clean");
	else
		snprintf(when, sizeof(when), "when the run ends");
	cmd[0] = '\0';
	for (int i = 0; f->argv[i]; i++) {
		size_t l = strlen(cmd);
		snprintf(cmd + l, sizeof(cmd) - l, "%s%s", i ? " " : "", f->argv[i]);
	}
	switch (f->kind) {
	case CCB_FAULT_OSD_DOWN:
		snprintf(buf, len, "mark osd.%d down %s", f->osd, when);
		break;
	case CCB_FAULT_OSD_OUT:
		snprintf(buf, len, "mark osd.%d out %s (data moves off it)", f->osd, when);
		break;
	case CCB_FAULT_OSD_IN:
		snprintf(buf, len, "mark osd.%d in %s", f->osd, when);
		break;
	case CCB_FAULT_SET:
		snprintf(buf, len, "set the osdmap flag %s %s", f->flag, when);
		break;
	case CCB_FAULT_UNSET:
		snprintf(buf, len, "unset the osdmap flag %s %s", f->flag, when);
		break;
	case CCB_FAULT_CONFIG:
		snprintf(buf, len, "set %s %s=%s in the cluster's configuration %s", f->who,
		         f->name, f->value, when);
		break;
	case CCB_FAULT_EXEC:
		snprintf(buf, len, "run `%s` on this host %s", cmd, when);
		break;
	case CCB_FAULT_UNDO:
		snprintf(buf, len, "run `%s` %s", cmd, when);
		break;
	case CCB_FAULT_END:
		snprintf(buf, len, "end the run %s", when);
		break;
	}
}

int ccb_fault_validate(const struct ccb_opts *o, uint64_t cmd, uint64_t run_usec, char *err,
                       size_t err_len)
{
	struct ccb_fault_schedule *s;
	size_t used;
	int r = -EINVAL;

	if (!o->faults.n)
		return 0;
	if (cmd & CCB_CMD_CAPACITY) {
		snprintf(err, err_len,
		         "--fault: not for a capacity search (each of its steps is a run of its "
		         "own); run the workload at a --rate instead");
		return -EINVAL;
	}
	if (o->group) {
		snprintf(err, err_len,
		         "--fault: not with --group (every member would change the cluster)");
		return -EINVAL;
	}
	if (o->until_steady.on) {
		snprintf(err, err_len,
		         "--fault: not with --until-steady (the run would end once steady, before "
		         "or during the fault)");
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, err_len, "--fault: out of memory");
		return -ENOMEM;
	}
	if (ccb_fault_parse(&o->faults, s, err, err_len) < 0)
		goto out;
	for (size_t i = 0; run_usec && i < s->n; i++) {
		char t[64];

		if (s->f[i].when != CCB_FAULT_AT || s->f[i].at_usec < run_usec)
			continue;
		snprintf(t, sizeof(t), "%.1f s is not within the run (--duration %.1f s)",
		         (double)s->f[i].at_usec / 1e6, (double)run_usec / 1e6);
		bad(err, err_len, s->f[i].text, "%s", t);
		goto out;
	}
	if (!o->allow_cluster_changes) {
		used = (size_t)snprintf(err, err_len,
		                        "--fault changes the cluster, and needs "
		                        "--allow-cluster-changes to: ");
		for (size_t i = 0; i < s->n && used < err_len; i++) {
			char what[CCB_FAULT_TEXT_MAX + 128];

			ccb_fault_describe(&s->f[i], what, sizeof(what));
			used += (size_t)snprintf(err + used, err_len - used, "%s%s", i ? "; " : "",
			                         what);
		}
		if (used < err_len)
			snprintf(err + used, err_len - used, " (nothing was changed)");
		goto out;
	}
	r = 0;
out:
	free(s);
	return r;
}
