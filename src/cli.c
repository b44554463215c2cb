/*
 * The command line. getopt_long's tables are generated from the option
 * table, so every option parses, validates and documents itself once.
 */
#include <ccbench/cli.h>
#include <ccbench/path.h>

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

struct command {
	const char *name;               /* one or two words */
	const struct ccb_path_ops *ops; /* the path table a workload runs through, else NULL */
	unsigned mask;
	enum ccb_mode mode;
	const char *summary;
	const char *const *defaults; /* command-specific defaults: name, value, ..., NULL */
	int n_args;                  /* positional arguments after the command words */
	const char *args_help;
};

static const char *const rbd_defaults[] = {"queue-depth", "1", "pool", "rbd", NULL};
static const char *const krbd_defaults[] = {"queue-depth", "1", "pool", "rbd", NULL};

static const struct command commands[] = {
    {"rados write", &ccb_path_rados, CCB_CMD_CONN | CCB_CMD_RADOS | CCB_CMD_OUTPUT, CCB_MODE_WRITE,
     "write objects through librados (like rados bench write)", NULL, 0, NULL},
    {"rados seq", &ccb_path_rados, CCB_CMD_CONN | CCB_CMD_RADOS | CCB_CMD_OUTPUT, CCB_MODE_SEQ,
     "read a kept write run's objects in order", NULL, 0, NULL},
    {"rados rand", &ccb_path_rados, CCB_CMD_CONN | CCB_CMD_RADOS | CCB_CMD_OUTPUT, CCB_MODE_RAND,
     "read a kept write run's objects at random", NULL, 0, NULL},
    {"cleanup", NULL, CCB_CMD_CONN | CCB_CMD_CLEANUP, CCB_MODE_WRITE,
     "remove the objects a run left (--run-name NAME or --all-runs)", NULL, 0, NULL},
#define RBD_CMD(word, mode, what)                                                                  \
	{                                                                                          \
		"rbd " word, &ccb_path_rbd, CCB_CMD_CONN | CCB_CMD_RBD | CCB_CMD_OUTPUT, mode,     \
		    what, rbd_defaults, 0, NULL                                                    \
	}
    RBD_CMD("read", CCB_MODE_SEQ, "sequential reads of an image through librbd"),
    RBD_CMD("randread", CCB_MODE_RAND, "random reads of an image through librbd"),
    RBD_CMD("write", CCB_MODE_WRITE, "sequential writes through librbd"),
    RBD_CMD("randwrite", CCB_MODE_RANDWRITE, "random writes through librbd"),
    RBD_CMD("rw", CCB_MODE_RW, "mixed reads and writes (--rw-mix-read, --pattern)"),
#undef RBD_CMD
    {"krbd read", &ccb_path_krbd, CCB_CMD_KRBD | CCB_CMD_OUTPUT, CCB_MODE_SEQ,
     "sequential reads of a kernel block device (read_ahead_kb set, then restored)", krbd_defaults,
     0, NULL},
    {"krbd randread", &ccb_path_krbd, CCB_CMD_KRBD | CCB_CMD_OUTPUT, CCB_MODE_RAND,
     "random reads of a kernel block device", krbd_defaults, 0, NULL},
    {"krbd restore", NULL, CCB_CMD_KRBD_RESTORE, CCB_MODE_SEQ,
     "put back read_ahead_kb values and mappings a killed run left", NULL, 0, NULL},
    {"fs write", &ccb_path_cephfs, CCB_CMD_FS | CCB_CMD_OUTPUT, CCB_MODE_WRITE,
     "dd-style file writes through libcephfs, one file per client", NULL, 0, NULL},
    {"fs read", &ccb_path_cephfs, CCB_CMD_FS | CCB_CMD_OUTPUT, CCB_MODE_SEQ,
     "dd-style file reads through libcephfs, one file per client", NULL, 0, NULL},
    {"fs meta", &ccb_path_cephfs_meta, CCB_CMD_FS | CCB_CMD_OUTPUT, CCB_MODE_RW,
     "bonnie++-style small-file create, stat+read, delete rates", NULL, 0, NULL},
    {"sweep", NULL, CCB_CMD_SWEEP | CCB_CMD_OUTPUT, CCB_MODE_SEQ,
     "run a parameter grid from a JSON config", NULL, 1, "CONFIG"},
    {"report", NULL, CCB_CMD_REPORT | CCB_CMD_OUTPUT, CCB_MODE_SEQ,
     "re-render a saved sweep or run result", NULL, 1, "RESULTS.json"},
    {"explain", NULL, CCB_CMD_EXPLAIN, CCB_MODE_SEQ,
     "say what limited a saved run or sweep result (re-derived from its figures)", NULL, 1,
     "RESULT.json"},
    {"compare", NULL, CCB_CMD_COMPARE, CCB_MODE_SEQ,
     "compare a result against a baseline; exit 1 on regression", NULL, 2,
     "BASELINE.json CURRENT.json"},
    {"group report", NULL, CCB_CMD_GROUP, CCB_MODE_SEQ,
     "gather and add up the results of a group's members", NULL, 1, "NAME"},
    {"group rm", NULL, CCB_CMD_GROUP, CCB_MODE_SEQ, "remove a group's objects", NULL, 1, "NAME"},
    {"group ls", NULL, CCB_CMD_GROUP, CCB_MODE_SEQ, "list groups", NULL, 0, NULL},
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

void ccb_cli_usage(FILE *out, unsigned cmd_mask)
{
	fprintf(out, "usage: ccbench COMMAND [options]\n\ncommands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++) {
		char left[64];
		snprintf(left, sizeof(left), "%s%s%s", commands[i].name,
		         commands[i].args_help ? " " : "",
		         commands[i].args_help ? commands[i].args_help : "");
		fprintf(out, "  %-28s %s\n", left, commands[i].summary);
	}
	fprintf(out, "\noptions%s:\n", cmd_mask ? " of this command" : "");
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		char left[64];
		if (cmd_mask && !(d->cmds & cmd_mask))
			continue;
		if (d->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", d->short_name, d->name,
			         d->argname ? " " : "", d->argname ? d->argname : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", d->name, d->argname ? " " : "",
			         d->argname ? d->argname : "");
		fprintf(out, "  %-32s %s", left, d->help);
		if (d->def)
			fprintf(out, " [%s]", d->def);
		fputc('\n', out);
	}
	fprintf(out, "\nSizes take K, M, G, T (binary): 64K, 4M. Durations take us, ms, s, m, h: "
	             "500ms, 10s, 2m.\nCEPH_ARGS is read as the ceph CLIs read it. Results go to "
	             "stdout, progress to stderr.\n");
}

enum { OPT_HELP = 1000, OPT_VERSION };

/* Defaults that differ by command (rbd reads at depth 1, like dd or a booting
 * VM); they apply where the user gave nothing and do not count as given. */
static int apply_command_defaults(struct ccb_cli *cli, const struct command *cmd, char *err,
                                  size_t err_len)
{
	for (const char *const *kv = cmd->defaults; kv && kv[0]; kv += 2) {
		const struct ccb_opt_desc *d = ccb_opt_find(kv[0]);

		if (cli->opts.given[d - ccb_opt_table])
			continue;
		if (ccb_opt_set(&cli->opts, d, kv[1], err, err_len) < 0)
			return -EINVAL;
		cli->opts.given[d - ccb_opt_table] = false;
	}
	return 0;
}

int ccb_cli_select(struct ccb_cli *cli, const char *name, char *err, size_t err_len)
{
	for (size_t i = 0; i < N_COMMANDS; i++) {
		const struct command *cmd = &commands[i];

		if (strcmp(cmd->name, name) != 0)
			continue;
		cli->command = cmd->name;
		cli->ops = cmd->ops;
		cli->path = cmd->ops ? cmd->ops->name : NULL;
		cli->cmd_mask = cmd->mask;
		cli->mode = cmd->mode;
		return apply_command_defaults(cli, cmd, err, err_len);
	}
	snprintf(err, err_len, "unknown command '%s'", name);
	return -EINVAL;
}

int ccb_cli_parse(int argc, char **argv, struct ccb_cli *cli, char *err, size_t err_len)
{
	size_t n = ccb_opt_count();
	struct option *longopts = calloc(n + 3, sizeof(*longopts));
	char shortopts[128] = ":h";
	size_t sl = strlen(shortopts);
	const char *words[2] = {NULL, NULL};
	int nwords = 0, c, r = 0;

	memset(cli, 0, sizeof(*cli));
	ccb_opts_defaults(&cli->opts);
	if (!longopts)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct ccb_opt_desc *d = &ccb_opt_table[i];
		longopts[i].name = d->name;
		longopts[i].has_arg = d->type == CCB_OPT_FLAG ? no_argument : required_argument;
		longopts[i].val = d->short_name ? d->short_name : (int)(2000 + i);
		if (d->short_name && sl + 3 < sizeof(shortopts)) {
			shortopts[sl++] = (char)d->short_name;
			if (d->type != CCB_OPT_FLAG)
				shortopts[sl++] = ':';
			shortopts[sl] = '\0';
		}
	}
	longopts[n] = (struct option){"help", no_argument, NULL, OPT_HELP};
	longopts[n + 1] = (struct option){"version", no_argument, NULL, OPT_VERSION};

	opterr = 0;
	/* 0, not 1: glibc and musl then also forget the position inside the
	 * previous argv (a half-read "-qZ" group, or a pointer into an argv
	 * that is gone), so a second parse in one process starts clean. */
	optind = 0;
	/* A leading '-' in optstring would change semantics; "+" is not used so that
	 * options may follow the command words, as with the ceph CLIs. */
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct ccb_opt_desc *d = NULL;

		if (c == 'h' || c == OPT_HELP) {
			cli->help = true;
			continue;
		}
		if (c == OPT_VERSION) {
			cli->version = true;
			continue;
		}
		if (c == '?') {
			const char *arg = argv[optind - 1];
			const char *eq = strchr(arg, '=');

			/* A long flag given a value also lands here, with optopt its
			 * internal code (not a character to print). */
			if (strncmp(arg, "--", 2) == 0 && eq)
				snprintf(err, err_len, "option '%.*s' takes no value",
				         (int)(eq - arg), arg);
			else if (optopt > ' ' && optopt < 127 && strncmp(arg, "--", 2) != 0)
				snprintf(err, err_len, "unknown option '-%c'", optopt);
			else
				snprintf(err, err_len, "unknown option '%s'", arg);
			r = -EINVAL;
			break;
		}
		if (c == ':') {
			snprintf(err, err_len, "option '%s' needs a value", argv[optind - 1]);
			r = -EINVAL;
			break;
		}
		if (c >= 2000)
			d = &ccb_opt_table[c - 2000];
		else
			for (size_t i = 0; i < n && !d; i++)
				if (ccb_opt_table[i].short_name == c)
					d = &ccb_opt_table[i];
		r = ccb_opt_set(&cli->opts, d, optarg, err, err_len);
		if (r < 0)
			break;
	}
	free(longopts);
	if (r < 0)
		return r;
	nwords = argc - optind;
	if (nwords == 0) {
		if (cli->help || cli->version)
			return 0;
		snprintf(err, err_len, "no command given");
		return -EINVAL;
	}
	for (int i = 0; i < nwords && i < 2; i++)
		words[i] = argv[optind + i];
	for (size_t i = 0; i < N_COMMANDS; i++) {
		const struct command *cmd = &commands[i];
		size_t l0 = strlen(words[0]);
		int need = strchr(cmd->name, ' ') ? 2 : 1;

		/* The first word must be all of a one-word command or the first of a
		 * two-word one: "group ls" as one argument is neither. */
		if (strncmp(cmd->name, words[0], l0) != 0 ||
		    cmd->name[l0] != (need == 2 ? ' ' : '\0'))
			continue;
		if (need == 2 && (nwords < 2 || strcmp(cmd->name + l0 + 1, words[1]) != 0))
			continue;
		if (nwords - need > cmd->n_args) {
			snprintf(err, err_len, "unexpected argument '%s'",
			         argv[optind + need + cmd->n_args]);
			return -EINVAL;
		}
		if (nwords - need < cmd->n_args && !cli->help) {
			snprintf(err, err_len, "%s: expected %s", cmd->name, cmd->args_help);
			return -EINVAL;
		}
		for (int a = 0; a < nwords - need; a++)
			cli->args[cli->n_args++] = argv[optind + need + a];
		cli->command = cmd->name;
		cli->ops = cmd->ops;
		cli->path = cmd->ops ? cmd->ops->name : NULL;
		cli->cmd_mask = cmd->mask;
		cli->mode = cmd->mode;
		/* bonnie++ spells the file spec -n; ceph spells the entity name -n. A
		 * name always has a dot (client.admin), a file spec never does. */
		const struct ccb_opt_desc *f = ccb_opt_find("files");
		if ((cmd->mask & f->cmds) && cli->opts.name && !strchr(cli->opts.name, '.')) {
			if (ccb_opt_set(&cli->opts, f, cli->opts.name, err, err_len) < 0)
				return -EINVAL;
			cli->opts.name = NULL;
			cli->opts.given[ccb_opt_find("name") - ccb_opt_table] = false;
		}
		return apply_command_defaults(cli, cmd, err, err_len);
	}
	if (strcmp(words[0], "rados") == 0)
		snprintf(err, err_len, "rados: expected write, seq or rand, not '%s'",
		         nwords > 1 ? words[1] : "");
	else if (strcmp(words[0], "rbd") == 0)
		snprintf(err, err_len,
		         "rbd: expected read, randread, write, randwrite or rw, not '%s'",
		         nwords > 1 ? words[1] : "");
	else if (strcmp(words[0], "krbd") == 0)
		snprintf(err, err_len, "krbd: expected read, randread or restore, not '%s'",
		         nwords > 1 ? words[1] : "");
	else if (strcmp(words[0], "fs") == 0)
		snprintf(err, err_len, "fs: expected write, read or meta, not '%s'",
		         nwords > 1 ? words[1] : "");
	else if (strcmp(words[0], "group") == 0)
		snprintf(err, err_len, "group: expected report, rm or ls, not '%s'",
		         nwords > 1 ? words[1] : "");
	else
		snprintf(err, err_len, "unknown command '%s'", words[0]);
	return -EINVAL;
}

int ccb_cli_validate(const struct ccb_cli *cli, char *err, size_t err_len)
{
	if (ccb_opts_validate(&cli->opts, cli->cmd_mask, err, err_len) < 0)
		return -EINVAL;
	if (cli->ops && cli->ops->validate && cli->ops->validate(&cli->opts, err, err_len) < 0)
		return -EINVAL;
	return 0;
}

const char *ccb_cli_command_of(const struct ccb_path_ops *ops, const char *word)
{
	for (size_t i = 0; ops && i < N_COMMANDS; i++) {
		const char *sp = strchr(commands[i].name, ' ');

		if (commands[i].ops && strcmp(commands[i].ops->name, ops->name) == 0 && sp &&
		    strcmp(sp + 1, word) == 0)
			return commands[i].name;
	}
	return NULL;
}

const char *ccb_cli_sibling(const struct ccb_cli *cli, const char *word)
{
	return ccb_cli_command_of(cli->ops, word);
}
