/* Unit tests for src/paths/sysfs.c: attribute parsing, partition -> disk
 * resolution and queue attributes, against a fake sysfs tree in a
 * temporary directory (the layout the kernel uses: class/block and
 * dev/block links into devices/). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/host.h"
#include "../../src/paths/krbd/read_ahead.h"
#include "ccbench/sysfs.h"

static char root[256];

static void mkdirs(const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	}
	mkdir(p, 0755);
}

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void link_to(const char *target, const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(symlink(target, p), 0);
}

/* sda with partition sda1, and loop0, as the kernel lays them out. */
static int setup_tree(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/ccb-sysfs-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	mkdirs("devices/pci0000:00/host0/block/sda/sda1");
	mkdirs("devices/pci0000:00/host0/block/sda/queue");
	mkdirs("devices/virtual/block/loop0/queue");
	mkdirs("class/block");
	mkdirs("dev/block");
	mkdirs("block");
	put("devices/pci0000:00/host0/block/sda/sda1/partition", "1\n");
	put("devices/pci0000:00/host0/block/sda/queue/read_ahead_kb", "128\n");
	put("devices/pci0000:00/host0/block/sda/queue/optimal_io_size", "4194304\n");
	put("devices/pci0000:00/host0/block/sda/queue/max_sectors_kb", "1280\n");
	put("devices/pci0000:00/host0/block/sda/queue/nr_requests", "64\n");
	put("devices/pci0000:00/host0/block/sda/queue/logical_block_size", "4096\n");
	put("devices/virtual/block/loop0/queue/read_ahead_kb", "garbage\n");
	link_to("../../devices/pci0000:00/host0/block/sda", "class/block/sda");
	link_to("../../devices/pci0000:00/host0/block/sda/sda1", "class/block/sda1");
	link_to("../../devices/virtual/block/loop0", "class/block/loop0");
	link_to("../../devices/pci0000:00/host0/block/sda", "dev/block/8:0");
	link_to("../../devices/pci0000:00/host0/block/sda/sda1", "dev/block/8:1");
	link_to("../../devices/virtual/block/loop0", "dev/block/7:0");
	link_to("../devices/pci0000:00/host0/block/sda", "block/sda");
	link_to("../devices/virtual/block/loop0", "block/loop0");
	return 0;
}

static int teardown_tree(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void parse_accepts_plain_numbers(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(ccb_sysfs_parse_u64("128\n", &v), 0);
	assert_int_equal(v, 128);
	assert_int_equal(ccb_sysfs_parse_u64("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(ccb_sysfs_parse_u64("18446744073709551615\n", &v), 0);
	assert_true(v == UINT64_MAX);
}

static void parse_rejects_junk(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(ccb_sysfs_parse_u64("", &v), -EINVAL);
	assert_int_equal(ccb_sysfs_parse_u64("\n", &v), -EINVAL);
	assert_int_equal(ccb_sysfs_parse_u64("-1\n", &v), -EINVAL);
	assert_int_equal(ccb_sysfs_parse_u64("12 kb\n", &v), -EINVAL);
	assert_int_equal(ccb_sysfs_parse_u64("128\n\n", &v), -EINVAL);
	assert_int_equal(ccb_sysfs_parse_u64("18446744073709551616", &v), -EINVAL);
	assert_int_equal(v, 7);
}

static void partition_resolves_to_disk(void **state)
{
	char disk[64];

	(void)state;
	assert_int_equal(ccb_sysfs_disk_of_name(root, "sda1", disk, sizeof(disk)), 0);
	assert_string_equal(disk, "sda");
	assert_int_equal(ccb_sysfs_disk_of_name(root, "sda", disk, sizeof(disk)), 0);
	assert_string_equal(disk, "sda");
	assert_int_equal(ccb_sysfs_disk_of_name(root, "loop0", disk, sizeof(disk)), 0);
	assert_string_equal(disk, "loop0");
}

static void devt_resolves_to_disk(void **state)
{
	char name[64], disk[64];

	(void)state;
	assert_int_equal(
	    ccb_sysfs_disk_of_devt(root, makedev(8, 1), name, sizeof(name), disk, sizeof(disk)), 0);
	assert_string_equal(name, "sda1");
	assert_string_equal(disk, "sda");
	assert_int_equal(ccb_sysfs_disk_of_devt(root, makedev(7, 0), NULL, 0, disk, sizeof(disk)),
	                 0);
	assert_string_equal(disk, "loop0");
}

static void unknown_devices_are_enoent(void **state)
{
	char disk[64];

	(void)state;
	assert_int_equal(ccb_sysfs_disk_of_name(root, "sdz", disk, sizeof(disk)), -ENOENT);
	assert_int_equal(ccb_sysfs_disk_of_name(root, "../../etc", disk, sizeof(disk)), -ENOENT);
	assert_int_equal(ccb_sysfs_disk_of_name(root, "", disk, sizeof(disk)), -ENOENT);
	assert_int_equal(ccb_sysfs_disk_of_devt(root, makedev(9, 9), NULL, 0, disk, sizeof(disk)),
	                 -ENOENT);
}

static void short_buffers_are_refused(void **state)
{
	char disk[3];

	(void)state;
	assert_int_equal(ccb_sysfs_disk_of_name(root, "sda1", disk, sizeof(disk)), -ENAMETOOLONG);
}

static void queue_info_reads_present_attributes(void **state)
{
	struct ccb_queue_info qi;

	(void)state;
	assert_int_equal(ccb_sysfs_queue_info(root, "sda", &qi), 0);
	assert_int_equal(qi.read_ahead_kb, 128);
	assert_int_equal(qi.optimal_io_size, 4194304);
	assert_int_equal(qi.max_sectors_kb, 1280);
	assert_int_equal(qi.nr_requests, 64);
	assert_int_equal(qi.logical_block_size, 4096);
	/* Absent attributes read as "unknown", not as an error. */
	assert_true(qi.max_hw_sectors_kb == UINT64_MAX);
	assert_true(qi.rotational == UINT64_MAX);
	/* read_ahead_kb itself is required and must parse. */
	assert_int_equal(ccb_sysfs_queue_info(root, "loop0", &qi), -EINVAL);
	assert_int_equal(ccb_sysfs_queue_info(root, "sdz", &qi), -ENOENT);
}

static void write_then_read_back(void **state)
{
	char path[PATH_MAX];
	uint64_t v = 0;

	(void)state;
	ccb_sysfs_queue_attr(root, "sda", "read_ahead_kb", path, sizeof(path));
	assert_int_equal(ccb_sysfs_write_u64(path, 4096), 0);
	assert_int_equal(ccb_sysfs_read_u64(path, &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(ccb_sysfs_write_u64(path, 128), 0);
}

static void read_line_cuts_and_refuses_links(void **state)
{
	char path[PATH_MAX], buf[8];

	(void)state;
	snprintf(path, sizeof(path), "%s/devices/pci0000:00/host0/block/sda/sda1/partition", root);
	ccb_sysfs_read_line(path, buf, sizeof(buf));
	assert_string_equal(buf, "1");
	/* longer than the buffer: cut, still terminated */
	put("block/long", "0123456789abcdef\n");
	snprintf(path, sizeof(path), "%s/block/long", root);
	ccb_sysfs_read_line(path, buf, sizeof(buf));
	assert_string_equal(buf, "0123456");
	/* a symlink (O_NOFOLLOW) and a missing file read as "" */
	snprintf(path, sizeof(path), "%s/class/block/sda", root);
	strcpy(buf, "x");
	ccb_sysfs_read_line(path, buf, sizeof(buf));
	assert_string_equal(buf, "");
	snprintf(path, sizeof(path), "%s/no/such", root);
	strcpy(buf, "x");
	ccb_sysfs_read_line(path, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

static void restore_only_what_the_run_set(void **state)
{
	char path[PATH_MAX], msg[512];
	uint64_t v = 0;

	(void)state;
	setenv("CCB_SYSFS_ROOT", root, 1);
	ccb_sysfs_queue_attr(root, "sda", "read_ahead_kb", path, sizeof(path));

	/* Still at the value the dead run set: put the original back. */
	assert_int_equal(ccb_sysfs_write_u64(path, 4096), 0);
	assert_int_equal(ccb_sysfs_restore_read_ahead_kb("sda", 128, 4096, msg, sizeof(msg)), 0);
	assert_int_equal(ccb_sysfs_read_u64(path, &v), 0);
	assert_int_equal(v, 128);
	assert_non_null(strstr(msg, "restored 128"));

	/* Changed by someone else since: keep their value. */
	assert_int_equal(ccb_sysfs_write_u64(path, 512), 0);
	assert_int_equal(ccb_sysfs_restore_read_ahead_kb("sda", 128, 4096, msg, sizeof(msg)), 0);
	assert_int_equal(ccb_sysfs_read_u64(path, &v), 0);
	assert_int_equal(v, 512);
	assert_string_equal(msg, "read_ahead_kb of sda: changed by someone else since ccbench set "
	                         "it: now 512, ccbench set 4096, was 128; left as is");
	assert_int_equal(ccb_sysfs_write_u64(path, 128), 0);

	/* The device is gone: nothing to do, and not an error. */
	assert_int_equal(ccb_sysfs_restore_read_ahead_kb("sdz", 128, 4096, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "gone"));
	unsetenv("CCB_SYSFS_ROOT");
}

/* The "still ours" rule: write back only the value the run left. */
static void restore_decision(void **state)
{
	(void)state;
	assert_int_equal(ccb_sysfs_restore_decision(4096, 128, 4096), CCB_SYSFS_WRITE_BACK);
	assert_int_equal(ccb_sysfs_restore_decision(128, 128, 4096), CCB_SYSFS_ALREADY);
	assert_int_equal(ccb_sysfs_restore_decision(768, 128, 4096), CCB_SYSFS_CHANGED);
	assert_int_equal(ccb_sysfs_restore_decision(0, 128, 4096), CCB_SYSFS_CHANGED);
	/* A run that set the original itself has nothing to put back. */
	assert_int_equal(ccb_sysfs_restore_decision(128, 128, 128), CCB_SYSFS_ALREADY);
}

static void root_comes_from_the_environment(void **state)
{
	(void)state;
	unsetenv("CCB_SYSFS_ROOT");
	assert_string_equal(ccb_sysfs_root(), "/sys");
	setenv("CCB_SYSFS_ROOT", root, 1);
	assert_string_equal(ccb_sysfs_root(), root);
	unsetenv("CCB_SYSFS_ROOT");
}

/* A record's disk "../victim" made ROOT/block/../victim/queue/read_ahead_kb:
 * a file outside any device's queue got the record's "original" written. */
static void restore_refuses_a_disk_that_is_a_path(void **state)
{
	char msg[512], buf[64];
	FILE *f;

	(void)state;
	setenv("CCB_SYSFS_ROOT", root, 1);
	mkdirs("victim/queue");
	put("victim/queue/read_ahead_kb", "4096\n");
	assert_int_equal(ccb_sysfs_restore_read_ahead_kb("../victim", 128, 4096, msg, sizeof(msg)),
	                 -EINVAL);
	assert_non_null(strstr(msg, "invalid record"));
	assert_int_equal(ccb_sysfs_restore_read_ahead_kb("", 128, 4096, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(ccb_sysfs_restore_read_ahead_kb(NULL, 128, 4096, msg, sizeof(msg)),
	                 -EINVAL);
	snprintf(msg, sizeof(msg), "%s/victim/queue/read_ahead_kb", root);
	f = fopen(msg, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "4096\n");
	unsetenv("CCB_SYSFS_ROOT");
}

static void disk_names(void **state)
{
	(void)state;
	assert_true(ccb_sysfs_valid_disk_name("sda1"));
	assert_true(ccb_sysfs_valid_disk_name("loop0"));
	assert_true(ccb_sysfs_valid_disk_name("nvme0n1"));
	assert_true(ccb_sysfs_valid_disk_name("dm-0"));
	assert_false(ccb_sysfs_valid_disk_name(""));
	assert_false(ccb_sysfs_valid_disk_name(NULL));
	assert_false(ccb_sysfs_valid_disk_name(".."));
	assert_false(ccb_sysfs_valid_disk_name("../sda"));
	assert_false(ccb_sysfs_valid_disk_name("sda/queue"));
	assert_false(ccb_sysfs_valid_disk_name("-x"));
	assert_false(ccb_sysfs_valid_disk_name("a234567890123456789012345678901234"));
}

/* Kernel rbd devices as the driver lists them: bus/rbd/devices/ID/{pool,name,current_snap}. */
static void rbd_device(const char *id, const char *pool, const char *name, const char *snap)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "bus/rbd/devices/%s", id);
	mkdirs(rel);
	snprintf(rel, sizeof(rel), "bus/rbd/devices/%s/pool", id);
	put(rel, pool);
	snprintf(rel, sizeof(rel), "bus/rbd/devices/%s/name", id);
	put(rel, name);
	if (snap) {
		snprintf(rel, sizeof(rel), "bus/rbd/devices/%s/current_snap", id);
		put(rel, snap);
	}
}

static void rbd_devices_found_by_image(void **state)
{
	unsigned ids[4] = {0};

	(void)state;
	/* No rbd bus: none, not an error. */
	assert_int_equal(ccb_sysfs_rbd_find(root, "rbd", "img", "-", ids, 4), 0);
	rbd_device("10", "rbd\n", "img\n", "-\n");
	rbd_device("0", "rbd\n", "img\n", "-\n");
	rbd_device("1", "rbd\n", "img\n", "snap1\n");
	rbd_device("2", "rbd\n", "other\n", "-\n");
	rbd_device("3", "rbd2\n", "img\n", "-\n");
	rbd_device("4", "rbd\n", "img\n", NULL);   /* an old driver: no current_snap */
	rbd_device("05", "rbd\n", "img\n", "-\n"); /* not a device id */
	rbd_device("x", "rbd\n", "img\n", "-\n");
	assert_int_equal(ccb_sysfs_rbd_find(root, "rbd", "img", "-", ids, 4), 3);
	assert_int_equal(ids[0], 0);
	assert_int_equal(ids[1], 4);
	assert_int_equal(ids[2], 10);
	assert_int_equal(ccb_sysfs_rbd_find(root, "rbd", "img", "snap1", ids, 4), 1);
	assert_int_equal(ids[0], 1);
	assert_int_equal(ccb_sysfs_rbd_find(root, "rbd", "im", "-", ids, 4), 0);
	/* More than fit: the count says so. */
	assert_int_equal(ccb_sysfs_rbd_find(root, "rbd", "img", "-", ids, 1), 3);
	assert_true(ccb_sysfs_rbd_maps(root, 2, "rbd", "other", "-"));
	assert_false(ccb_sysfs_rbd_maps(root, 2, "rbd", "img", "-"));
	assert_false(ccb_sysfs_rbd_maps(root, 99, "rbd", "img", "-"));
}

int main(void)
{
	const struct CMUnitTest parse[] = {
	    cmocka_unit_test(parse_accepts_plain_numbers),
	    cmocka_unit_test(parse_rejects_junk),
	};
	const struct CMUnitTest tree[] = {
	    cmocka_unit_test(partition_resolves_to_disk),
	    cmocka_unit_test(devt_resolves_to_disk),
	    cmocka_unit_test(unknown_devices_are_enoent),
	    cmocka_unit_test(short_buffers_are_refused),
	    cmocka_unit_test(queue_info_reads_present_attributes),
	    cmocka_unit_test(write_then_read_back),
	    cmocka_unit_test(read_line_cuts_and_refuses_links),
	    cmocka_unit_test(restore_only_what_the_run_set),
	    cmocka_unit_test(restore_decision),
	    cmocka_unit_test(root_comes_from_the_environment),
	    cmocka_unit_test(restore_refuses_a_disk_that_is_a_path),
	    cmocka_unit_test(disk_names),
	    cmocka_unit_test(rbd_devices_found_by_image),
	};
	if (ccb_commands_init() < 0)
		return 1;
	int failed = cmocka_run_group_tests_name("sysfs parse", parse, NULL, NULL);

	failed += cmocka_run_group_tests_name("sysfs tree", tree, setup_tree, teardown_tree);
	return failed;
}
