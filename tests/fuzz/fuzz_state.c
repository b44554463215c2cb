/*
 * Fuzz target: the crash state file and the records in it -- what
 * `ccbench restore` reads back from the state directory after a
 * killed run (src/undo/undo.c ccb_undo_state_stranded and _report) and the
 * check each record gets before its undo (src/paths/krbd/read_ahead.c read_ahead_kb,
 * src/paths/krbd/map_restore.c ccb_map_restore: loop, fuse, krbd_map;
 * src/paths/fs/fs_restore.c ccb_fsmount_restore: fs_mount).
 *
 * The input is the contents of one state file, DIR/run-1-1.json. DIR and
 * the sysfs root are empty directories of the target's own, so no record
 * can name anything that exists: a restore that acts anyway (detaches a
 * loop device, unmaps, unmounts, kills, writes outside the temporary
 * directory) trusted a record it should have refused, and the sandbox
 * (sandbox.c) aborts on the attempt. Then the file is rewritten with the
 * records that failed, as `restore` does (ccb_undo_state_resolve,
 * inside the temporary directory); the next input overwrites it.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ccbench/commands.h>
#include <ccbench/path.h>
#include <ccbench/fs_mount.h>
#include "../../src/paths/krbd/mapping.h"
#include "../../src/paths/krbd/read_ahead.h"
#include <ccbench/sysfs.h>
#include <ccbench/undo.h>

#include "sandbox.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char file[PATH_MAX];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[PATH_MAX];

	(void)argc;
	(void)argv;
	ccb_fuzz_path(dir, sizeof(dir), "state");
	if (mkdir(dir, 0700) < 0)
		abort();
	setenv("CCB_STATE_DIR", dir, 1);
	snprintf(file, sizeof(file), "%s/run-1-1.json", dir);
	ccb_fuzz_path(dir, sizeof(dir), "sys");
	if (mkdir(dir, 0700) < 0)
		abort();
	setenv("CCB_SYSFS_ROOT", dir, 1);
	return 0;
}

/* What `ccbench restore` (src/undo/restore.c) does with each record, newest first. */
static void restore_all(const json_t *files)
{
	char msg[PATH_MAX + 256];
	const json_t *f;
	size_t i;

	json_array_foreach(files, i, f)
	{
		const json_t *entries = json_object_get(f, "entries");
		const char *path = json_string_value(json_object_get(f, "file"));
		json_t *left = json_array();

		for (size_t j = json_array_size(entries); j-- > 0;) {
			const json_t *e = json_array_get(entries, j);
			const char *kind = json_string_value(json_object_get(e, "kind"));
			int r;

			msg[0] = '\0';
			if (kind && strcmp(kind, "read_ahead_kb") == 0) {
				const char *disk = json_string_value(json_object_get(e, "disk"));
				uint64_t orig =
				    (uint64_t)json_integer_value(json_object_get(e, "original"));
				uint64_t set =
				    (uint64_t)json_integer_value(json_object_get(e, "set"));

				r = disk ? ccb_sysfs_restore_read_ahead_kb(disk, orig, set, msg,
				                                           sizeof(msg))
				         : -EINVAL;
			} else if (kind && strcmp(kind, "fs_mount") == 0) {
				r = ccb_fsmount_restore(e, msg, sizeof(msg));
			} else {
				r = ccb_map_restore(e, msg, sizeof(msg));
			}
			/* Kept for a later restore, as src/undo/restore.c keeps it. */
			if (r < 0)
				json_array_insert(left, 0, (json_t *)e);
		}
		if (path)
			ccb_undo_state_resolve(path, left);
		json_decref(left);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *files = NULL;

	/* Once; later calls return at once (the option table is built). */
	if (ccb_commands_init() < 0)
		abort();
	ccb_fuzz_write_file(file, data, size);
	if (ccb_undo_state_stranded(&files) == 0)
		restore_all(files);
	json_decref(files);
	ccb_undo_state_report();
	return 0;
}
