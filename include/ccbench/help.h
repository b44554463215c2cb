/**
 * @file help.h
 * The help a terminal shows (ccbench --help, ccbench CMD --help, ccbench
 * help CMD, the hint after bad input), rendered from the command table
 * (cli.h) and the option table (options.h); and the pieces of it the
 * generated documents share (gendoc.h): which options a command takes,
 * how their defaults read, how an option and a synopsis are spelled.
 */
#ifndef CCBENCH_HELP_H
#define CCBENCH_HELP_H

#include <ccbench/command.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <ccbench/cli.h>
#include <ccbench/options.h>

/** Command @p c takes option @p d (its CCB_CMD_* mask says so). */
bool ccb_help_takes(const struct ccb_command *c, const struct ccb_opt_desc *d);

/**
 * Command @p c runs a workload against a cluster (rados, rbd, krbd, fs),
 * whose options the overview lists once; the null path's take only the
 * engine's, listed with each.
 */
bool ccb_help_is_workload(const struct ccb_command *c);

/**
 * Option @p d is taken by every workload command (rados, rbd, krbd, fs):
 * the options the overview names once instead of per command.
 */
bool ccb_help_every_workload(const struct ccb_opt_desc *d);

/**
 * The default of @p d as help shows it for command @p c: the command's own
 * default, else its note ("one pass over the image"), else the table's;
 * NULL when there is none to show (flags, options unset by default).
 * @p c may be NULL: the table's default.
 */
const char *ccb_help_default(const struct ccb_command *c, const struct ccb_opt_desc *d);

/** "-c, --conf PATH", "--keep": the option's spelling, into @p buf. */
void ccb_help_option_words(const struct ccb_opt_desc *d, char *buf, size_t len);

/** "sweep CONFIG [options]": @p c's synopsis without "ccbench ", into @p buf. */
void ccb_help_synopsis(const struct ccb_command *c, char *buf, size_t len);

/**
 * The overview (ccbench --help): the commands, the options every command
 * and every workload takes, the units. @p group ("rbd"): only the
 * commands whose first word it is; NULL: all.
 */
void ccb_help_overview(FILE *out, const char *group);

/** ccbench CMD --help: synopsis, description, the options @p c takes with
 * their defaults, an example. */
void ccb_help_command(FILE *out, const struct ccb_command *c);

/** The line after a bad-input message: "Try 'ccbench rbd read --help'."
 * (@p command NULL: 'ccbench --help'). */
void ccb_help_hint(FILE *out, const char *command);

/**
 * Print @p text from column @p col on, broken at spaces so that no line
 * passes @p width columns (a word longer than that stands alone);
 * continuation lines start with @p indent spaces. Ends with a newline.
 */
void ccb_help_wrap(FILE *out, const char *text, size_t col, size_t indent, size_t width);

/** The help command's row (command.h): no run of its own, the front shows the help. */
extern const struct ccb_command ccb_help_commands[];

#endif
