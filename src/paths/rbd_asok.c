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

#include <ccbench/engine.h>

/* A perf dump of one client is some tens of KiB; far more is not one. */
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

int ccb_rbd_asok_perf_dump(const char *path, int timeout_ms, json_t **out)
{
	static const char cmd[] = "{\"prefix\":\"perf dump\"}"; /* sent with its NUL */
	uint64_t deadline = ccb_now_nsec() + (uint64_t)timeout_ms * 1000000;
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char *reply = NULL;
	uint32_t be;
	int fd, r;

	*out = NULL;
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
	r = io_all(fd, true, (char *)cmd, sizeof(cmd), deadline);
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
