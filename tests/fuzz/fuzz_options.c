/*
 * Fuzz target: the option table (src/options/options_table.c) and its parsers
 * (src/options/options.c). The input is lines of NAME=VALUE (or NAME alone for a
 * flag), split on newline or NUL; each sets
 * one option through the table the CLI and the sweep loader share. The
 * options are then checked for every command and, where they pass, shown
 * as the result's parameter JSON; and the table's own invariant is
 * checked: a value it accepted for a numeric option lies in its range, one
 * for a choice is one of its choices.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/cli.h>
#include <ccbench/commands.h>
#include <ccbench/options.h>
#include <ccbench/path.h>
#include <ccbench/rbd_layout.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_range(const struct ccb_opts *o, const struct ccb_opt_desc *d, const char *value)
{
	uint64_t v;

	if (d->type == CCB_OPT_STEADY) {
		const struct ccb_steady_spec *sp = (const void *)((const char *)o + d->offset);

		/* The window within the row's range, the tolerance within steady.h's. */
		if (sp->on && (sp->window_usec < d->min || sp->window_usec > d->max ||
		               sp->tol_centipct < CCB_STEADY_TOL_MIN ||
		               sp->tol_centipct > CCB_STEADY_TOL_MAX)) {
			fprintf(stderr, "--%s '%s' was accepted out of range\n", d->name, value);
			abort();
		}
		return;
	}
	if (d->type == CCB_OPT_CHOICE || d->type == CCB_OPT_FORMAT) {
		const void *field = (const char *)o + d->offset;
		size_t n = 0, at = 0;

		while (d->choices[n])
			n++;
		if (d->type == CCB_OPT_FORMAT) {
			enum ccb_format f = *(const enum ccb_format *)field;
			at = (size_t)f;
		} else {
			const char *s = *(const char *const *)field;
			while (at < n && strcmp(d->choices[at], s) != 0)
				at++;
		}
		if (at >= n) {
			fprintf(stderr, "--%s '%s' was accepted but is none of its choices\n",
			        d->name, value);
			abort();
		}
		return;
	}
	if (d->type != CCB_OPT_UINT && d->type != CCB_OPT_BYTES && d->type != CCB_OPT_DURATION &&
	    d->type != CCB_OPT_PCT)
		return;
	memcpy(&v, (const char *)o + d->offset, sizeof(v));
	if (v < d->min || v > d->max) {
		fprintf(stderr, "--%s '%s' was accepted as %llu, outside [%llu, %llu]\n", d->name,
		        value, (unsigned long long)v, (unsigned long long)d->min,
		        (unsigned long long)d->max);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *p, *end, err[1024];
	struct ccb_opts o;
	uint64_t mask;

	/* Once; later calls return at once (the option table is built). */
	if (ccb_commands_init() < 0)
		abort();
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	end = buf + size;
	ccb_opts_defaults(&o);
	/* The options point into buf (as they point into argv): it lives until the end. */
	for (p = buf; p < end;) {
		size_t l = strcspn(p, "\n");
		char *eq, *next = p + l + 1;
		const struct ccb_opt_desc *d;

		p[l] = '\0'; /* a NUL inside the line ends it too */
		eq = strchr(p, '=');
		if (eq)
			*eq = '\0';
		d = ccb_opt_find(p);
		if (d) {
			const char *value = eq ? eq + 1 : "";
			err[0] = '\0';
			if (ccb_opt_set(&o, d, value, err, sizeof(err)) == 0)
				check_range(&o, d, value);
			else if (!err[0]) {
				fprintf(stderr, "--%s '%s' refused without a message\n", d->name,
				        value);
				abort();
			}
		}
		p = next;
	}
	/* Every command, as the command line selects it: a workload's path
	 * block holds its path's options (ccb_opts_block_select()). */
	size_t n_cmds;
	const struct ccb_command *cmds = ccb_cli_commands(&n_cmds);
	for (size_t i = 0; i < n_cmds; i++) {
		const struct ccb_path_ops *ops;
		struct ccb_opts c = o;
		json_t *j;
		char *s;

		if (cmds[i].ops)
			ccb_opts_block_select(&c, cmds[i].mask & CCB_CMD_PATHS);
		err[0] = '\0';
		if (ccb_opts_validate(&c, cmds[i].mask, err, sizeof(err)) < 0) {
			if (!err[0]) {
				fprintf(stderr, "options refused for %s without a message\n",
				        cmds[i].name);
				abort();
			}
			continue;
		}
		/* Then the rules of the path the command runs through. */
		ops = ccb_path_for(cmds[i].ops, &c);
		err[0] = '\0';
		if (ops && ops->validate && ops->validate(&c, err, sizeof(err)) < 0 && !err[0]) {
			fprintf(stderr, "%s: options refused without a message\n", ops->name);
			abort();
		}
		/* As a run does: only options its command accepted become its JSON. */
		j = ccb_opts_to_json(&c, cmds[i].mask);
		s = json_dumps(j, JSON_COMPACT);
		free(s);
		json_decref(j);
	}
	if (o.image_features)
		ccb_rbd_features_parse(o.image_features, &mask, err, sizeof(err));
	(void)ccb_opts_rbd_object_bytes(&o);
	free(buf);
	return 0;
}
