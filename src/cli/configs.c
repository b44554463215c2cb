/*
 * Shipped sweep configs by name. A build tree and an installed package
 * both answer `ccbench sweep quick`: the build tree through the "configs"
 * link CMake puts beside the executable, the package through its data
 * directory. The executable's own directory is asked first so that a
 * freshly built binary reads the repository's configs, not an older
 * installed set.
 */
#include <ccbench/configs.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The config directories, in search order, into @p dirs; returns how many (1 or 2). */
static int config_dirs(char dirs[2][PATH_MAX])
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int k = 0;

	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (snprintf(dirs[k], PATH_MAX, "%s/configs", exe) < PATH_MAX &&
			    is_dir(dirs[k]))
				k++;
		}
	}
	snprintf(dirs[k++], PATH_MAX, "%s", CCB_CONFIGS_DIR);
	return k;
}

int ccb_configs_dir(char *dir, size_t dir_len)
{
	char dirs[2][PATH_MAX];
	int n = config_dirs(dirs);

	snprintf(dir, dir_len, "%s", dirs[0]);
	return n > 1 || is_dir(dirs[0]) ? 0 : -ENOENT;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "compare-paths, quick, ..." (the *.json names of @p dir, sorted) into @p out. */
static void list_names(const char *dir, char *out, size_t out_len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *names[256];
	size_t n = 0, used = 0;

	out[0] = '\0';
	if (!d) {
		snprintf(out, out_len, "none: %s", strerror(errno));
		return;
	}
	while ((e = readdir(d)) && n < sizeof(names) / sizeof(names[0])) {
		size_t l = strlen(e->d_name);

		if (l > 5 && e->d_name[0] != '.' && strcmp(e->d_name + l - 5, ".json") == 0)
			if ((names[n] = strndup(e->d_name, l - 5)))
				n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), by_name);
	for (size_t i = 0; i < n; i++) {
		if (used < out_len)
			used += (size_t)snprintf(out + used, out_len - used, "%s%s", i ? ", " : "",
			                         names[i]);
		free(names[i]);
	}
	if (n == 0)
		snprintf(out, out_len, "none");
}

int ccb_configs_find(const char *name, char *path, size_t path_len, char *err, size_t err_len)
{
	char dirs[2][PATH_MAX], names[1024];
	int n;

	if (is_file(name)) {
		if (snprintf(path, path_len, "%s", name) >= (int)path_len) {
			snprintf(err, err_len, "config '%s': path too long", name);
			return -ENAMETOOLONG;
		}
		return 0;
	}
	n = config_dirs(dirs);
	for (int i = 0; i < n && name[0] && !strchr(name, '/'); i++) {
		static const char *const suffix[] = {"", ".json"};

		for (int s = 0; s < 2; s++) {
			if (snprintf(path, path_len, "%s/%s%s", dirs[i], name, suffix[s]) <
			        (int)path_len &&
			    is_file(path))
				return 0;
		}
	}
	list_names(dirs[0], names, sizeof(names));
	snprintf(err, err_len, "no config '%s': not a file, nor a shipped config (%s: %s)", name,
	         dirs[0], names);
	path[0] = '\0';
	return -ENOENT;
}
