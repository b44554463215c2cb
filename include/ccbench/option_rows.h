/*
 * The short names the option rows are written with (as fio's options.c
 * writes its rows): OFF(field), the command masks, the flags, CHOICES().
 * Only for the files that define rows: src/options/options_table.c (the
 * shared rows) and each path's *_commands.c (its own rows). Short on purpose, so
 * a row reads as what it says; nothing else includes this.
 */
#ifndef CCBENCH_OPTION_ROWS_H
#define CCBENCH_OPTION_ROWS_H

#include <ccbench/options.h>

#include <stddef.h>
#include <stdint.h>

#define OFF(f) offsetof(struct ccb_opts, f)
/* A field of a path's own struct, in the path block of struct ccb_opts. */
#define PATH_OFF(type, f) (offsetof(struct ccb_opts, path_block) + offsetof(type, f))
/* Everything that may connect; krbd restore too: to put back what
 * --osd-latency set on the OSDs. */
#define CONN     (CCB_CMD_CONN | CCB_CMD_WORKLOAD | CCB_CMD_GROUP | CCB_CMD_SWEEP | CCB_CMD_RESTORE)
#define CLEANUP  CCB_CMD_CLEANUP
#define OUT      CCB_CMD_OUTPUT
#define RESTORE  CCB_CMD_RESTORE
#define SWEEP    CCB_CMD_SWEEP
#define REPORT   CCB_CMD_REPORT
#define COMPARE  CCB_CMD_COMPARE
#define GROUP    CCB_CMD_GROUP
#define EXPLAIN  CCB_CMD_EXPLAIN
#define CAPACITY CCB_CMD_CAPACITY
#define K8S      CCB_CMD_K8S
#define WORK     CCB_CMD_WORKLOAD
#define ENGINE   CCB_CMD_ENGINE
/* A path's own rows: its workloads take them. */
#define OWN    CCB_CMD_OWN
#define U64MAX UINT64_MAX
#define LAYOUT CCB_OPTF_LAYOUT
#define TEMP   CCB_OPTF_TEMP
#define TARGET CCB_OPTF_TARGET
#define WIDE   CCB_OPTF_SWEEP_WIDE
/* The op size's names: rados bench's -b, rbd bench's --io-size, dd's bs;
 * the default of the last two is their commands' (struct ccb_command). */
#define SPELLING CCB_OPTF_SPELLING

/* A choice's valid values, NULL-terminated (fio's posval). */
#define CHOICES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* 1 TiB ops make no sense for a benchmark and keep products within 64 bits. */
#define MAX_OP_BYTES (1ull << 30)

#endif
