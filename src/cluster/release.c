/*
 * The Ceph releases of a result: the client libraries' runtime versions
 * and the cluster daemons' versions as the mon reports them, their names,
 * and how two documents' releases compare (for compare's gate).
 */
/* libcephfs refuses a 32-bit off_t (its readdir results would be corrupt). */
#define _FILE_OFFSET_BITS 64

#include <ccbench/cluster.h>
#include <ccbench/release.h>

#include <cephfs/libcephfs.h>
#include <rbd/librbd.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* Upstream's names, by major version; a release past the table names
 * itself in the daemons' version strings ("ceph version 22.1.0 (...) v
 * (dev)"), which ccb_release_parse() takes. */
static const char *const names[] = {
    [10] = "jewel",    [11] = "kraken",  [12] = "luminous", [13] = "mimic",
    [14] = "nautilus", [15] = "octopus", [16] = "pacific",  [17] = "quincy",
    [18] = "reef",     [19] = "squid",   [20] = "tentacle", [21] = "umbrella",
};

const char *ccb_release_name(int major)
{
	if (major < 0 || (size_t)major >= sizeof(names) / sizeof(names[0]))
		return NULL;
	return names[major];
}

/* The major version of release @p name; unknown names sort after all. */
static int name_rank(const char *name)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i] && strcmp(names[i], name) == 0)
			return (int)i;
	return 1000;
}

int ccb_release_parse(const char *text, char *version, size_t version_len, char *name,
                      size_t name_len)
{
	const char *v = text ? text : "", *p, *sha;
	bool daemon = strncmp(v, "ceph version ", 13) == 0, digit;
	char *end;
	long major = -1;
	size_t n;

	if (version_len)
		version[0] = '\0';
	snprintf(name, name_len, "unknown");
	if (daemon)
		v += 13;
	digit = v[0] >= '0' && v[0] <= '9';
	n = strcspn(v, " \t\n");
	/* A number, or a development build's tag after "ceph version". */
	if (n && version_len && (digit || daemon))
		snprintf(version, version_len, "%.*s", (int)n, v);
	if (digit) {
		major = strtol(v, &end, 10);
		if (end == v || (*end != '.' && *end != '\0' && *end != ' ') || major > 999)
			major = -1;
	}
	/* The name the text gives: "(SHA1) reef (stable)". */
	sha = strchr(v, '(');
	p = sha ? strchr(sha, ')') : NULL;
	if (p) {
		p += strspn(p + 1, " ") + 1;
		n = strcspn(p, " (\t\n");
		if (n)
			snprintf(name, name_len, "%.*s", (int)n, p);
	}
	if (ccb_release_name((int)major))
		snprintf(name, name_len, "%s", ccb_release_name((int)major));
	return major < 0 ? -EINVAL : (int)major;
}

json_t *ccb_release_client(void)
{
	int major, minor, extra, cmaj = 0, cmin = 0, cpatch = 0;
	char rados[32], rbd[32], version[64], name[32];
	const char *ceph = ceph_version(&cmaj, &cmin, &cpatch);
	struct utsname u;
	json_t *c;

	rados_version(&major, &minor, &extra);
	snprintf(rados, sizeof(rados), "%d.%d.%d", major, minor, extra);
	rbd_version(&major, &minor, &extra);
	snprintf(rbd, sizeof(rbd), "%d.%d.%d", major, minor, extra);
	ccb_release_parse(ceph, version, sizeof(version), name, sizeof(name));
	c = json_pack("{s:s, s:s, s:s, s:s, s:s}", "ceph_version", ceph ? ceph : "", "release",
	              name, "librados", rados, "librbd", rbd, "libcephfs", ceph ? ceph : "");
	if (c && uname(&u) == 0)
		json_object_set_new(c, "kernel", json_string(u.release));
	return c;
}

/* Append @p s to the string array @p a unless it holds it already. */
static void add_unique(json_t *a, const char *s)
{
	const json_t *v;
	size_t i;

	if (!s || !*s)
		return;
	json_array_foreach(a, i, v) if (strcmp(json_string_value(v), s) == 0) return;
	json_array_append_new(a, json_string(s));
}

static int by_version(const void *a, const void *b)
{
	return strverscmp(json_string_value(*(json_t *const *)a),
	                  json_string_value(*(json_t *const *)b));
}

static int by_rank(const void *a, const void *b)
{
	const char *x = json_string_value(*(json_t *const *)a);
	const char *y = json_string_value(*(json_t *const *)b);
	int rx = name_rank(x), ry = name_rank(y);

	return rx != ry ? (rx < ry ? -1 : 1) : strcmp(x, y);
}

/* @p a (strings) sorted in place with @p cmp. */
static void sort_array(json_t *a, int (*cmp)(const void *, const void *))
{
	size_t n = json_array_size(a);
	json_t **v = n ? calloc(n, sizeof(*v)) : NULL;

	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(a, i));
	qsort(v, n, sizeof(*v), cmp);
	json_array_clear(a);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, v[i]);
	free(v);
}

/* "pacific+reef" of the names in @p a (sorted by rank). */
static json_t *joined(const json_t *a)
{
	char buf[256] = "";
	size_t i, o = 0;
	const json_t *v;

	json_array_foreach(a, i, v)
	{
		int n =
		    snprintf(buf + o, sizeof(buf) - o, "%s%s", i ? "+" : "", json_string_value(v));
		if (n < 0 || (size_t)n >= sizeof(buf) - o)
			break;
		o += (size_t)n;
	}
	return json_string(buf);
}

json_t *ccb_release_cluster_parse(const json_t *versions)
{
	json_t *vs = json_array(), *rel = json_array(), *out = NULL;
	const json_t *daemons, *by;
	const char *type, *text;
	char version[64], name[32];

	if (!vs || !rel)
		goto out;
	json_object_foreach((json_t *)versions, type, daemons)
	{
		/* "overall" repeats the others. */
		if (strcmp(type, "overall") == 0 || !json_is_object(daemons))
			continue;
		json_object_foreach((json_t *)daemons, text, by)
		{
			ccb_release_parse(text, version, sizeof(version), name, sizeof(name));
			add_unique(vs, version[0] ? version : text);
			add_unique(rel, name);
		}
	}
	if (!json_array_size(rel)) {
		out = json_pack("{s:s}", "error", "the mon's versions reply names no daemon");
		goto out;
	}
	sort_array(vs, by_version);
	sort_array(rel, by_rank);
	out = json_pack("{s:o, s:O, s:O}", "release", joined(rel), "ceph_versions", vs, "versions",
	                versions);
out:
	json_decref(vs);
	json_decref(rel);
	return out;
}

json_t *ccb_release_cluster(rados_t r)
{
	int err = 0;
	json_t *v =
	    ccb_cluster_mon_json(r, "{\"prefix\": \"versions\", \"format\": \"json\"}", &err);
	json_t *c;
	char why[128];

	if (!v) {
		snprintf(why, sizeof(why), "mon command versions: %s", strerror(-err));
		return json_pack("{s:s}", "error", why);
	}
	c = ccb_release_cluster_parse(v);
	json_decref(v);
	return c;
}

/* Fold one side (@p s, a result's or a summary's) into @p acc's side. */
static int add_side(json_t *acc, const char *side, const json_t *s)
{
	const char *rel = json_string_value(json_object_get(s, "release"));
	json_t *a = json_object_get(acc, side), *vs, *names_a;
	const json_t *v;
	size_t i;

	if (!rel || !*rel)
		return 0;
	if (!a) {
		a = json_pack("{s:s, s:[]}", "release", "", "ceph_versions");
		if (!a || json_object_set_new(acc, side, a) < 0)
			return -ENOMEM;
	}
	vs = json_object_get(a, "ceph_versions");
	add_unique(vs, json_string_value(json_object_get(s, "ceph_version")));
	json_array_foreach(json_object_get(s, "ceph_versions"), i, v)
	    add_unique(vs, json_string_value(v));
	sort_array(vs, by_version);
	/* The names, from both "a+b" strings. */
	names_a = json_array();
	if (!names_a)
		return -ENOMEM;
	for (int k = 0; k < 2; k++) {
		const char *t = k ? rel : json_string_value(json_object_get(a, "release"));
		char buf[256], *save = NULL;

		snprintf(buf, sizeof(buf), "%s", t ? t : "");
		for (char *w = strtok_r(buf, "+", &save); w; w = strtok_r(NULL, "+", &save))
			add_unique(names_a, w);
	}
	sort_array(names_a, by_rank);
	json_object_set_new(a, "release", joined(names_a));
	json_decref(names_a);
	return 0;
}

int ccb_release_add(json_t *acc, const json_t *releases)
{
	static const char *const sides[] = {"client", "cluster"};
	int r = 0;

	if (!json_is_object(acc) || !json_is_object(releases))
		return 0;
	for (size_t k = 0; k < 2 && r == 0; k++)
		r = add_side(acc, sides[k], json_object_get(releases, sides[k]));
	return r;
}

json_t *ccb_release_of_doc(const json_t *doc)
{
	json_t *acc = json_object();
	const json_t *p, *run;
	size_t i, j;
	int r = 0;

	if (!acc)
		return NULL;
	if (json_is_array(json_object_get(doc, "points"))) {
		json_array_foreach(json_object_get(doc, "points"), i, p)
		    json_array_foreach(json_object_get(p, "runs"), j, run) r |=
		    ccb_release_add(acc, json_object_get(run, "releases"));
	} else if (json_is_array(json_object_get(doc, "members"))) {
		json_array_foreach(json_object_get(doc, "members"), i, p) r |=
		    ccb_release_add(acc, json_object_get(json_object_get(p, "result"), "releases"));
	} else {
		r = ccb_release_add(acc, json_object_get(doc, "releases"));
	}
	if (r < 0) {
		json_decref(acc);
		return NULL;
	}
	return acc;
}

/* "16.2.15, 18.2.7" of a side's ceph_versions. */
static void versions_text(const json_t *s, char *buf, size_t len)
{
	const json_t *v;
	size_t i, o = 0;

	buf[0] = '\0';
	json_array_foreach(json_object_get(s, "ceph_versions"), i, v)
	{
		/* A saved document may hold anything: strings only. */
		int n = json_is_string(v) ? snprintf(buf + o, len - o, "%s%s", o ? ", " : "",
		                                     json_string_value(v))
		                          : 0;
		if (n < 0 || (size_t)n >= len - o)
			break;
		o += (size_t)n;
	}
	if (!buf[0] && json_string_value(json_object_get(s, "ceph_version")))
		snprintf(buf, len, "%s", json_string_value(json_object_get(s, "ceph_version")));
}

enum ccb_release_diff ccb_release_compare(const json_t *base, const json_t *cur, char *why,
                                          size_t why_len)
{
	static const char *const sides[] = {"cluster", "client"};
	enum ccb_release_diff worst = CCB_RELEASE_SAME;
	size_t o = 0, checked = 0;

	why[0] = '\0';
	for (size_t k = 0; k < 2; k++) {
		const json_t *b = json_object_get(base, sides[k]);
		const json_t *c = json_object_get(cur, sides[k]);
		const char *br = json_string_value(json_object_get(b, "release"));
		const char *cr = json_string_value(json_object_get(c, "release"));
		char bv[128], cv[128];
		enum ccb_release_diff d;
		int n;

		if (!br || !cr || !*br || !*cr) {
			if ((br && *br) != (cr && *cr)) {
				n = snprintf(why + o, why_len - o, "%s%s: named in the %s only",
				             o ? "; " : "", sides[k], br ? "baseline" : "current");
				if (n > 0 && (size_t)n < why_len - o)
					o += (size_t)n;
			}
			continue;
		}
		checked++;
		versions_text(b, bv, sizeof(bv));
		versions_text(c, cv, sizeof(cv));
		if (strcmp(br, cr) != 0)
			d = CCB_RELEASE_CHANGED;
		else if (!json_equal(json_object_get(b, "ceph_versions"),
		                     json_object_get(c, "ceph_versions")))
			d = CCB_RELEASE_VERSIONS;
		else
			continue;
		n = snprintf(why + o, why_len - o, "%s%s: %s (%s) -> %s (%s)", o ? "; " : "",
		             sides[k], br, bv, cr, cv);
		if (n > 0 && (size_t)n < why_len - o)
			o += (size_t)n;
		if (d > worst)
			worst = d;
	}
	return checked ? worst : CCB_RELEASE_UNKNOWN;
}

void ccb_release_text(const json_t *releases, char *buf, size_t len)
{
	const json_t *cl = json_object_get(releases, "cluster");
	const json_t *cli = json_object_get(releases, "client");
	char v[128];
	size_t o = 0;
	int n;

	buf[0] = '\0';
	if (json_string_value(json_object_get(cl, "release"))) {
		versions_text(cl, v, sizeof(v));
		n = snprintf(buf, len, "cluster %s (%s)",
		             json_string_value(json_object_get(cl, "release")), v);
		o = n > 0 && (size_t)n < len ? (size_t)n : 0;
	} else if (json_string_value(json_object_get(cl, "error"))) {
		n = snprintf(buf, len, "cluster unknown (%s)",
		             json_string_value(json_object_get(cl, "error")));
		o = n > 0 && (size_t)n < len ? (size_t)n : 0;
	}
	if (json_string_value(json_object_get(cli, "release")) && o < len) {
		const char *rados = json_string_value(json_object_get(cli, "librados"));
		const char *rbd = json_string_value(json_object_get(cli, "librbd"));

		versions_text(cli, v, sizeof(v));
		if (rados && rbd)
			snprintf(buf + o, len - o, "%sclient %s (%s: librados %s, librbd %s)",
			         o ? ", " : "", json_string_value(json_object_get(cli, "release")),
			         v, rados, rbd);
		else
			snprintf(buf + o, len - o, "%sclient %s (%s)", o ? ", " : "",
			         json_string_value(json_object_get(cli, "release")), v);
	}
}
