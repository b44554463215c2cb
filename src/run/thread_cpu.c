/*
 * The CPU of the threads of this process and of the host over a run, for
 * explain's client-cpu line: read from /proc, outside the client threads.
 */
#include "thread_cpu.h"

#include <ccbench/engine.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Every thread of this process from /proc/self/task; how many were read. */
size_t ccb_tasks_read(struct ccb_task_cpu *t, size_t max)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return 0;
	while (n < max && (de = readdir(d))) {
		char path[300], line[1024], *p;
		unsigned long long ut, st;
		FILE *f;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/stat", de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		p = fgets(line, sizeof(line), f);
		fclose(f);
		/* "TID (COMM) S PPID ...": COMM may hold ')' and spaces, so from
		 * the last ')'; utime and stime are fields 14 and 15. */
		char *open = p ? strchr(line, '(') : NULL, *close = p ? strrchr(line, ')') : NULL;
		if (!open || !close || close < open ||
		    sscanf(close + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
		           &st) != 2)
			continue;
		t[n].tid = atoi(de->d_name);
		snprintf(t[n].name, sizeof(t[n].name), "%.*s", (int)(close - open - 1), open + 1);
		t[n].ticks = ut + st;
		n++;
	}
	closedir(d);
	return n;
}

/* This host's CPU ticks from /proc/stat: busy (not idle, not iowait) and all. */
bool ccb_host_ticks(uint64_t *busy, uint64_t *all)
{
	unsigned long long v[8] = {0};
	FILE *f = fopen("/proc/stat", "re");
	int n;

	if (!f)
		return false;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
	           &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 4)
		return false;
	*busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	*all = *busy + v[3] + v[4];
	return true;
}

/*
 * The CPU of each client thread (its own clock) and of the busiest other
 * threads (the client library's messengers and finishers: /proc, the
 * difference over the run) against the wall time: explain's client-cpu.
 */
json_t *ccb_thread_cpu(const struct ccb_run *run, const struct ccb_task_cpu *t0, size_t n0,
                       double wall_s, const uint64_t host0[2])
{
	uint64_t host1[2];
	double host_share = -1;

	/* The whole host, the OSDs beside the client included. */
	if (host0[1] && ccb_host_ticks(&host1[0], &host1[1]) && host1[1] > host0[1])
		host_share = (double)(host1[0] - host0[0]) / (double)(host1[1] - host0[1]);
	struct ccb_task_cpu *t1 = calloc(CCB_MAX_TASKS, sizeof(*t1));
	json_t *clients = json_array(), *busiest = json_array();
	double tck = (double)sysconf(_SC_CLK_TCK);
	size_t n1 = t1 ? ccb_tasks_read(t1, CCB_MAX_TASKS) : 0;

	for (unsigned i = 0; i < run->n_clients; i++)
		json_array_append_new(clients, json_real((double)run->clients[i].cpu_nsec / 1e9));
	/* Threads that ran during the run, busiest first, up to 4. */
	for (size_t i = 0; i < n1; i++)
		for (size_t j = 0; j < n0; j++)
			if (t0[j].tid == t1[i].tid && t1[i].ticks >= t0[j].ticks) {
				t1[i].ticks -= t0[j].ticks;
				break;
			}
	for (int k = 0; k < 4; k++) {
		size_t best = n1;
		for (size_t i = 0; i < n1; i++)
			if (t1[i].ticks && (best == n1 || t1[i].ticks > t1[best].ticks) &&
			    strncmp(t1[i].name, "ccb-client-", 11) != 0)
				best = i;
		if (best == n1 || tck <= 0)
			break;
		json_array_append_new(busiest, json_pack("{s:s, s:f}", "name", t1[best].name,
		                                         "cpu_s", (double)t1[best].ticks / tck));
		t1[best].ticks = 0;
	}
	free(t1);
	json_t *tc =
	    json_pack("{s:f, s:o, s:o}", "wall_s", wall_s, "clients", clients, "busiest", busiest);
	if (tc && host_share >= 0)
		json_object_set_new(tc, "host_busy_share", json_real(host_share));
	return tc;
}
