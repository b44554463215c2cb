/**
 * @file gendoc.h
 * The documents generated at build time from the command table (cli.h)
 * and the option table (options.h): the man page ccbench(8), the bash
 * completion and docs/commands.md. tools/ccbench-gendoc.c writes them; the unit
 * test test_gendoc.c renders them again and checks the files against
 * the tables, so none of them is ever kept by hand.
 */
#ifndef CCBENCH_GENDOC_H
#define CCBENCH_GENDOC_H

#include <stdio.h>

/**
 * ccbench(8) in man(7) roff: @p tmpl with its markers replaced. A line
 * that is only @SYNOPSIS@, @COMMANDS@, @OPTIONS@ or @EXAMPLES@ becomes
 * that section's body; @VERSION@, @DATE@ and @CONFIGS_DIR@ are replaced
 * wherever they stand.
 *
 * @param date the page's date, e.g. "2026-12-01"
 * @return 0; -EINVAL (with a message in @p err) when @p tmpl lacks a
 *         section marker or has an unknown one; -EIO when @p out fails.
 */
int ccb_gendoc_man(FILE *out, const char *tmpl, const char *version, const char *date, char *err,
                   size_t err_len);

/**
 * The bash completion: a function _ccbench registered with `complete -F`
 * for ccbench. It completes the command words, each command's options,
 * the values of options with a fixed set of them (CCB_OPT_CHOICE,
 * CCB_OPT_FORMAT), files for options whose argument is a FILE or PATH and
 * for the file arguments of a command, and shipped config names for
 * sweep. It needs nothing but bash (no bash-completion helpers).
 *
 * @return 0, or -EIO when @p out fails.
 */
int ccb_gendoc_bash(FILE *out);

/**
 * docs/commands.md: every command (synopsis, description, its options,
 * an example) and every option (argument, default per command, range,
 * commands). No date in it, so that it changes only with the tables.
 *
 * @return 0, or -EIO when @p out fails.
 */
int ccb_gendoc_markdown(FILE *out, const char *version);

#endif
