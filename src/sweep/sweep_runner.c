/*
 * Running a sweep point through a runner command. The point's arguments
 * are rebuilt from its parsed options (what it was given, through the one
 * option table), so the remote ccbench parses exactly what this one
 * checked; the result comes back as the -f json document a local run would
 * have made, and is validated before the sweep takes it.
 */
#include <ccbench/redact.h>
#include <ccbench/clock.h>
#include <ccbench/engine.h>
#include <ccbench/path.h>
#include <ccbench/registry.h>
#include <ccbench/secret_opts.h>
#include <ccbench/spawn.h>
#include <ccbench/steady.h>
#include "sweep_runner.h"
#include <ccbench/units.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* One option as the command line spells it, appended to @p args. */
static void add_opt(json_t *args, const struct ccb_opts *o, const struct ccb_opt_desc *d)
{
	const void *field = (const char *)o + d->offset;
	char flag[80], val[64];

	snprintf(flag, sizeof(flag), "--%s", d->name);
	switch (d->type) {
	case CCB_OPT_STR:
	case CCB_OPT_NAME:
	case CCB_OPT_CHOICE:
		if (*(const char *const *)field) {
			json_array_append_new(args, json_string(flag));
			json_array_append_new(args, json_string(*(const char *const *)field));
		}
		return;
	case CCB_OPT_FLAG:
		if (*(const bool *)field)
			json_array_append_new(args, json_string(flag));
		return;
	case CCB_OPT_SET:
		for (unsigned i = 0; i < o->n_sets; i++) {
			json_array_append_new(args, json_string(flag));
			json_array_append_new(args, json_string(o->sets[i]));
		}
		return;
	case CCB_OPT_LIST: {
		const struct ccb_opt_list *l = field;
		for (unsigned i = 0; i < l->n; i++) {
			json_array_append_new(args, json_string(flag));
			json_array_append_new(args, json_string(l->v[i]));
		}
		return;
	}
	case CCB_OPT_UINT:
	case CCB_OPT_BYTES:
		snprintf(val, sizeof(val), "%" PRIu64, *(const uint64_t *)field);
		break;
	case CCB_OPT_DURATION:
		snprintf(val, sizeof(val), "%" PRIu64 "us", *(const uint64_t *)field);
		break;
	case CCB_OPT_PCT:
		ccb_format_pct_centi(*(const uint64_t *)field, val, sizeof(val));
		break;
	case CCB_OPT_STEADY: {
		/* As given (checked by this ccbench's parser): the runner's parses it alike. */
		const struct ccb_steady_spec *sp = field;
		if (sp->on) {
			json_array_append_new(args, json_string(flag));
			json_array_append_new(args, json_string(sp->text));
		}
		return;
	}
	case CCB_OPT_FORMAT:
	case CCB_OPT_PARAM:
		return; /* the runner's output is always -f json; --param is a sweep's */
	}
	json_array_append_new(args, json_string(flag));
	json_array_append_new(args, json_string(val));
}

json_t *ccb_sweep_point_args(const struct ccb_sweep_point *b, const char *target)
{
	const struct ccb_opts *o = &b->cli.opts;
	const char *tgt = b->cli.ops ? b->cli.ops->target_opt : NULL;
	json_t *args = json_array();
	char words[64], *w, *save = NULL;

	if (!args)
		return NULL;
	snprintf(words, sizeof(words), "%s", b->cli.command);
	for (w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
		json_array_append_new(args, json_string(w));
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		bool given = o->given[d - ccb_opt_table];

		/* Output options are the runner's business; the sweep-wide ones
		 * are the sweep's (it set them before the point). */
		if (!given || !(d->cmds & b->cli.cmd_mask) ||
		    (d->cmds & b->cli.cmd_mask) == CCB_CMD_OUTPUT ||
		    (d->flags & CCB_OPTF_SWEEP_WIDE))
			continue;
		if (target && tgt && strcmp(d->name, tgt) == 0)
			continue; /* named below */
		add_opt(args, o, d);
	}
	if (target && tgt) {
		char flag[80];
		snprintf(flag, sizeof(flag), "--%s", tgt);
		json_array_append_new(args, json_string(flag));
		json_array_append_new(args, json_string(target));
	}
	json_array_append_new(args, json_string("-f"));
	json_array_append_new(args, json_string("json"));
	json_array_append_new(args, json_string("-q"));
	return args;
}

const char *ccb_sweep_runner_of(const char *path, const char *cli_runner, const json_t *runners)
{
	size_t l = path ? strlen(path) : 0;

	if (!path)
		return NULL;
	if (cli_runner && strncmp(cli_runner, path, l) == 0 && cli_runner[l] == '=')
		return cli_runner + l + 1;
	return json_string_value(json_object_get(runners, path));
}

/* A runner command is a command line of its own (sh -c CMD): key material
 * in it would be in /proc/PID/cmdline. @p what names it in the message. */
static bool command_has_secret(const char *cmd, const char *what, char *err, size_t err_len)
{
	char *red = ccb_redact_text(cmd);
	bool has = !red || strcmp(red, cmd) != 0;

	if (has)
		snprintf(err, err_len,
		         "%s: the runner command carries key material (%s), which every local "
		         "user could read on its command line; give it to the sweep (-o, the "
		         "config's params), which passes it on the runner's stdin",
		         what, red ? red : "?");
	free(red);
	return has;
}

int ccb_sweep_runners_check(const json_t *runners, const char *cli_runner, char *err,
                            size_t err_len)
{
	const char *k;
	json_t *v;

	if (cli_runner) {
		const char *eq = strchr(cli_runner, '=');
		char path[64];

		if (!eq || eq == cli_runner || !eq[1] ||
		    (size_t)(eq - cli_runner) >= sizeof(path)) {
			snprintf(err, err_len,
			         "--runner '%s': expected PATH=CMD, e.g. "
			         "krbd='tests/krbd-vm/runner.sh run /tmp/spool'",
			         cli_runner);
			return -EINVAL;
		}
		snprintf(path, sizeof(path), "%.*s", (int)(eq - cli_runner), cli_runner);
		if (!ccb_path_find(path, CCB_MODE_SEQ)) {
			snprintf(err, err_len,
			         "--runner '%s': '%s' is not a path (rados, librbd, krbd, cephfs)",
			         cli_runner, path);
			return -EINVAL;
		}
	}
	if (cli_runner && command_has_secret(cli_runner, "--runner", err, err_len))
		return -EINVAL;
	if (!runners)
		return 0;
	if (!json_is_object(runners)) {
		snprintf(err, err_len, "'runners' must be an object such as {\"krbd\": \"CMD\"}");
		return -EINVAL;
	}
	json_object_foreach((json_t *)runners, k, v)
	{
		if (!ccb_path_find(k, CCB_MODE_SEQ)) {
			snprintf(err, err_len,
			         "runners.%s: not a path (expected rados, librbd, krbd, cephfs)",
			         k);
			return -EINVAL;
		}
		if (!json_is_string(v) || !json_string_length(v)) {
			snprintf(err, err_len,
			         "runners.%s: expected a command (a non-empty string)", k);
			return -EINVAL;
		}
		char what[80];
		snprintf(what, sizeof(what), "runners.%s", k);
		if (command_has_secret(json_string_value(v), what, err, err_len))
			return -EINVAL;
	}
	return 0;
}

/* Wait for @p pid without blocking: its status, or -1 while it runs. */
static int reaped(pid_t pid, int *status)
{
	int st;
	pid_t w = waitpid(pid, &st, WNOHANG);

	if (w != pid)
		return -1;
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
	return 0;
}

/* A pipe whose read end (returned; -1 on error, the reason in @p err)
 * holds @p doc whole: written before the reader exists, so it never
 * blocks nor raises SIGPIPE, then closed so the reader sees its end. */
static int stdin_holding(const char *doc, char *err, size_t err_len)
{
	int in[2];
	size_t len = strlen(doc);

	if (pipe2(in, O_CLOEXEC | O_NONBLOCK) < 0) {
		snprintf(err, err_len, "runner: pipe for its stdin: %s", strerror(errno));
		return -1;
	}
	if (write(in[1], doc, len) != (ssize_t)len) {
		snprintf(err, err_len,
		         "runner: stdin: the options did not fit its pipe (%zu bytes)", len);
		close(in[0]);
		close(in[1]);
		return -1;
	}
	close(in[1]);
	/* The reader's end blocks, as a stdin is expected to. */
	fcntl(in[0], F_SETFL, 0);
	return in[0];
}

int ccb_sweep_runner_exec(const char *cmd, const json_t *args, json_t **result, char *err,
                          size_t err_len)
{
	size_t n, cap = 1 << 16, used = 0;
	char **argv = NULL, *script = NULL, *buf = NULL, *secrets = NULL;
	int p[2] = {-1, -1}, in = -1, status = -1;
	uint64_t t0 = ccb_now_nsec(), termed_at = 0;
	bool eof = false, killed = false;
	json_t *pub = NULL;
	pid_t pid = -1;

	*result = NULL;
	err[0] = '\0';
	/* Key material leaves the arguments for the runner's stdin. */
	status = ccb_secret_opts_split(args, &pub, &secrets, err, err_len);
	if (status < 0)
		return status;
	status = -1;
	if (command_has_secret(cmd, "runner", err, err_len)) {
		status = -EINVAL;
		goto out;
	}
	n = json_array_size(pub);
	argv = calloc(n + 6, sizeof(*argv));
	buf = malloc(cap);
	if (!argv || !buf || asprintf(&script, "%s \"$@\"", cmd) < 0) {
		script = NULL;
		status = -ENOMEM;
		goto out;
	}
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = script;
	argv[3] = "ccbench-runner"; /* $0 of the script */
	for (size_t i = 0; i < n; i++)
		argv[4 + i] = (char *)json_string_value(json_array_get(pub, i));
	if (secrets && (in = stdin_holding(secrets, err, err_len)) < 0) {
		status = -EIO;
		goto out;
	}
	if (pipe2(p, O_CLOEXEC) < 0) {
		status = -errno;
		snprintf(err, err_len, "runner: pipe: %s", strerror(errno));
		goto out;
	}
	pid = ccb_spawn_in(argv, environ, in, p[1], STDERR_FILENO);
	close(p[1]);
	if (in >= 0)
		close(in);
	in = -1;
	if (pid < 0) {
		status = (int)pid;
		snprintf(err, err_len, "runner '%s': fork: %s", cmd, strerror((int)-pid));
		goto out;
	}
	/* Read until it closes stdout and has ended, signalling it (its whole
	 * group: sh, the runner, what it started) when ccbench is told to
	 * stop or the run takes too long. */
	for (;;) {
		uint64_t now = ccb_now_nsec();
		struct pollfd pfd = {.fd = p[0], .events = POLLIN};

		if (eof && reaped(pid, &status) == 0)
			break;
		if (!termed_at && (ccb_signal_pending || now - t0 > CCB_RUNNER_MAX_USEC * 1000)) {
			if (!ccb_signal_pending)
				snprintf(err, err_len, "runner '%s': no end after %llu s; stopped",
				         cmd, (unsigned long long)(CCB_RUNNER_MAX_USEC / 1000000));
			kill(-pid, SIGTERM);
			termed_at = now;
		}
		if (termed_at && !killed && now - termed_at > CCB_RUNNER_GRACE_USEC * 1000) {
			kill(-pid, SIGKILL);
			killed = true;
		}
		if (eof) {
			poll(NULL, 0, 100);
			continue;
		}
		if (poll(&pfd, 1, 200) <= 0)
			continue;
		if (used == cap) {
			char *nb = cap < CCB_RUNNER_MAX_BYTES ? realloc(buf, cap * 2) : NULL;
			if (!nb) {
				/* Too much to be a result: stop reading, let it end. */
				snprintf(err, err_len, "runner '%s': more than %u bytes on stdout",
				         cmd, CCB_RUNNER_MAX_BYTES);
				eof = true;
				continue;
			}
			buf = nb;
			cap *= 2;
		}
		ssize_t r = read(p[0], buf + used, cap - used);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			eof = true;
		else
			used += (size_t)r;
	}
	if (!err[0] || used) {
		json_error_t je;
		json_t *doc = used ? json_loadb(buf, used, 0, &je) : NULL;

		if (json_is_object(doc) && json_is_string(json_object_get(doc, "status"))) {
			*result = doc;
			err[0] = '\0';
		} else {
			if (!err[0])
				snprintf(err, err_len, "runner '%s' (exit %d): %s", cmd, status,
				         !used ? "no result on stdout"
				         : doc ? "stdout is JSON but not a ccbench result"
				               : "stdout is not a JSON result");
			json_decref(doc);
		}
	}
out:
	if (p[0] >= 0)
		close(p[0]);
	if (in >= 0)
		close(in);
	if (secrets) {
		explicit_bzero(secrets, strlen(secrets));
		free(secrets);
	}
	json_decref(pub);
	free(script);
	free(argv);
	free(buf);
	return status;
}
