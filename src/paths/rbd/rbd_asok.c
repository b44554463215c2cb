/*
 * The admin socket protocol (Ceph's AdminSocket): the client writes a JSON
 * command and a NUL byte; the reply is a 4-byte big-endian length, then
 * that many bytes of JSON.
 */
#include "rbd_asok.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <ccbench/clock.h>
#include <ccbench/engine.h>
#include <ccbench/options.h>
#include <ccbench/undo.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>

/* A counter dump of one client is some tens of KiB; far more is not one. */
#define ASOK_MAX_REPLY (16u << 20)

static int wait_fd(int fd, short ev, uint64_t deadline_nsec)
{
	uint64_t now = ccb_now_nsec();
	struct pollfd p = {.fd = fd, .events = ev};
	int r;

	if (now >= deadline_nsec)
		return -ETIMEDOUT;
	r = poll(&p, 1, (int)((deadline_nsec - now) / 1000000 + 1));
	if (r < 0)
		return -errno;
	return r == 0 ? -ETIMEDOUT : 0;
}

/* All of @p len bytes, or -errno. */
static int io_all(int fd, bool out, char *buf, size_t len, uint64_t deadline_nsec)
{
	size_t done = 0;

	while (done < len) {
		int r = wait_fd(fd, out ? POLLOUT : POLLIN, deadline_nsec);
		if (r < 0)
			return r;
		ssize_t n = out ? send(fd, buf + done, len - done, MSG_NOSIGNAL)
		                : recv(fd, buf + done, len - done, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPROTO;
		done += (size_t)n;
	}
	return 0;
}

/* One command, by @p deadline_nsec (see ccb_rbd_asok_command()). */
static int asok_command(const char *path, const char *prefix, uint64_t deadline, json_t **out)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char cmd[128];
	char *reply = NULL;
	uint32_t be;
	int fd, r;

	*out = NULL;
	/* Sent with its NUL. */
	if ((size_t)snprintf(cmd, sizeof(cmd), "{\"prefix\":\"%s\"}", prefix) >= sizeof(cmd))
		return -EINVAL;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = -errno;
		if (r != -EINPROGRESS && r != -EAGAIN)
			goto out;
		r = wait_fd(fd, POLLOUT, deadline);
		if (r < 0)
			goto out;
	}
	r = io_all(fd, true, cmd, strlen(cmd) + 1, deadline);
	if (r < 0)
		goto out;
	r = io_all(fd, false, (char *)&be, sizeof(be), deadline);
	if (r < 0)
		goto out;
	uint32_t len = ntohl(be);
	if (len == 0 || len > ASOK_MAX_REPLY) {
		r = -EPROTO;
		goto out;
	}
	reply = malloc(len);
	if (!reply) {
		r = -ENOMEM;
		goto out;
	}
	r = io_all(fd, false, reply, len, deadline);
	if (r < 0)
		goto out;
	*out = json_loadb(reply, len, 0, NULL);
	r = json_is_object(*out) ? 0 : -EPROTO;
	if (r < 0) {
		json_decref(*out);
		*out = NULL;
	}
out:
	free(reply);
	close(fd);
	return r;
}

int ccb_rbd_asok_command(const char *path, const char *prefix, int timeout_ms, json_t **out)
{
	return asok_command(path, prefix, ccb_now_nsec() + (uint64_t)timeout_ms * 1000000, out);
}

json_t *ccb_rbd_asok_flatten(const json_t *counters)
{
	json_t *out = json_object();
	const json_t *list, *e;
	const char *key;
	size_t i;

	if (!out || !json_is_object(counters))
		goto bad;
	json_object_foreach((json_t *)counters, key, list)
	{
		if (!json_is_array(list))
			goto bad;
		json_array_foreach(list, i, e)
		{
			const json_t *labels = json_object_get(e, "labels"), *v;
			const json_t *c = json_object_get(e, "counters");
			char name[256];
			const char *lk;
			size_t o;
			int n;

			if (!json_is_object(c))
				goto bad;
			n = snprintf(name, sizeof(name), "%s", key);
			o = n > 0 && (size_t)n < sizeof(name) ? (size_t)n : sizeof(name) - 1;
			/* A labeled section keeps its labels in its name, so that
			 * two instances stay two sections, as perf dump names them. */
			json_object_foreach((json_t *)labels, lk, v)
			{
				n = snprintf(name + o, sizeof(name) - o, "%s%s=%s",
				             o == strlen(key) ? "{" : ",", lk,
				             json_is_string(v) ? json_string_value(v) : "?");
				if (n < 0 || (size_t)n >= sizeof(name) - o)
					break;
				o += (size_t)n;
			}
			if (o > strlen(key) && o + 1 < sizeof(name))
				snprintf(name + o, sizeof(name) - o, "}");
			json_object_set(out, name, (json_t *)c);
		}
	}
	return out;
bad:
	json_decref(out);
	return NULL;
}

int ccb_rbd_asok_counters(const char *path, int timeout_ms, json_t **out, const char **source)
{
	uint64_t deadline = ccb_now_nsec() + (uint64_t)timeout_ms * 1000000;
	json_t *dump = NULL;
	int r;

	/* "counter dump" (Reef 18 and later) holds every counter, labeled
	 * or not; "perf dump" is deprecated there, and labeled counters
	 * never reach it. Pacific answers "unknown command" (not JSON):
	 * then perf dump, within what is left of the time. */
	r = asok_command(path, "counter dump", deadline, &dump);
	if (r == 0) {
		*out = ccb_rbd_asok_flatten(dump);
		json_decref(dump);
		if (*out) {
			*source = "counter dump";
			return 0;
		}
	} else if (r == -ETIMEDOUT) {
		return r;
	}
	r = asok_command(path, "perf dump", deadline, out);
	if (r == 0)
		*source = "perf dump";
	return r;
}

/* ---- a client's socket and its cache counters ------------------------------ */

/* The socket directory: the sockets librados left (c<N>.asok), then it. */
static int undo_asok_dir(void *arg)
{
	const char *dir = arg;
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[PATH_MAX];

	while (d && (e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (e->d_name[0] == 'c' && l > 5 && strcmp(e->d_name + l - 5, ".asok") == 0) {
			snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
			unlink(p);
		}
	}
	if (d)
		closedir(d);
	return rmdir(dir) < 0 && errno != ENOENT ? -errno : 0;
}

/*
 * A reader with rbd_cache on gets an admin socket of its own, so that its
 * ObjectCacher's counters can be read at the end: what the cache served
 * and what it fetched. Failing that costs only the figures.
 */
void ccb_rbd_asok_setup(const struct ccb_opts *o, rados_t r, unsigned idx, char *dir,
                        size_t dir_len, char *asok, size_t asok_len)
{
	char on[16] = "", policy[32] = "";

	if (rados_conf_get(r, "rbd_cache", on, sizeof(on)) < 0 || strcmp(on, "true") != 0)
		return;
	/* writearound (librbd's default) has no object cacher, so no cache
	 * counters to read: a socket would only make a false warning. */
	if (rados_conf_get(r, "rbd_cache_policy", policy, sizeof(policy)) < 0 ||
	    strcmp(policy, "writearound") == 0)
		return;
	/* A socket the user asked for (-o admin_socket=...) stays theirs. */
	for (unsigned i = 0; i < o->n_sets; i++)
		if (strncmp(o->sets[i], "admin_socket=", 13) == 0)
			return;
	if (!dir[0]) {
		/* $TMPDIR if short enough: a socket's path fits in 108 bytes. */
		const char *t = getenv("TMPDIR");
		char tmpl[64];
		char *copy;

		if (!t || !*t || strlen(t) > 32)
			t = "/tmp";
		snprintf(tmpl, sizeof(tmpl), "%s/ccbench-asok-XXXXXX", t);
		if (!mkdtemp(tmpl))
			return;
		copy = strdup(tmpl);
		if (!copy || ccb_undo_push("remove the admin socket directory", undo_asok_dir, copy,
		                           free) < 0) {
			rmdir(tmpl);
			free(copy);
			return;
		}
		snprintf(dir, dir_len, "%s", tmpl);
	}
	snprintf(asok, asok_len, "%s/c%u.asok", dir, idx);
	if (rados_conf_set(r, "admin_socket", asok) < 0)
		asok[0] = 0;
}

static double counter(const json_t *sec, const char *key)
{
	const json_t *v = json_object_get(sec, key);

	return json_is_number(v) ? json_number_value(v) : 0;
}

/*
 * Add this client's figures to layout.librbd.cache. What the cluster
 * delivered is the bytes the client's messenger received (replies' headers
 * and maps too, so a little more). The ObjectCacher's own counters do not
 * say it: measured (64M, 64K sequential), data_read counts librbd's
 * readahead requests beside the user's (128M at readahead 4M, 64M at 0),
 * cache_bytes_miss counts a read that waits for a readahead in flight as
 * a miss (119M at 4M), and cache_bytes_hit counts again at each retry of a
 * waiting read (4G); the messenger received 64M in both. They are kept as
 * they are, under their own names.
 */
void ccb_rbd_asok_collect(struct ccb_run *run, const char *asok, bool *failed)
{
	static const char *const keys[] = {"cache_bytes_hit", "cache_bytes_miss", "data_read"};
	json_t *dump = NULL, *oc = NULL, *lib = json_object_get(run->layout, "librbd"), *v, *c;
	const char *key, *source = NULL;
	double recv = 0;

	if (!asok[0] || *failed || !json_is_object(lib))
		return;
	if (ccb_rbd_asok_counters(asok, 1000, &dump, &source) == 0)
		json_object_foreach(dump, key, v)
		{
			if (strncmp(key, "objectcacher-librbd", 19) == 0)
				oc = v;
			if (strncmp(key, "AsyncMessenger::Worker", 22) == 0)
				recv += counter(v, "msgr_recv_bytes");
		}
	if (!json_is_object(oc) || recv <= 0) {
		/* A share from some clients only would be wrong: none at all. */
		*failed = true;
		json_object_del(lib, "cache");
		ccb_run_warn(run, "librbd's cache counters could not be read (admin socket %s)",
		             asok);
		json_decref(dump);
		return;
	}
	if (!(c = json_object_get(lib, "cache"))) {
		c = json_object();
		json_object_set_new(lib, "cache", c);
	}
	json_object_set_new(c, "counters_from", json_string(source));
	json_object_set_new(c, "cluster_bytes", json_real(counter(c, "cluster_bytes") + recv));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		json_object_set_new(c, keys[i],
		                    json_real(counter(c, keys[i]) + counter(oc, keys[i])));
	json_decref(dump);
}
