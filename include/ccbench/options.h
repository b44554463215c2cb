/**
 * @file options.h
 * The one option table (options_table.c). Each descriptor says where a
 * value lives in struct ccb_opts, how it parses, its range or its choices
 * and which commands take it; the same table drives getopt_long (cli.c),
 * --help, the man page and completion (gendoc.c) and the sweep config
 * loader, so a range check or a list of values is written once.
 */
#ifndef CCBENCH_OPTIONS_H
#define CCBENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <ccbench/steady.h>

enum ccb_opt_type {
	CCB_OPT_STR,      /**< const char * (points into argv or a config) */
	CCB_OPT_UINT,     /**< uint64_t, plain integer */
	CCB_OPT_BYTES,    /**< uint64_t bytes, 4K / 4M / 1G */
	CCB_OPT_DURATION, /**< uint64_t microseconds, 500ms / 10s / 2m */
	CCB_OPT_FLAG,     /**< bool, takes no argument */
	CCB_OPT_FORMAT,   /**< enum ccb_format: the index of its word in choices */
	CCB_OPT_SET,      /**< repeatable KEY=VALUE, appended to ccb_opts.sets */
	CCB_OPT_NAME,     /**< const char *, [A-Za-z0-9_-]{1,64}: safe inside object names */
	CCB_OPT_CHOICE,   /**< const char *, one of choices */
	CCB_OPT_PARAM,    /**< repeatable KEY=VALUE, appended to ccb_opts.params (sweep --param) */
	CCB_OPT_PCT,      /**< uint64_t hundredths of a percent: 5%, 2.5 */
	CCB_OPT_STEADY,   /**< struct ccb_steady_spec, [METRIC:]TOL[/WINDOW] (steady.h);
	                   *   min and max bound WINDOW, in microseconds */
};

/** Commands an option applies to (bit mask). */
enum ccb_cmd_mask {
	CCB_CMD_CONN = 1u << 0,     /**< anything that connects */
	CCB_CMD_RADOS = 1u << 1,    /**< ccbench rados write|seq|rand */
	CCB_CMD_CLEANUP = 1u << 2,  /**< ccbench cleanup */
	CCB_CMD_OUTPUT = 1u << 3,   /**< anything that prints a result */
	CCB_CMD_RBD = 1u << 4,      /**< ccbench rbd read|write|randread|randwrite|rw */
	CCB_CMD_KRBD = 1u << 5,     /**< ccbench krbd read|randread */
	CCB_CMD_RESTORE = 1u << 6,  /**< ccbench restore (alias: krbd restore) */
	CCB_CMD_FS = 1u << 7,       /**< ccbench fs write|read|meta */
	CCB_CMD_SWEEP = 1u << 8,    /**< ccbench sweep CONFIG */
	CCB_CMD_REPORT = 1u << 9,   /**< ccbench report RESULTS */
	CCB_CMD_COMPARE = 1u << 10, /**< ccbench compare BASELINE CURRENT */
	CCB_CMD_GROUP = 1u << 11,   /**< ccbench group report|rm|ls */
	CCB_CMD_EXPLAIN = 1u << 12, /**< ccbench explain RESULT */
	/** The engine's own options: how big, how deep, how many, for how
	 * long, at what rate, until steady. A path with no options of its own
	 * (null) takes these and no others, so nothing of a cluster. */
	CCB_CMD_ENGINE = 1u << 13,
	CCB_CMD_CAPACITY = 1u << 14, /**< ccbench capacity WORKLOAD (capacity.h) */
	CCB_CMD_K8S = 1u << 15,      /**< ccbench group manifest NAME WORKLOAD */
};

/** Commands that run a workload against a cluster (and so can join a group
 *  or be swept); the null path's take CCB_CMD_ENGINE alone. */
#define CCB_CMD_WORKLOAD (CCB_CMD_RADOS | CCB_CMD_RBD | CCB_CMD_KRBD | CCB_CMD_FS)

/** What an option is, beyond its commands (struct ccb_opt_desc.flags). */
enum ccb_opt_flags {
	/** Lays out a temporary rbd image: points of a sweep that agree on
	 * every such option share one prefilled image. */
	CCB_OPTF_LAYOUT = 1u << 0,
	/** Applies only to a temporary image (the layout and --keep): refused
	 * next to an existing --image, --device or --map. */
	CCB_OPTF_TEMP = 1u << 1,
	/** Names an existing image or device to use (--image, --device,
	 * --map): no temporary image is made. */
	CCB_OPTF_TARGET = 1u << 2,
	/** A change for a whole sweep, not one point (--osd-latency): in a
	 * sweep config only under "params", made once before the first point
	 * and undone after the last; points run remotely (--runner) see it too. */
	CCB_OPTF_SWEEP_WIDE = 1u << 3,
	/** One of the names of a value that rows share (-b/--op-size,
	 * --io-size, --block-size: the op size). Each row is the name its
	 * commands show and record the value under, with its range (the
	 * first row holds the default, the others' commands set theirs);
	 * every command that takes one of the names takes all of them, as the
	 * row of the name it shows (ccb_opt_spelling()). */
	CCB_OPTF_SPELLING = 1u << 4,
};

enum ccb_format { CCB_FMT_TEXT, CCB_FMT_JSON, CCB_FMT_CSV };

#define CCB_MAX_SETS 64

/** Every parameter of a run, filled from the defaults, then the command line. */
struct ccb_opts {
	/* Connection, spelled as the ceph CLIs spell it. */
	const char *conf;
	const char *cluster;
	const char *name;
	const char *id;
	const char *keyring;
	const char *pool;
	const char *rados_namespace;
	const char *sets[CCB_MAX_SETS];
	unsigned n_sets;
	uint64_t connect_timeout_usec;
	uint64_t op_timeout_usec;
	uint64_t malloc_trim_usec; /**< malloc_trim(0) every this often in a run (0: never) */

	/* Workload. */
	uint64_t queue_depth;
	uint64_t clients;
	/** The bytes of one op, whatever the path calls it (see CCB_OPTF_SPELLING). */
	uint64_t op_size_bytes;
	uint64_t object_size_bytes;
	uint64_t duration_usec;
	uint64_t total_bytes;
	uint64_t max_objects;
	struct ccb_steady_spec until_steady; /**< --until-steady; .on false: off */
	uint64_t steady_ramp_usec;           /**< --steady-ramp, when given */
	/* Open loop (openloop.h): --rate and its schedule and bound. */
	const char *rate;        /**< OPS or BYTES/s (units.h ccb_parse_rate); NULL: closed loop */
	const char *arrivals;    /**< uniform | poisson */
	const char *max_backlog; /**< N waiting arrivals, or DURATION an arrival may wait */
	uint64_t rate_seed;      /**< poisson: the run's seed, when given */
	bool busy_poll;          /**< the open loop's clients poll for arrivals, never sleep */
	/* Capacity search (capacity.h): the SLO, the precision and each step's bound. */
	const char *slo;             /**< "p99<=10ms[,p50<=2ms]" (slo.h) */
	uint64_t precision_centipct; /**< bisect until the bracket is within this */
	uint64_t step_time_usec;     /**< each step's bound (until steady, if asked, sooner) */
	uint64_t max_steps;          /**< the search's steps at most (probe and headroom aside) */
	const char *run_name;
	bool no_cleanup;
	bool no_verify;
	bool reuse;
	bool all_runs;
	bool force; /**< cleanup --run-name without RUN.meta */

	/* rbd: image and I/O. */
	const char *image; /**< POOL/NAME of an existing image */
	uint64_t image_size_bytes;
	uint64_t order;
	uint64_t stripe_unit_bytes;
	uint64_t stripe_count;
	const char *image_features;
	const char *data_pool;
	const char
	    *data_pool_type;     /**< replicated | erasure | fastec: what the data pool must be */
	const char *fastec_pool; /**< a data pool that must have FastEC on */
	bool allow_write_existing;
	bool keep;
	const char *pattern; /**< "seq" or "rand" */
	uint64_t rw_mix_read_pct;

	/* rbd: readahead and cache. */
	uint64_t readahead_bytes;
	uint64_t readahead_trigger;
	uint64_t readahead_disable_after_bytes;
	const char *cache_policy;
	uint64_t cache_size_bytes;
	bool no_cache;
	uint64_t sim_osd_latency_usec;
	/** Latency every OSD adds to each client message (0: none), see osd_inject.h. */
	uint64_t osd_latency_usec;
	/** The fsid of a cluster that is not a throwaway one, to allow --osd-latency on it. */
	const char *osd_latency_cluster;

	/* krbd: kernel block device. */
	const char *device;
	const char *map;     /**< POOL/IMAGE to map for the run */
	const char *map_via; /**< auto | kernel | fuse-loop */
	const char *map_options;
	uint64_t read_ahead_kb;
	uint64_t offset_bytes;
	uint64_t streams;
	bool direct;

	/* fs: libcephfs. */
	uint64_t file_size_bytes;
	const char *dir;
	const char *files_spec;    /**< bonnie++ -n files:max:min:dirs */
	const char *mount;         /**< fs: a mounted directory to run in (the posix path) */
	const char *mount_via;     /**< fs: libcephfs | fuse | kernel (NULL: libcephfs) */
	const char *mount_options; /**< fs: -o of mount -t ceph / ceph-fuse */

	/* group: clients on many hosts, coordinated through RADOS. */
	const char *group;
	uint64_t members;
	uint64_t group_timeout_usec;
	const char *group_pool;
	bool group_cleanup;
	uint64_t group_wait_usec;  /**< group report --wait: for members still running */
	const char *k8s_namespace; /**< group manifest: the Jobs' namespace */
	const char *k8s_image;     /**< group manifest: the pods' image */
	const char *k8s_secret;    /**< group manifest: a Secret with ceph.conf and keyring */

	/* sweep, report, compare. */
	const char *json_file;
	const char *csv_file;
	const char *svg_file;
	const char
	    *closed_loop_file; /**< report: a closed-loop sweep drawn with a capacity search */
	uint64_t seed;
	const char *params[CCB_MAX_SETS]; /**< sweep --param KEY=VALUE, in order */
	unsigned n_params;
	uint64_t repeat;                /**< sweep --repeat N (given: overrides the config's) */
	bool dry_run;                   /**< sweep --dry-run: check and estimate, contact nothing */
	uint64_t repeat_until_centipct; /**< sweep --repeat-until (given: overrides the config's) */
	bool same_answer;               /**< compare --same-answer */
	const char *tolerance;          /**< "10%" */
	const char *metric;             /**< bandwidth | p99 */
	bool allow_distrust;            /**< compare: gate on points marked distrust */
	/** compare: gate across Ceph releases of the cluster or the client */
	bool allow_release_change;
	const char *runner; /**< sweep --runner PATH=CMD: run PATH's points through CMD */

	/* Output. */
	enum ccb_format format;
	const char *output;
	bool quiet;
	const char *explain; /**< on | off: the result's explain list */

	/* Where the time went (attribution.h). */
	const char *attribution; /**< on | off: per-OSD figures around a workload */
	bool per_osd;            /**< report: the per-OSD views of a saved result */
	uint64_t osd_id;         /**< compare --metric osd-p99 --osd N */
	/** --secrets-stdin: options that carry key material come on stdin (secret_opts.h) */
	bool secrets_stdin;

	/** given[i] is true when descriptor i was set explicitly (not a default). */
	bool given[160];
};

struct ccb_opt_desc {
	const char *name; /**< long name, without "--" */
	int short_name;   /**< getopt short letter, or 0 */
	enum ccb_opt_type type;
	size_t offset;     /**< offsetof(struct ccb_opts, field) */
	const char *def;   /**< default, parsed like user input; NULL = unset */
	uint64_t min, max; /**< inclusive range for numeric types */
	/** CCB_OPT_CHOICE, CCB_OPT_FORMAT: the valid values, NULL-terminated (for
	 * FORMAT in enum ccb_format's order); --help shows them as "seq|rand". */
	const char *const *choices;
	unsigned cmds;       /**< enum ccb_cmd_mask bits */
	const char *argname; /**< shown in --help; NULL for a flag or a choice */
	const char *help;
	unsigned flags; /**< enum ccb_opt_flags bits */
};

/**
 * The table, terminated by an entry with name == NULL: the shared rows,
 * each path's own, the late ones (src/options_table.c). NULL until
 * ccb_opt_table_build(); every option call needs it built.
 */
extern const struct ccb_opt_desc *ccb_opt_table;

/**
 * Put the table together, once: the shared rows, each of @p groups (a
 * path's own rows, ending in a row with no name, in the registry's order)
 * and the late rows. ccb_paths_init() (src/paths/registry.c) calls it with
 * every path's rows; a later call keeps the first table. 0, -E2BIG past
 * the room ccb_opts.given has, -EEXIST for a name two rows share.
 */
int ccb_opt_table_build(const struct ccb_opt_desc *const *groups, size_t n_groups);

/** Number of descriptors in ccb_opt_table. */
size_t ccb_opt_count(void);

/** Descriptor by long name, or NULL. */
const struct ccb_opt_desc *ccb_opt_find(const char *name);

/**
 * The argument as --help shows it: @p d's argname, or its choices joined
 * by '|' ("seq|rand") in @p buf; NULL when it takes none (a flag).
 */
const char *ccb_opt_argname(const struct ccb_opt_desc *d, char *buf, size_t len);

/** Fill @p o with every descriptor's default. */
void ccb_opts_defaults(struct ccb_opts *o);

/** A number of option @p d's type as its range is written: "4K", "500ms", "2.5%", "16". */
void ccb_opt_format_value(const struct ccb_opt_desc *d, uint64_t v, char *buf, size_t len);

/**
 * Parse @p value for option @p d into @p o and mark it given.
 * On error, writes "--NAME VALUE: reason" into @p err.
 *
 * @return 0, -EINVAL (malformed, out of range), -E2BIG (too many --set).
 */
int ccb_opt_set(struct ccb_opts *o, const struct ccb_opt_desc *d, const char *value, char *err,
                size_t err_len);

/**
 * The row under which command mask @p cmd takes option @p d: @p d itself
 * when @p cmd takes it, else the CCB_OPTF_SPELLING row of the same value
 * that @p cmd takes (--io-size for -b on rbd), else NULL.
 */
const struct ccb_opt_desc *ccb_opt_spelling(const struct ccb_opt_desc *d, unsigned cmd);

/** True when the option called @p name was set explicitly. */
bool ccb_opt_given(const struct ccb_opts *o, const char *name);

/**
 * Check the rules that span options and are not a path's own: options the
 * command does not take, the entity name, files that must be readable,
 * --pool where required, cleanup's and --group's pairs. Needs no cluster.
 * A path's own rules are its ops table's validate (see ccb_cli_validate()).
 *
 * @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_opts_validate(const struct ccb_opts *o, unsigned cmd, char *err, size_t err_len);

/** The first option (in table order) given in @p o whose flags have @p optf, or NULL. */
const char *ccb_opts_first_given(const struct ccb_opts *o, unsigned optf);

/** The parameters as a JSON object: every option of @p cmd with its effective value. */
json_t *ccb_opts_to_json(const struct ccb_opts *o, unsigned cmd);

#endif
