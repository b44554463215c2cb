/*
 * Fuzz target: the sweep config loader (src/sweep/sweep.c, ccb_sweep_load):
 * JSON to checked points, every point built through the option table and
 * validated as a run would be, without running any. The input is the
 * config file's contents.
 */
#include <limits.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <ccbench/commands.h>
#include <ccbench/path.h>
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
	/* The defaults come from the option table, which the registry builds. */
	if (ccb_commands_init() < 0)
		abort();
	/* As `ccbench sweep CONFIG` with no options gives them to every point. */
	ccb_opts_defaults(&sweep_opts);
	return 0;
}

/*
 * Points in the config's matrix. Loading costs time linear in the points
 * (each is built and checked), and a grid near the loader's own limit of
 * 100000 legitimately takes seconds under the sanitizers: such inputs
 * would be reported as hangs by -timeout. Smaller grids exercise the same
 * code, and grids over the limit are still fed (refused before building).
 */
static size_t matrix_points(const uint8_t *data, size_t size)
{
	json_t *cfg = json_loadb((const char *)data, size, 0, NULL), *v;
	const char *key;
	size_t total = 1;

	json_object_foreach(json_object_get(cfg, "matrix"), key, v)
	{
		size_t n = json_array_size(v);
		if (n && total > SIZE_MAX / n) {
			total = SIZE_MAX;
			break;
		}
		total *= n ? n : 1;
	}
	json_decref(cfg);
	return total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *cfg = NULL, *points = NULL;
	char err[1024] = "";
	size_t n_points = matrix_points(data, size);

	if (n_points > 2000 && n_points <= 100000)
		return 0;
	ccb_fuzz_write_file(path, data, size);
	if (ccb_sweep_load(path, &sweep_opts, &cfg, &points, err, sizeof(err)) == 0) {
		if (!json_is_array(points) || !json_array_size(points)) {
			fprintf(stderr, "sweep config accepted with no points\n");
			abort();
		}
	} else if (!err[0]) {
		fprintf(stderr, "sweep config refused without a message\n");
		abort();
	} else {
		fprintf(ccb_fuzz_stderr, "ccbench: sweep: %s\n", err);
	}
	json_decref(cfg);
	json_decref(points);
	return 0;
}
