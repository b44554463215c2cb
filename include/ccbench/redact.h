/**
 * @file redact.h
 * Key material out of every string ccbench records, prints or passes on:
 * results, state records, messages, group records.
 */
#ifndef CCBENCH_REDACT_H
#define CCBENCH_REDACT_H

#include <jansson.h>

/** What replaces the value of a setting that carries key material. */
#define CCB_REDACTED "<redacted>"

/**
 * @p text with key material replaced by CCB_REDACTED, everything else
 * unchanged:
 * - the VALUE of NAME=VALUE anywhere (at the start, after a blank, comma,
 *   quote or '=': "--set=key=X", "-okey=X", "... -o secret=X,noudev")
 *   whose NAME is key material: key, secret, keyring, password, token, or
 *   ending in _key, -secret, .token ...; but not --keyring=PATH, a file;
 * - the word after --key, --secret, --token, --password ("rbd --key X");
 * - a ceph key itself (AQ..., 40 base64 characters ending "=="), wherever
 *   it stands ("key = AQ...==" of a keyring).
 * A VALUE ends at a comma, blank or quote; a quoted VALUE at its closing
 * quote; in text without a blank or quote before it (an argv item such as
 * "password=two words"), at the next comma only.
 *
 * @return a new string (free()), or NULL on ENOMEM.
 */
char *ccb_redact_text(const char *text);

/** ccb_redact_text() over every string of @p doc, in place. @return 0 or -ENOMEM. */
int ccb_redact_json(json_t *doc);

/**
 * @p argv as a JSON array of ccb_redact_text() strings, the word after
 * --key, --secret, --token or --password replaced whole (new reference),
 * or NULL on ENOMEM.
 */
json_t *ccb_redact_argv(int argc, char *const *argv);

/**
 * ccb_redact_text() of @p buf, back into @p buf (truncated to @p len):
 * the map and mount options a helper's message may repeat. Without memory
 * for the copy, @p buf says the message was withheld.
 */
void ccb_redact_in_place(char *buf, size_t len);

#endif
