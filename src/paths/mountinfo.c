/*
 * /proc/self/mountinfo, parsed once per question: a mount's type, source
 * and options (see mountinfo.h).
 */
#include "mountinfo.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* Copy the next space-separated field of *@p p into @p out, undoing the
 * kernel's octal escapes (\040 space, \011 tab, \012 newline, \134 '\'). */
static int field(const char **p, char *out, size_t len)
{
	const char *s = *p;
	size_t o = 0;

	while (*s == ' ')
		s++;
	if (!*s || *s == '\n')
		return -EINVAL;
	for (; *s && *s != ' ' && *s != '\n'; s++) {
		char c = *s;

		if (c == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			c = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		}
		if (o + 1 >= len)
			return -EINVAL;
		out[o++] = c;
	}
	out[o] = '\0';
	*p = s;
	return 0;
}

int ccb_mountinfo_parse(const char *line, struct ccb_mountinfo *mi)
{
	char num[64], opt[512];
	const char *p = line;

	memset(mi, 0, sizeof(*mi));
	if (field(&p, num, sizeof(num)) < 0 || sscanf(num, "%d", &mi->id) != 1 ||
	    field(&p, num, sizeof(num)) < 0 || sscanf(num, "%d", &mi->parent) != 1 ||
	    field(&p, num, sizeof(num)) < 0 || sscanf(num, "%u:%u", &mi->major, &mi->minor) != 2 ||
	    field(&p, mi->root, sizeof(mi->root)) < 0 ||
	    field(&p, mi->mountpoint, sizeof(mi->mountpoint)) < 0 ||
	    field(&p, mi->mount_options, sizeof(mi->mount_options)) < 0)
		return -EINVAL;
	/* Optional fields (shared:N, master:N ...) up to the lone "-". */
	for (;;) {
		if (field(&p, opt, sizeof(opt)) < 0)
			return -EINVAL;
		if (strcmp(opt, "-") == 0)
			break;
	}
	if (field(&p, mi->fstype, sizeof(mi->fstype)) < 0 ||
	    field(&p, mi->source, sizeof(mi->source)) < 0)
		return -EINVAL;
	/* Super options may be absent on very old kernels. */
	if (field(&p, mi->super_options, sizeof(mi->super_options)) < 0)
		mi->super_options[0] = '\0';
	return 0;
}

/* @p mp is @p path or a leading run of whole components of it. */
static size_t covers(const char *mp, const char *path)
{
	size_t l = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return 1;
	if (strncmp(mp, path, l) != 0 || (path[l] != '/' && path[l] != '\0'))
		return 0;
	return l;
}

int ccb_mountinfo_of(const char *path, struct ccb_mountinfo *mi)
{
	char real[PATH_MAX], line[4096];
	struct ccb_mountinfo cur;
	struct stat st;
	size_t best = 0;
	FILE *f;

	if (!realpath(path, real) || stat(real, &st) < 0)
		return -errno;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		size_t l;

		if (ccb_mountinfo_parse(line, &cur) < 0 || cur.major != major(st.st_dev) ||
		    cur.minor != minor(st.st_dev))
			continue;
		l = covers(cur.mountpoint, real);
		if (l && l >= best) {
			best = l;
			*mi = cur;
		}
	}
	fclose(f);
	return best ? 0 : -ENOENT;
}

int ccb_mountinfo_at(const char *mountpoint, struct ccb_mountinfo *mi)
{
	struct ccb_mountinfo cur;
	char line[4096];
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (ccb_mountinfo_parse(line, &cur) == 0 &&
		    strcmp(cur.mountpoint, mountpoint) == 0) {
			*mi = cur;
			found = true; /* the last mount on a point is the visible one */
		}
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

const char *ccb_mountinfo_option(const char *opts, const char *key, char *val, size_t val_len)
{
	size_t kl = strlen(key);
	const char *p = opts, *found = NULL;

	while (p && *p) {
		size_t l = strcspn(p, ",");

		if (l >= kl && strncmp(p, key, kl) == 0 && (l == kl || p[kl] == '=')) {
			size_t vl = l > kl ? l - kl - 1 : 0;
			snprintf(val, val_len, "%.*s", (int)vl, p + kl + (l > kl));
			found = val;
		}
		p += l + (p[l] == ',');
	}
	return found;
}

/* The file system type mounted at @p dir ("fuse.rbd-fuse"), or "" when none. */
void ccb_mountinfo_fstype(const char *dir, char *type, size_t len)
{
	struct ccb_mountinfo mi;

	type[0] = '\0';
	if (ccb_mountinfo_at(dir, &mi) == 0)
		snprintf(type, len, "%s", mi.fstype);
}
