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

#include <ccbench/steady_spec.h>

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
	CCB_OPT_LIST,     /**< repeatable VALUE, appended to a struct ccb_opt_list (--fault) */
};

/** The most values a CCB_OPT_LIST option takes. */
#define CCB_OPT_LIST_MAX 32

/** The values of a repeatable option (CCB_OPT_LIST), in the order given. */
struct ccb_opt_list {
	const char *v[CCB_OPT_LIST_MAX];
	unsigned n;
};

/*
 * Which commands take an option: a row's .cmds and a command's mask are
 * 64-bit sets of the bits below, and a command takes a row when they
 * share one. Three kinds of bit:
 *  - the commands above the paths, by what they are (CCB_CMD_SWEEP, ...);
 *  - capabilities (CCB_CAP_*): what a path can do, which its table
 *    declares (struct ccb_path_ops.caps) and its workloads take. A shared
 *    row names what it needs (a pool, an image layout), never a path, so
 *    a new path adds no bit and edits no shared row;
 *  - one bit per path with options of its own, given out in the
 *    registry's order when the table is built: a path's own rows say
 *    CCB_CMD_OWN, and only its workloads take them.
 */
#define CCB_CMD_CONN     (1ull << 0)  /**< anything that connects */
#define CCB_CMD_CLEANUP  (1ull << 1)  /**< ccbench cleanup */
#define CCB_CMD_OUTPUT   (1ull << 2)  /**< anything that prints a result */
#define CCB_CMD_RESTORE  (1ull << 3)  /**< ccbench restore (alias: krbd restore) */
#define CCB_CMD_SWEEP    (1ull << 4)  /**< ccbench sweep CONFIG */
#define CCB_CMD_REPORT   (1ull << 5)  /**< ccbench report RESULTS */
#define CCB_CMD_COMPARE  (1ull << 6)  /**< ccbench compare BASELINE CURRENT */
#define CCB_CMD_GROUP    (1ull << 7)  /**< ccbench group report|rm|ls */
#define CCB_CMD_EXPLAIN  (1ull << 8)  /**< ccbench explain RESULT */
#define CCB_CMD_CAPACITY (1ull << 9)  /**< ccbench capacity WORKLOAD (capacity.h) */
#define CCB_CMD_K8S      (1ull << 10) /**< ccbench group manifest NAME WORKLOAD */

/** A workload against a cluster, which can join a group or be swept and
 *  takes the connection's options (every path but null). */
#define CCB_CMD_WORKLOAD (1ull << 16)
/** The engine's own options: how big, how deep, how many, for how long, at
 *  what rate, until steady. A path with no cluster (null) takes these and
 *  no others. */
#define CCB_CMD_ENGINE (1ull << 17)
#define CCB_CAP_POOL   (1ull << 18) /**< runs in a pool it is given (--pool) */
#define CCB_CAP_OBJECTS                                                                            \
	(1ull << 19) /**< objects of its own, named by a run (--namespace, --run-name) */
#define CCB_CAP_REUSE       (1ull << 20) /**< can read what an earlier run left (--reuse) */
#define CCB_CAP_QUEUE       (1ull << 21) /**< several ops in flight per client, a byte bound */
#define CCB_CAP_CLIENTS     (1ull << 22) /**< several clients, each its own connection */
#define CCB_CAP_OBJECT_SIZE (1ull << 23) /**< lays its data out in objects of a size */
#define CCB_CAP_IMAGE       (1ull << 24) /**< an rbd image: size, order, features */
#define CCB_CAP_STRIPES     (1ull << 25) /**< a striped layout and a data pool */
#define CCB_CAP_POOL_TYPE   (1ull << 26) /**< can ask what its data pool must be (EC, FastEC) */
#define CCB_CAP_TEMP        (1ull << 27) /**< makes a temporary target it can keep */
#define CCB_CAP_DEVICE      (1ull << 28) /**< reads a block device (--device) */
#define CCB_CAP_DIRECT      (1ull << 29) /**< can bypass the page cache (--direct) */
#define CCB_CAP_SIM_LATENCY (1ull << 30) /**< client-side simulated OSD latency */
/** The op size's name it shows (struct ccb_path_ops.op_size_name): -b/--op-size,
 *  --io-size or --block-size, the rows CCB_OPTF_SPELLING joins. */
#define CCB_CAP_OP_SIZE    (1ull << 31)
#define CCB_CAP_IO_SIZE    (1ull << 32)
#define CCB_CAP_BLOCK_SIZE (1ull << 33)
/** The bits the paths' own rows get, one per path, from this one up. */
#define CCB_CMD_PATH_FIRST 40
#define CCB_CMD_PATHS      (((1ull << 23) - 1) << CCB_CMD_PATH_FIRST)
/** In a path's own row: "the commands of the path these rows belong to". */
#define CCB_CMD_OWN (1ull << 63)
/** Every capability bit (18 to 39). */
#define CCB_CAPS (((1ull << 22) - 1) << 18)
/** A command that names a workload of any path and takes its options
 *  (capacity WORKLOAD, group manifest NAME WORKLOAD). */
#define CCB_CMD_ANY_PATH (CCB_CMD_WORKLOAD | CCB_CMD_ENGINE | CCB_CAPS | CCB_CMD_PATHS)

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

/** Room for one path's own options (struct ccb_path_ops.opts_bytes). */
#define CCB_PATH_OPTS_BYTES 256

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
	bool reuse;
	bool all_runs;
	bool force; /**< cleanup --run-name without RUN.meta */

	/* An image or file layout, which several paths lay out (CCB_CAP_IMAGE,
	 * CCB_CAP_STRIPES, CCB_CAP_POOL_TYPE, CCB_CAP_TEMP). */
	uint64_t image_size_bytes;
	uint64_t order;
	uint64_t stripe_unit_bytes;
	uint64_t stripe_count;
	const char *image_features;
	const char *data_pool;
	const char
	    *data_pool_type;     /**< replicated | erasure | fastec: what the data pool must be */
	const char *fastec_pool; /**< a data pool that must have FastEC on */
	bool keep;

	/* Latency: simulated on the client (CCB_CAP_SIM_LATENCY) or on the OSDs. */
	uint64_t sim_osd_latency_usec;
	/** Latency every OSD adds to each client message (0: none), see osd_inject.h. */
	uint64_t osd_latency_usec;
	/** The fsid of a cluster that is not a throwaway one, to allow --osd-latency on it. */
	const char *osd_latency_cluster;

	/* A block device (CCB_CAP_DEVICE, restore), the page cache bypassed (CCB_CAP_DIRECT). */
	const char *device;
	bool direct;

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

	/* The HTML page (issue 44). */
	const char *html_file; /**< --html FILE: one self-contained page of the result (html.h) */

	/** The options of one path, in its own struct (struct ccb_rbd_opts,
	 *  ...), written through that path's rows, as fio's engines keep
	 *  theirs (option_struct_size): a path's code reads them, nothing else. */
	union {
		max_align_t align;
		unsigned char bytes[CCB_PATH_OPTS_BYTES];
	} path_block;
	/** The bit of the path whose values path_block holds (0: none yet). */
	uint64_t path_block_of;

	/* Faults during a run (fault.h, issue 42). */
	struct ccb_opt_list faults;     /**< --fault WHEN:ACTION[;WHEN:ACTION...], in order */
	bool allow_cluster_changes;     /**< --allow-cluster-changes: faults may change it */
	uint64_t recovery_timeout_usec; /**< a wait for the cluster to be clean ends the run */

	/** given[i] is true when descriptor i was set explicitly (not a default). */
	bool given[192];
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
	uint64_t cmds;       /**< the CCB_CMD_* and CCB_CAP_* bits of the commands that take it */
	const char *argname; /**< shown in --help; NULL for a flag or a choice */
	const char *help;
	unsigned flags; /**< enum ccb_opt_flags bits */
};

/**
 * The table, terminated by an entry with name == NULL: the shared rows,
 * each path's own, the late ones (src/options/options_table.c). NULL until
 * ccb_opt_table_build(); every option call needs it built.
 */
extern const struct ccb_opt_desc *ccb_opt_table;

/**
 * Put the table together, once: the shared rows, each of @p groups (a
 * path's own rows, ending in a row with no name, in the registry's order)
 * and the late rows. Group i's rows get the bit CCB_CMD_PATH_FIRST + i in
 * place of CCB_CMD_OWN (ccb_opt_group_bit()). ccb_paths_init()
 * (src/paths/registry.c) calls it with every path's rows; a later call
 * keeps the first table. 0, -E2BIG past the room ccb_opts.given has or
 * past the bits for paths, -EEXIST for a name two rows share.
 */
int ccb_opt_table_build(const struct ccb_opt_desc *const *groups, size_t n_groups);

/** The bit a path's own rows @p rows got in the table (ccb_opt_table_build()), or 0. */
uint64_t ccb_opt_group_bit(const struct ccb_opt_desc *rows);

/**
 * Make @p o's path block hold the options of the path of bit @p path_bit
 * (a command's mask & CCB_CMD_PATHS): when it held another path's, it is
 * cleared first; then each of that path's rows not given gets its default.
 * The command line calls it once the command is known; a path that reads
 * another's options (krbd's temporary image, made by the rbd path) on a
 * copy of them. 0 selects none (the block cleared).
 */
void ccb_opts_block_select(struct ccb_opts *o, uint64_t path_bit);

/** Number of descriptors in ccb_opt_table. */
size_t ccb_opt_count(void);

/** Descriptor by long name, or NULL. */
const struct ccb_opt_desc *ccb_opt_find(const char *name);

/**
 * The argument as --help shows it: @p d's argname, or its choices joined
 * by '|' ("seq|rand") in @p buf; NULL when it takes none (a flag).
 */
const char *ccb_opt_argname(const struct ccb_opt_desc *d, char *buf, size_t len);

/** Fill @p o with the defaults of every row but the paths' own
 *  (those follow the command: ccb_opts_block_select()). */
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
const struct ccb_opt_desc *ccb_opt_spelling(const struct ccb_opt_desc *d, uint64_t cmd);

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
int ccb_opts_validate(const struct ccb_opts *o, uint64_t cmd, char *err, size_t err_len);

/**
 * The open loop's rules: --rate a positive number of ops or bytes per
 * second, its companions (--arrivals, --max-in-flight, --max-backlog,
 * --rate-seed, --busy-poll) only with it, and in range. Part of
 * ccb_opts_validate(); the capacity command calls it with a rate of its own.
 *
 * @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_opts_validate_open_loop(const struct ccb_opts *o, char *err, size_t err_len);

/** The first option (in table order) given in @p o whose flags have @p optf, or NULL. */
const char *ccb_opts_first_given(const struct ccb_opts *o, unsigned optf);

/** The parameters as a JSON object: every option of @p cmd with its effective value. */
json_t *ccb_opts_to_json(const struct ccb_opts *o, uint64_t cmd);

#endif
