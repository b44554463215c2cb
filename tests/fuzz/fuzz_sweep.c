/*
 * Fuzz target: the sweep config loader (src/sweep.c, ccb_sweep_load):
 * JSON to checked points, every point built through the option table and
 * validated as a run would be, without running any. The input is the
 * config file's contents.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <ccbench/sweep.h>

#include "sandbox.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[PATH_MAX];
static struct ccb_opts sweep_opts;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	ccb_fuzz_path(path, sizeof(path), "config.json");
	/* As `ccbench sweep CONFIG` with no options gives them to every point. */
	ccb_opts_defaults(&sweep_opts);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *cfg = NULL, *points = NULL;
	char err[1024] = "";

	ccb_fuzz_write_file(path, data, size);
	if (ccb_sweep_load(path, &sweep_opts, &cfg, &points, err, sizeof(err)) == 0) {
		if (!json_is_array(points) || !json_array_size(points)) {
			fprintf(stderr, "sweep config accepted with no points\n");
			abort();
		}
	} else if (!err[0]) {
		fprintf(stderr, "sweep config refused without a message\n");
		abort();
	}
	json_decref(cfg);
	json_decref(points);
	return 0;
}
