/*
 * The cluster's word on itself at the start and end of a run, and the
 * local route to it. Read-only: three mon commands that the ceph CLI's
 * `status`, `osd dump` and `mon dump` send, on the run's own control
 * connection, so an unreachable mon costs at most its op timeout
 * (--connect-timeout) per command and never a hang. Paths that lend no
 * rados handle (krbd, CephFS) get a connection of their own for each
 * snapshot from the engine, bounded by the same timeout.
 */
#include <ccbench/host.h>
#include <ccbench/cluster.h>
#include <ccbench/cluster_state.h>

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* One mon command with JSON output, by its prefix. */
static json_t *mon_json(rados_t r, const char *prefix, int *err)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "{\"prefix\": \"%s\", \"format\": \"json\"}", prefix);
	return ccb_cluster_mon_json(r, cmd, err);
}

/* The host part of "127.0.0.1:6800" or "[::1]:6800", once in @p list. */
static void add_host(json_t *list, const char *addr)
{
	char host[64];
	const char *end;
	size_t n, i;
	json_t *v;

	if (!addr || !*addr)
		return;
	if (addr[0] == '[') {
		addr++;
		end = strchr(addr, ']');
	} else {
		end = strrchr(addr, ':');
	}
	n = end ? (size_t)(end - addr) : strlen(addr);
	if (n == 0 || n >= sizeof(host) || json_array_size(list) >= 16)
		return;
	memcpy(host, addr, n);
	host[n] = '\0';
	if (strcmp(host, "0.0.0.0") == 0 || strcmp(host, "::") == 0)
		return;
	json_array_foreach(list, i, v) if (strcmp(json_string_value(v), host) == 0) return;
	json_array_append_new(list, json_string(host));
}

/* Every address of an entity's {"addrvec": [{addr}]}. */
static void add_addrvec(json_t *list, const json_t *addrs)
{
	const json_t *a;
	size_t i;

	json_array_foreach(json_object_get(addrs, "addrvec"), i, a)
	    add_host(list, json_string_value(json_object_get(a, "addr")));
}

static json_int_t count(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

/*
 * Since Luminous the full flags are health checks, not map flags, and
 * their names are not one pattern: POOL_NEARFULL (an OSD of the pool past
 * its nearfull ratio) beside POOL_NEAR_FULL (a pool near its quota), so
 * "FULL" in a name does not mean full. The names, as Pacific 16 through
 * Tentacle 20 raise them (mon/OSDMap.cc, mon/PGMap.cc).
 */
static const struct {
	const char *check, *kind;
} full_checks[] = {
    {"OSD_FULL", "full"},
    {"OSD_FAILSAFE_FULL", "full"},
    {"POOL_FULL", "full"},
    {"OSD_NEARFULL", "nearfull"},
    {"OSD_BACKFILLFULL", "nearfull"},
    {"POOL_NEARFULL", "nearfull"},
    {"POOL_NEAR_FULL", "nearfull"},
    {"POOL_BACKFILLFULL", "nearfull"},
    {"CACHE_POOL_NEAR_FULL", "nearfull"},
};

bool ccb_cluster_state_check_is(const char *check, const char *kind)
{
	for (size_t i = 0; i < sizeof(full_checks) / sizeof(full_checks[0]); i++)
		if (strcmp(check, full_checks[i].check) == 0)
			return strcmp(kind, full_checks[i].kind) == 0;
	return false;
}

json_t *ccb_cluster_state_parse(const json_t *status, const json_t *osd_dump,
                                const json_t *mon_dump)
{
	const json_t *health = json_object_get(status, "health"), *pg, *osd, *m, *v;
	json_t *s = json_object(), *checks = json_object(), *down = json_array();
	json_t *mons = json_array(), *osds = json_array();
	json_int_t degraded = 0, recovering = 0, backfilling = 0, scrubbing = 0, inactive = 0;
	const char *key, *flags = json_string_value(json_object_get(osd_dump, "flags"));
	bool full = false, nearfull = false;
	size_t i;

	if (!s || !checks || !down || !mons || !osds) {
		json_decref(s);
		json_decref(checks);
		json_decref(down);
		json_decref(mons);
		json_decref(osds);
		return NULL;
	}
	json_object_foreach(json_object_get(health, "checks"), key, v)
	{
		const char *msg =
		    json_string_value(json_object_get(json_object_get(v, "summary"), "message"));
		json_object_set_new(checks, key, json_string(msg ? msg : ""));
		full |= ccb_cluster_state_check_is(key, "full");
		nearfull |= ccb_cluster_state_check_is(key, "nearfull");
	}
	if (ccb_cluster_has_flag(flags, "nearfull"))
		nearfull = true;
	if (ccb_cluster_has_flag(flags, "full"))
		full = true;
	json_array_foreach(json_object_get(json_object_get(status, "pgmap"), "pgs_by_state"), i, pg)
	{
		const char *st = json_string_value(json_object_get(pg, "state_name"));
		json_int_t n = count(pg, "count");

		if (!st)
			continue;
		if (strstr(st, "degraded") || strstr(st, "undersized"))
			degraded += n;
		if (strstr(st, "recover"))
			recovering += n;
		if (strstr(st, "backfill"))
			backfilling += n;
		if (strstr(st, "scrubbing"))
			scrubbing += n;
		/* "unknown": the mgr has no stats for the PG yet (a pool just
		 * made), which says nothing of the PG itself. */
		if (!strstr(st, "active") && !strstr(st, "unknown"))
			inactive += n;
	}
	json_array_foreach(json_object_get(osd_dump, "osds"), i, osd)
	{
		char name[32];

		if (count(osd, "up") == 0) {
			snprintf(name, sizeof(name), "osd.%lld", (long long)count(osd, "osd"));
			if (json_array_size(down) < 32)
				json_array_append_new(down, json_string(name));
		} else if (json_object_get(osd, "public_addrs")) {
			add_addrvec(osds, json_object_get(osd, "public_addrs"));
		} else {
			add_host(osds, json_string_value(json_object_get(osd, "public_addr")));
		}
	}
	json_array_foreach(json_object_get(mon_dump, "mons"), i, m)
	    add_addrvec(mons, json_object_get(m, "public_addrs"));
	{
		const char *h = json_string_value(json_object_get(health, "status"));
		json_object_set_new(s, "health", json_string(h ? h : "unknown"));
	}
	json_object_set_new(s, "checks", checks);
	json_object_set_new(
	    s, "osds",
	    json_integer((json_int_t)json_array_size(json_object_get(osd_dump, "osds"))));
	json_object_set_new(
	    s, "osds_up",
	    json_integer((json_int_t)json_array_size(json_object_get(osd_dump, "osds")) -
	                 (json_int_t)json_array_size(down)));
	json_object_set_new(s, "osds_down", down);
	json_object_set_new(s, "full", json_boolean(full));
	json_object_set_new(s, "nearfull", json_boolean(nearfull));
	json_object_set_new(s, "pgs",
	                    json_integer(count(json_object_get(status, "pgmap"), "num_pgs")));
	json_object_set_new(s, "pgs_degraded", json_integer(degraded));
	json_object_set_new(s, "pgs_recovering", json_integer(recovering));
	json_object_set_new(s, "pgs_backfilling", json_integer(backfilling));
	json_object_set_new(s, "pgs_scrubbing", json_integer(scrubbing));
	json_object_set_new(s, "pgs_inactive", json_integer(inactive));
	json_object_set_new(s, "mon_addrs", mons);
	json_object_set_new(s, "osd_addrs", osds);
	return s;
}

json_t *ccb_cluster_state(rados_t r)
{
	json_t *status, *dump = NULL, *mons = NULL, *s;
	int err = 0;

	status = mon_json(r, "status", &err);
	if (status)
		dump = mon_json(r, "osd dump", &err);
	if (!status || !dump) {
		json_decref(status);
		return json_pack("{s:s}", "error", strerror(-err));
	}
	/* Only the mons' addresses: the state stands without them. */
	mons = mon_json(r, "mon dump", &(int){0});
	s = ccb_cluster_state_parse(status, dump, mons);
	json_decref(status);
	json_decref(dump);
	json_decref(mons);
	return s;
}

/* ---- the local route --------------------------------------------------- */

static bool same_addr(const struct sockaddr *a, const struct sockaddr *b)
{
	if (!a || !b || a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		              &((const struct sockaddr_in6 *)b)->sin6_addr, 16) == 0;
	return false;
}

/* Add {addr, role, interface, loopback[, speed_mbps]} for @p host. */
static void route(json_t *out, const char *host, const char *role, struct ifaddrs *ifs)
{
	struct addrinfo hints = {.ai_flags = AI_NUMERICHOST, .ai_socktype = SOCK_DGRAM}, *ai = NULL;
	struct sockaddr_storage local;
	socklen_t len = sizeof(local);
	const char *ifname = NULL;
	bool loopback = false;
	int fd;

	if (getaddrinfo(host, "3300", &hints, &ai) != 0 || !ai)
		return;
	fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	/* A UDP connect picks the route and source address, and sends nothing. */
	if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen) < 0 ||
	    getsockname(fd, (struct sockaddr *)&local, &len) < 0) {
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return;
	}
	close(fd);
	for (struct ifaddrs *i = ifs; i; i = i->ifa_next) {
		if (!same_addr(i->ifa_addr, (struct sockaddr *)&local))
			continue;
		ifname = i->ifa_name;
		loopback = (i->ifa_flags & IFF_LOOPBACK) != 0;
		break;
	}
	/* An address of this host is reached through lo, whichever
	 * interface carries it. */
	if (same_addr(ai->ai_addr, (struct sockaddr *)&local))
		loopback = true;
	if (ai->ai_family == AF_INET &&
	    (ntohl(((struct sockaddr_in *)ai->ai_addr)->sin_addr.s_addr) >> 24) == 127)
		loopback = true;
	if (ai->ai_family == AF_INET6 &&
	    IN6_IS_ADDR_LOOPBACK(&((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr))
		loopback = true;
	freeaddrinfo(ai);

	json_t *p = json_pack("{s:s, s:s, s:s?, s:b}", "addr", host, "role", role, "interface",
	                      loopback ? "lo" : ifname, "loopback", loopback);
	if (!p)
		return;
	if (!loopback && ifname) {
		char path[512], buf[32] = "";
		FILE *f;

		snprintf(path, sizeof(path), "%s/class/net/%s/speed", ccb_sysfs_root(), ifname);
		/* Virtual links (and links down) answer -1 or EINVAL: no speed. */
		f = fopen(path, "re");
		if (f) {
			long mbps = fgets(buf, sizeof(buf), f) ? strtol(buf, NULL, 10) : -1;
			if (mbps > 0)
				json_object_set_new(p, "speed_mbps", json_integer(mbps));
			fclose(f);
		}
	}
	json_array_append_new(out, p);
}

json_t *ccb_cluster_network(const json_t *state)
{
	static const char *const roles[][2] = {{"mon_addrs", "mon"}, {"osd_addrs", "osd"}};
	struct ifaddrs *ifs = NULL;
	json_t *out = json_array(), *a;
	size_t i;

	if (!out)
		return NULL;
	if (getifaddrs(&ifs) < 0)
		ifs = NULL;
	for (size_t k = 0; k < 2; k++)
		json_array_foreach(json_object_get(state, roles[k][0]), i, a)
		    route(out, json_string_value(a), roles[k][1], ifs);
	if (ifs)
		freeifaddrs(ifs);
	return out;
}
