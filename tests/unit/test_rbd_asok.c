/*
 * Unit tests for src/paths/rbd_asok.c: a client's counters through its
 * admin socket, against a fake socket that answers as each release's
 * does: Reef and Tentacle `counter dump` (labeled sections), Pacific
 * "unknown command" to it and `perf dump`, and one that never answers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "../../src/paths/rbd/rbd_asok.h"

#include <ccbench/commands.h>
#include "ccbench/path.h"

/* Two sections as Tentacle's client printed them (trimmed), and a labeled one. */
static const char counter_dump[] =
    "{\"AsyncMessenger::Worker\": [{\"labels\": {\"id\": \"0\"}, \"counters\": "
    "{\"msgr_connection_ready_timeouts\": 0}}, {\"labels\": {\"id\": \"1\"}, \"counters\": "
    "{\"msgr_connection_ready_timeouts\": 2}}],"
    " \"AsyncMessenger::Worker-0\": [{\"labels\": {}, \"counters\": {\"msgr_recv_bytes\": 1000}}],"
    " \"objectcacher-librbd-5e1f-rbd-img\": [{\"labels\": {}, \"counters\": "
    "{\"cache_bytes_hit\": 7, \"data_read\": 9}}]}";
static const char perf_dump[] = "{\"AsyncMessenger::Worker-0\": {\"msgr_recv_bytes\": 1000},"
                                " \"objectcacher-librbd-5e1f-rbd-img\": {\"cache_bytes_hit\": 7,"
                                " \"data_read\": 9}}";
static const char pacific_error[] = "ERROR: (22) Invalid argument\nunknown command prefix counter "
                                    "dump\n";

enum server_kind { REEF, PACIFIC, SILENT };

struct server {
	char path[108];
	int fd;
	enum server_kind kind;
	pthread_t thread;
	char asked[4][64]; /* the commands it was sent */
	int n_asked;
};

static void *serve(void *arg)
{
	struct server *s = arg;

	for (int c; (c = accept(s->fd, NULL, NULL)) >= 0;) {
		char cmd[256];
		size_t n = 0;
		const char *reply;
		uint32_t be;

		/* The command ends at its NUL. */
		while (n < sizeof(cmd) - 1 && read(c, cmd + n, 1) == 1 && cmd[n])
			n++;
		cmd[n] = '\0';
		if (s->n_asked < 4)
			snprintf(s->asked[s->n_asked++], sizeof(s->asked[0]), "%.63s", cmd);
		if (s->kind == SILENT) {
			sleep(2);
			close(c);
			continue;
		}
		if (strstr(cmd, "counter dump"))
			reply = s->kind == REEF ? counter_dump : pacific_error;
		else
			reply = perf_dump;
		be = htonl((uint32_t)strlen(reply));
		if (write(c, &be, 4) != 4 || write(c, reply, strlen(reply)) < 0)
			fprintf(stderr, "fake asok: write failed\n");
		close(c);
	}
	return NULL;
}

static struct server *server_start(enum server_kind kind)
{
	struct server *s = calloc(1, sizeof(*s));
	struct sockaddr_un sa = {.sun_family = AF_UNIX};

	assert_non_null(s);
	s->kind = kind;
	snprintf(s->path, sizeof(s->path), "/tmp/ccb_test_asok_%d_%d.asok", (int)getpid(),
	         (int)kind);
	unlink(s->path);
	memcpy(sa.sun_path, s->path, strlen(s->path) + 1);
	s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(s->fd >= 0);
	assert_int_equal(bind(s->fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(s->fd, 4), 0);
	assert_int_equal(pthread_create(&s->thread, NULL, serve, s), 0);
	return s;
}

static void server_stop(struct server *s)
{
	shutdown(s->fd, SHUT_RDWR);
	pthread_join(s->thread, NULL);
	close(s->fd);
	unlink(s->path);
	free(s);
}

static double counter(const json_t *dump, const char *section, const char *key)
{
	return json_number_value(json_object_get(json_object_get(dump, section), key));
}

/* Reef and later: counter dump answers, in perf dump's shape. */
static void test_counter_dump(void **state)
{
	struct server *s = server_start(REEF);
	const char *source = NULL;
	json_t *dump = NULL;

	(void)state;
	assert_int_equal(ccb_rbd_asok_counters(s->path, 2000, &dump, &source), 0);
	assert_string_equal(source, "counter dump");
	assert_true(counter(dump, "AsyncMessenger::Worker-0", "msgr_recv_bytes") == 1000);
	assert_true(counter(dump, "objectcacher-librbd-5e1f-rbd-img", "cache_bytes_hit") == 7);
	/* A labeled section stays one per instance. */
	assert_true(
	    counter(dump, "AsyncMessenger::Worker{id=1}", "msgr_connection_ready_timeouts") == 2);
	assert_int_equal(s->n_asked, 1);
	json_decref(dump);
	server_stop(s);
}

/* Pacific: "unknown command" to counter dump, then perf dump. */
static void test_perf_dump_fallback(void **state)
{
	struct server *s = server_start(PACIFIC);
	const char *source = NULL;
	json_t *dump = NULL;

	(void)state;
	assert_int_equal(ccb_rbd_asok_counters(s->path, 2000, &dump, &source), 0);
	assert_string_equal(source, "perf dump");
	assert_true(counter(dump, "objectcacher-librbd-5e1f-rbd-img", "data_read") == 9);
	assert_int_equal(s->n_asked, 2);
	assert_non_null(strstr(s->asked[0], "counter dump"));
	assert_non_null(strstr(s->asked[1], "perf dump"));
	json_decref(dump);
	server_stop(s);
}

/* A socket that never answers: bounded by the timeout in all, and no
 * second command after the first timed out. */
static void test_silent(void **state)
{
	struct server *s = server_start(SILENT);
	const char *source = NULL;
	json_t *dump = NULL;
	struct timespec t0, t1;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(ccb_rbd_asok_counters(s->path, 300, &dump, &source), -ETIMEDOUT);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_null(dump);
	assert_true((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 < 1500);
	server_stop(s);
	assert_int_equal(ccb_rbd_asok_counters("/nonexistent/ccb.asok", 300, &dump, &source),
	                 -ENOENT);
}

static void test_flatten_shape(void **state)
{
	json_t *bad = json_pack("{s:{s:i}}", "perf-dump-shaped", "x", 1);

	(void)state;
	/* perf dump's shape is not counter dump's: refused, so the caller falls back. */
	assert_null(ccb_rbd_asok_flatten(bad));
	json_decref(bad);
	bad = json_pack("{s:[{s:{}}]}", "no-counters", "labels");
	assert_null(ccb_rbd_asok_flatten(bad));
	json_decref(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_counter_dump),
	    cmocka_unit_test(test_perf_dump_fallback),
	    cmocka_unit_test(test_silent),
	    cmocka_unit_test(test_flatten_shape),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
