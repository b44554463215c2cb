/**
 * @file configs.h
 * The shipped sweep configs: where they are, and a config named by its
 * name rather than a path (`ccbench sweep quick`).
 *
 * Two places are searched, in order: the directory "configs" beside the
 * running executable (a build tree, where CMake links it to the
 * repository's configs/), then CCB_CONFIGS_DIR, the installed data
 * directory (/usr/share/ccbench/configs from the package).
 */
#ifndef CCBENCH_CONFIGS_H
#define CCBENCH_CONFIGS_H

#include <stddef.h>

#ifndef CCB_CONFIGS_DIR
#define CCB_CONFIGS_DIR "/usr/share/ccbench/configs"
#endif

/**
 * The config @p name means, into @p path: @p name itself when it is a
 * regular file; else, for a name without '/', NAME or NAME.json in the
 * first config directory that has it.
 *
 * @return 0; -ENOENT with the reason and the names of the shipped configs
 *         in @p err; -ENAMETOOLONG.
 */
int ccb_configs_find(const char *name, char *path, size_t path_len, char *err, size_t err_len);

/**
 * The directory the shipped configs are read from (the first of the two
 * that exists), into @p dir.
 *
 * @return 0, or -ENOENT when neither exists (@p dir then holds CCB_CONFIGS_DIR).
 */
int ccb_configs_dir(char *dir, size_t dir_len);

#endif
