/*
 * Key material between a sweep and its runner's ccbench, on a pipe rather
 * than a command line (see secret_opts.h). Both ends of the protocol live
 * here, so that what one writes is what the other reads.
 */
#include <ccbench/redact.h>
#include <ccbench/clock.h>
#include <ccbench/engine.h>
#include <ccbench/secret_opts.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* @p s carries key material: redaction would change it (-1: ENOMEM). */
static int carries_secret(const char *s)
{
	char *red = ccb_redact_text(s);
	int r;

	if (!red)
		return -1;
	r = strcmp(red, s) != 0;
	free(red);
	return r;
}

/* Add @p val of option @p d to @p secrets: an array for -o, else a string. */
static int add_secret(json_t *secrets, const struct ccb_opt_desc *d, const char *val)
{
	json_t *have = json_object_get(secrets, d->name);

	if (d->type != CCB_OPT_SET)
		return json_object_set_new(secrets, d->name, json_string(val));
	if (!have) {
		have = json_array();
		if (json_object_set_new(secrets, d->name, have) < 0)
			return -1;
	}
	return json_array_append_new(have, json_string(val));
}

int ccb_secret_opts_split(const json_t *args, json_t **pub, char **doc, char *err, size_t err_len)
{
	size_t n = json_array_size(args);
	json_t *out = json_array(), *secrets = json_object();
	int r = -ENOMEM;

	*pub = NULL;
	*doc = NULL;
	if (!out || !secrets)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		const char *a = json_string_value(json_array_get(args, i));
		const char *val = i + 1 < n ? json_string_value(json_array_get(args, i + 1)) : NULL;
		const struct ccb_opt_desc *d =
		    a && strncmp(a, "--", 2) == 0 ? ccb_opt_find(a + 2) : NULL;
		int s;

		if (!a) {
			snprintf(err, err_len, "runner argument %zu: not a string", i);
			r = -EINVAL;
			goto fail;
		}
		if (d && d->type != CCB_OPT_FLAG && val) {
			if ((s = carries_secret(val)) < 0)
				goto fail;
			if (s) {
				if (add_secret(secrets, d, val) < 0)
					goto fail;
			} else if (json_array_append_new(out, json_string(a)) < 0 ||
			           json_array_append_new(out, json_string(val)) < 0) {
				goto fail;
			}
			i++;
			continue;
		}
		if ((s = carries_secret(a)) < 0)
			goto fail;
		if (s) {
			/* Not an option's value: nothing to pass it as. Refused, not shown. */
			snprintf(err, err_len,
			         "runner argument %zu carries key material and is no option's "
			         "value: not put on a command line",
			         i);
			r = -EINVAL;
			goto fail;
		}
		if (json_array_append_new(out, json_string(a)) < 0)
			goto fail;
	}
	if (json_object_size(secrets)) {
		*doc = json_dumps(secrets, JSON_COMPACT);
		if (!*doc || json_array_append_new(out, json_string("--secrets-stdin")) < 0)
			goto fail;
		if (strlen(*doc) > CCB_SECRET_OPTS_SEND_MAX) {
			snprintf(err, err_len,
			         "the options that carry key material take %zu bytes, more than "
			         "the %u a runner's stdin is given",
			         strlen(*doc), CCB_SECRET_OPTS_SEND_MAX);
			r = -E2BIG;
			goto fail;
		}
	}
	json_decref(secrets);
	*pub = out;
	return 0;
fail:
	if (r == -ENOMEM)
		snprintf(err, err_len, "runner arguments: out of memory");
	if (*doc) {
		explicit_bzero(*doc, strlen(*doc));
		free(*doc);
		*doc = NULL;
	}
	json_decref(secrets);
	json_decref(out);
	return r;
}

/* Read @p fd to its end into @p buf (at most @p cap bytes), within @p wait_usec. */
static ssize_t read_all(int fd, char *buf, size_t cap, uint64_t wait_usec, char *err,
                        size_t err_len)
{
	uint64_t deadline = ccb_now_nsec() + wait_usec * 1000;
	size_t used = 0;

	for (;;) {
		uint64_t now = ccb_now_nsec();
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int pr;
		ssize_t got;

		if (now >= deadline) {
			snprintf(err, err_len,
			         "--secrets-stdin: stdin did not end within %llu s (a runner gives "
			         "ccbench the options and closes it)",
			         (unsigned long long)(wait_usec / 1000000));
			return -ETIMEDOUT;
		}
		pr = poll(&pfd, 1,
		          (deadline - now) / 1000000 >= 1000
		              ? 1000
		              : (int)((deadline - now) / 1000000 + 1));
		if (pr < 0 && errno != EINTR) {
			snprintf(err, err_len, "--secrets-stdin: poll on stdin: %s",
			         strerror(errno));
			return -EIO;
		}
		if (pr <= 0)
			continue;
		if (used == cap) {
			snprintf(err, err_len, "--secrets-stdin: more than %zu bytes on stdin",
			         cap);
			return -E2BIG;
		}
		got = read(fd, buf + used, cap - used);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got < 0) {
			snprintf(err, err_len, "--secrets-stdin: read stdin: %s", strerror(errno));
			return -EIO;
		}
		if (got == 0)
			return (ssize_t)used;
		used += (size_t)got;
	}
}

/* Set @p val into @p o as option @p d from stdin: its message names no value. */
static int set_one(struct ccb_opts *o, const struct ccb_opt_desc *d, const json_t *val, char *err,
                   size_t err_len)
{
	char why[512], *red;

	if (!json_is_string(val)) {
		snprintf(err, err_len, "--secrets-stdin: \"%s\": expected a string%s", d->name,
		         d->type == CCB_OPT_SET ? " or a list of strings" : "");
		return -EINVAL;
	}
	if (ccb_opt_set(o, d, json_string_value(val), why, sizeof(why)) == 0)
		return 0;
	red = ccb_redact_text(why);
	snprintf(err, err_len, "--secrets-stdin: %s", red ? red : "a bad value");
	free(red);
	return -EINVAL;
}

int ccb_secret_opts_read(struct ccb_opts *o, int fd, uint64_t wait_usec, char *err, size_t err_len)
{
	/* The values set are pointers into the documents read: they live as
	 * long as the process, as argv does. */
	static json_t *held;
	char *buf = malloc(CCB_SECRET_OPTS_READ_MAX);
	ssize_t len;
	json_t *doc, *v, *item;
	const char *name;
	size_t i;
	int r = 0;

	if (!buf) {
		snprintf(err, err_len, "--secrets-stdin: out of memory");
		return -ENOMEM;
	}
	len = read_all(fd, buf, CCB_SECRET_OPTS_READ_MAX, wait_usec, err, err_len);
	if (len <= 0) {
		if (len == 0)
			snprintf(err, err_len,
			         "--secrets-stdin: nothing on stdin (a sweep's runner must give "
			         "its stdin to the ccbench it runs; ssh does unless given -n)");
		free(buf);
		return len == 0 ? -EINVAL : (int)len;
	}
	doc = json_loadb(buf, (size_t)len, JSON_REJECT_DUPLICATES, NULL);
	explicit_bzero(buf, (size_t)len);
	free(buf);
	/* No parse error text: it would quote the input. */
	if (!json_is_object(doc)) {
		snprintf(err, err_len,
		         "--secrets-stdin: stdin is not one JSON object of options, such as "
		         "{\"set\": [\"key=...\"]}");
		json_decref(doc);
		return -EINVAL;
	}
	if (!held)
		held = json_array();
	if (!held || json_array_append_new(held, doc) < 0) {
		snprintf(err, err_len, "--secrets-stdin: out of memory");
		json_decref(doc);
		return -ENOMEM;
	}
	json_object_foreach(doc, name, v)
	{
		const struct ccb_opt_desc *d = ccb_opt_find(name);

		if (!d) {
			snprintf(err, err_len, "--secrets-stdin: no such option \"%.64s\"", name);
			return -EINVAL;
		}
		if (d->type == CCB_OPT_FLAG) {
			snprintf(err, err_len,
			         "--secrets-stdin: --%s is a flag, it carries nothing", d->name);
			return -EINVAL;
		}
		if (d->type != CCB_OPT_SET && o->given[d - ccb_opt_table]) {
			snprintf(err, err_len,
			         "--secrets-stdin: --%s is on the command line too; give it once",
			         d->name);
			return -EINVAL;
		}
		if (d->type == CCB_OPT_SET && json_is_array(v)) {
			json_array_foreach(v, i, item) if (r == 0) r =
			    set_one(o, d, item, err, err_len);
		} else {
			r = set_one(o, d, v, err, err_len);
		}
		if (r < 0)
			return r;
	}
	return 0;
}
