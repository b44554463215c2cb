/*
 * Fuzz target: the command line (src/cli/cli.c). The input is argv[1..],
 * split on NUL or newline; it is parsed as ccbench parses its argv, then
 * the options are validated for the command found and shown as JSON, as
 * main.c does before anything connects. Also selects a command by name
 * the way the sweep loader does (the input's first word pair).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/commands.h>
#include <ccbench/path.h>
#include <ccbench/cli.h>
#include <ccbench/help.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2], err[1024], prog[] = "ccbench";
	struct ccb_cli cli;
	int argc = 0;
	size_t start = 0;

	/* Once; later calls return at once (the option table is built). */
	if (ccb_commands_init() < 0)
		abort();
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = prog;
	for (size_t i = 0; i <= size && argc <= MAX_ARGS; i++) {
		if (i == size || buf[i] == '\n' || buf[i] == '\0') {
			buf[i] = '\0';
			if (i > start || i < size) /* an empty argument is an argument */
				argv[argc++] = buf + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;

	err[0] = '\0';
	if (ccb_cli_parse(argc, argv, &cli, err, sizeof(err)) == 0) {
		if (cli.help && devnull) {
			if (cli.command)
				ccb_help_command(devnull, ccb_cli_command_find(cli.command));
			else
				ccb_help_overview(devnull, cli.help_group);
		}
		if (cli.command && !cli.help) {
			json_t *j;
			char *s;

			err[0] = '\0';
			if (ccb_cli_validate(&cli, err, sizeof(err)) < 0 && !err[0]) {
				fprintf(stderr, "%s: options refused without a message\n",
				        cli.command);
				abort();
			}
			j = ccb_opts_to_json(&cli.opts, cli.cmd_mask);
			s = json_dumps(j, JSON_COMPACT);
			free(s);
			json_decref(j);
		}
	} else if (!err[0]) {
		fprintf(stderr, "argv refused without a message\n");
		abort();
	}
	/* The sweep's way in: a command named in a config. */
	if (argc >= 2) {
		struct ccb_cli sel;
		char name[128];

		ccb_opts_defaults(&sel.opts);
		snprintf(name, sizeof(name), "%s%s%s", argv[1], argc >= 3 ? " " : "",
		         argc >= 3 ? argv[2] : "");
		ccb_cli_select(&sel, name, err, sizeof(err));
	}
	free(buf);
	return 0;
}
