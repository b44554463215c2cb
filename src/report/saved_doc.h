/*
 * Private to report, explain and compare: a saved document as they read
 * it (saved_doc.c).
 */
#ifndef CCBENCH_SAVED_DOC_H
#define CCBENCH_SAVED_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/** The command a saved document names ("rbd read"), "run" if none. */
const char *ccb_saved_doc_command(const json_t *doc);

/**
 * The name point @p p (NULL: the document is one run) has in compare's and
 * explain's lines and in compare's matching, escaped for the terminal.
 */
void ccb_saved_point_key(const json_t *doc, const json_t *p, char *key, size_t len);

/** Whether @p doc is `ccbench group report G -f json`'s document. */
bool ccb_saved_is_group_report(const json_t *doc);

/**
 * Load and check @p path: a result, a sweep, a capacity search (and if
 * @p group_ok a group report). New reference, or NULL with the reason,
 * escaped, in @p err.
 */
json_t *ccb_saved_load(const char *path, bool group_ok, char *err, size_t err_len);
/** ccb_saved_load() without group reports. */
json_t *ccb_saved_load_result(const char *path, char *err, size_t err_len);

/** A run's explain list: the stored one, else re-derived. New reference. */
json_t *ccb_saved_run_explain(const json_t *run);

/**
 * Each run of @p doc with its point's key: calls @p fn(key, run, arg)
 * until it returns nonzero, and returns that.
 */
int ccb_saved_each_run(const json_t *doc, int (*fn)(const char *, const json_t *, void *),
                       void *arg);

#endif /* CCBENCH_SAVED_DOC_H */
