/**
 * @file units.h
 * Parsing and formatting of sizes and durations, the way the ceph CLIs
 * spell them: 4K, 4M, 1G (binary multiples), 500ms, 10s, 2m; and the
 * spelling of a cluster's fsid.
 *
 * Every parser rejects empty input, signs, garbage, trailing junk and
 * overflow. None of them use atoi(), which accepts garbage silently.
 */
#ifndef CCBENCH_UNITS_H
#define CCBENCH_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * Parse a byte count: a decimal integer with an optional binary suffix
 * B, K, M, G, T, P (case-insensitive; KB/KiB, MB/MiB ... are accepted as
 * aliases of the binary suffix, since that is what ceph means by them).
 *
 * @return 0, -EINVAL for malformed input, -ERANGE on overflow of uint64_t.
 */
int ccb_parse_bytes(const char *s, uint64_t *out_bytes);

/**
 * Parse a duration into microseconds: an integer with suffix us, ms, s,
 * m, h (a bare number means seconds, as rados bench's seconds argument).
 * "sec" and "min" are accepted for s and m. Unlike sizes, the suffixes are
 * case-sensitive: "2M" is rejected rather than guessed to mean minutes.
 *
 * @return 0, -EINVAL for malformed input, -ERANGE on overflow.
 */
int ccb_parse_duration_usec(const char *s, uint64_t *out_usec);

/**
 * Parse a plain unsigned decimal integer (no suffix).
 *
 * @return 0, -EINVAL for malformed input, -ERANGE on overflow.
 */
int ccb_parse_u64(const char *s, uint64_t *out);

/**
 * Parse a percentage into hundredths of a percent: a decimal number with
 * at most two decimals and an optional '%' ("5%" -> 500, "2.5" -> 250,
 * "0.25%" -> 25). No sign, exponent, "nan" or "inf" (strtod takes them,
 * and a NaN passes every range check), no spaces, no trailing junk.
 *
 * @return 0, -EINVAL for malformed input, -ERANGE on overflow.
 */
int ccb_parse_pct_centi(const char *s, uint64_t *out_centipct);

/**
 * Parse an arrival rate (--rate): ops per second as a decimal number with
 * at most three decimals ("500", "2.5", also "500/s"), or bytes per second
 * as a size with a unit and "/s" ("40MiB/s", "512K/s"). Exactly one of
 * *out_ops_s (ops) and *out_bytes_s (bytes) is set non-zero on success,
 * the other is 0. No sign, exponent, "nan" or "inf", no spaces, no zero.
 *
 * @return 0, -EINVAL for malformed input or zero, -ERANGE on overflow.
 */
int ccb_parse_rate(const char *s, double *out_ops_s, uint64_t *out_bytes_s);

/**
 * Parse a count or a duration (--max-backlog): plain digits are a count
 * ("64"), a number with a duration unit is microseconds ("500ms", "2s").
 * Exactly one of the two outputs is set; the other is 0.
 *
 * @return 0, -EINVAL for malformed input, -ERANGE on overflow.
 */
int ccb_parse_count_or_duration(const char *s, uint64_t *out_count, uint64_t *out_usec);

/** Format hundredths of a percent: 500 -> "5%", 250 -> "2.5%", 25 -> "0.25%". */
void ccb_format_pct_centi(uint64_t centipct, char *buf, size_t buf_len);

/** Format bytes with the largest exact binary suffix: 4194304 -> "4M", 1000 -> "1000". */
void ccb_format_bytes(uint64_t bytes, char *buf, size_t buf_len);

/** Format a duration in microseconds: 10000000 -> "10s", 500000 -> "500ms". */
void ccb_format_duration(uint64_t usec, char *buf, size_t buf_len);

/** A UUID as Ceph prints an fsid (8-4-4-4-12 hex digits, either case). Pure. */
bool ccb_is_fsid(const char *s);

/** Whether @p s has no control character (what a record may hold and print). */
bool ccb_is_printable(const char *s);

#endif
