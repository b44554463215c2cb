/*
 * `ccbench group manifest`: a group as Kubernetes objects (see
 * group_manifest.h). Every member is one pod of an Indexed Job: Kubernetes
 * gives each its JOB_COMPLETION_INDEX, which names the member's own run
 * (its objects), and the group itself coordinates the start through RADOS,
 * as it does anywhere: no hosts file, no coordinator pod.
 *
 * Key material never appears in the manifest or on a command line: the
 * pod's script writes ceph.conf and the keyring into an emptyDir from the
 * mounted ConfigMap and Secret (with printf, a shell builtin, so the key
 * is in no process's argv either), as Rook's toolbox does.
 */
#include <ccbench/command.h>
#include "group_agg.h"
#include <ccbench/group_manifest.h>
#include "group_store.h"
#include <ccbench/redact.h>

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CCB_VERSION
#define CCB_VERSION "dev"
#endif

/* Where the image (docker/Dockerfile) has ccbench's entrypoint. */
#define ENTRYPOINT "/opt/ccbench/docker/entrypoint.sh"
/* Pods of one Job may start minutes apart (image pulls, scheduling). */
#define POD_GROUP_TIMEOUT "10m"

/* ---- YAML, block style: every string double-quoted (JSON's escapes are
 * YAML's), except our own multi-line scripts, which read better as a
 * literal block. Keys are ours, never user input. ---------------------- */

static void yaml_value(FILE *out, const json_t *v, int indent);

static void yaml_scalar(FILE *out, const json_t *v, int indent)
{
	const char *s = json_string_value(v);
	char *d;

	/* A literal block reads back as the string only when it ends in one
	 * newline and its first line sets the indentation (no leading blank). */
	size_t n = s ? strlen(s) : 0;

	if (n > 1 && strchr(s, '\n') && s[n - 1] == '\n' && s[n - 2] != '\n' && s[0] != ' ' &&
	    !strpbrk(s, "\r\t")) {
		fputs("|\n", out);
		while (*s) {
			size_t l = strcspn(s, "\n");
			fprintf(out, "%*s%.*s\n", indent, "", (int)l, s);
			s += l + (s[l] == '\n');
		}
		return;
	}
	d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	fprintf(out, "%s\n", d ? d : "null");
	free(d);
}

static bool is_block(const json_t *v)
{
	return (json_is_object(v) && json_object_size(v)) ||
	       (json_is_array(v) && json_array_size(v));
}

static void yaml_object(FILE *out, const json_t *o, int indent, bool first_inline)
{
	const char *k;
	json_t *v;
	bool first = true;

	json_object_foreach((json_t *)o, k, v)
	{
		if (!(first && first_inline))
			fprintf(out, "%*s", indent, "");
		first = false;
		fprintf(out, "%s:", k);
		if (is_block(v)) {
			fputc('\n', out);
			yaml_value(out, v, json_is_array(v) ? indent : indent + 2);
		} else {
			fputc(' ', out);
			if (json_is_object(v))
				fputs("{}\n", out);
			else if (json_is_array(v))
				fputs("[]\n", out);
			else
				yaml_scalar(out, v, indent + 2);
		}
	}
}

static void yaml_value(FILE *out, const json_t *v, int indent)
{
	size_t i;
	json_t *e;

	if (json_is_object(v)) {
		yaml_object(out, v, indent, false);
		return;
	}
	json_array_foreach((json_t *)v, i, e)
	{
		fprintf(out, "%*s- ", indent, "");
		if (json_is_object(e) && json_object_size(e))
			yaml_object(out, e, indent + 2, true);
		else
			yaml_scalar(out, e, indent + 2);
	}
}

/* ---- the objects ------------------------------------------------------- */

/* @p group as a Kubernetes name part: lower case, '_' as '-'. */
static int k8s_part(const char *group, char *buf, size_t len)
{
	size_t n = strlen(group);

	if (n + 1 > len)
		return -EINVAL;
	for (size_t i = 0; i <= n; i++)
		buf[i] = group[i] == '_' ? '-' : (char)tolower((unsigned char)group[i]);
	return buf[0] == '-' || buf[n - 1] == '-' ? -EINVAL : 0;
}

/* The conf and keyring from Rook's mounts, as its toolbox writes them:
 * mon endpoints "a=IP:PORT,..." without the names, the user and key from
 * the mon Secret. None of the user's input is in a script: it comes as
 * arguments ("$@") and environment. */
#define ROOK_CONF                                                                                  \
	"umask 077\n"                                                                              \
	"mon=$(sed 's/[a-z0-9_-]*=//g' /etc/rook/mon/mon-endpoints)\n"                             \
	"user=$(cat /etc/rook/secret/ceph-username)\n"                                             \
	"printf '[global]\\nmon_host = %s\\n' \"$mon\" >/etc/ceph/ceph.conf\n"                     \
	"printf '[%s]\\nkey = %s\\n' \"$user\" \"$(cat /etc/rook/secret/ceph-secret)\" "           \
	">/etc/ceph/keyring\n"

/* Each member's run is its own (objects RUN.*): named by its index. */
static const char member_rook[] =
    "set -eu\n" ROOK_CONF "exec " ENTRYPOINT
    " \"$@\" -c /etc/ceph/ceph.conf -k /etc/ceph/keyring -n \"$user\" --run-name "
    "\"$CCB_RUN_BASE-m$JOB_COMPLETION_INDEX\"\n";
static const char member_secret[] =
    "set -eu\nexec " ENTRYPOINT " \"$@\" -c /etc/ceph/ceph.conf -k /etc/ceph/keyring --run-name "
    "\"$CCB_RUN_BASE-m$JOB_COMPLETION_INDEX\"\n";
/* The report Job may start before the first member registered: "no such
 * group" (2) is tried again, bounded; --wait then waits for the members
 * still running, bounded too. */
static const char report_rook[] =
    "set -u\n" ROOK_CONF "for i in $(seq 1 120); do\n"
    "  rc=0\n"
    "  " ENTRYPOINT " \"$@\" -c /etc/ceph/ceph.conf -k /etc/ceph/keyring -n \"$user\" || rc=$?\n"
    "  [ \"$rc\" = 2 ] || exit \"$rc\"\n"
    "  sleep 5\n"
    "done\n"
    "exit 2\n";
static const char report_secret[] =
    "set -u\n"
    "for i in $(seq 1 120); do\n"
    "  rc=0\n"
    "  " ENTRYPOINT " \"$@\" -c /etc/ceph/ceph.conf -k /etc/ceph/keyring || rc=$?\n"
    "  [ \"$rc\" = 2 ] || exit \"$rc\"\n"
    "  sleep 5\n"
    "done\n"
    "exit 2\n";

/* Volumes and mounts: Rook's ConfigMap and Secret, or the named Secret. */
static void add_ceph_volumes(const struct ccb_opts *o, json_t *spec, json_t *container)
{
	if (o->k8s_secret) {
		json_object_set_new(spec, "volumes",
		                    json_pack("[{s:s, s:{s:s, s:i}}]", "name", "ceph-config",
		                              "secret", "secretName", o->k8s_secret, "defaultMode",
		                              0400));
		json_object_set_new(container, "volumeMounts",
		                    json_pack("[{s:s, s:s, s:b}]", "name", "ceph-config",
		                              "mountPath", "/etc/ceph", "readOnly", 1));
		return;
	}
	json_object_set_new(
	    spec, "volumes",
	    json_pack("[{s:s, s:{s:s, s:[{s:s, s:s}]}}, {s:s, s:{s:s, s:[{s:s, s:s}, {s:s, "
	              "s:s}], s:i}}, {s:s, s:{}}]",
	              "name", "mon-endpoints", "configMap", "name", "rook-ceph-mon-endpoints",
	              "items", "key", "data", "path", "mon-endpoints", "name", "mon-secret",
	              "secret", "secretName", "rook-ceph-mon", "items", "key", "ceph-username",
	              "path", "ceph-username", "key", "ceph-secret", "path", "ceph-secret",
	              "defaultMode", 0400, "name", "ceph-config", "emptyDir"));
	json_object_set_new(container, "volumeMounts",
	                    json_pack("[{s:s, s:s, s:b}, {s:s, s:s, s:b}, {s:s, s:s}]", "name",
	                              "mon-endpoints", "mountPath", "/etc/rook/mon", "readOnly", 1,
	                              "name", "mon-secret", "mountPath", "/etc/rook/secret",
	                              "readOnly", 1, "name", "ceph-config", "mountPath",
	                              "/etc/ceph"));
}

/* A Job: @p members indexed pods running @p script with @p args (the
 * members, whose runs are named from @p run_base), or one pod (the report). */
static json_t *job(const struct ccb_opts *o, const char *name, const char *part, int members,
                   const char *script, const json_t *args, const char *run_base)
{
	bool indexed = run_base != NULL;
	json_t *labels =
	    json_pack("{s:s, s:s}", "app.kubernetes.io/name", "ccbench", "ccbench.io/group", part);
	json_t *container = json_pack(
	    "{s:s, s:s, s:[s, s, s, s], s:o, s:{s:{s:s, s:s}}}", "name",
	    indexed ? "member" : "report", "image", o->k8s_image, "command", "/bin/sh", "-c",
	    script, "ccbench", "args", args ? json_deep_copy(args) : json_array(), "resources",
	    "requests", "cpu", indexed ? "1" : "100m", "memory", indexed ? "512Mi" : "128Mi");
	json_t *pod =
	    container ? json_pack("{s:s, s:[o]}", "restartPolicy", "Never", "containers", container)
	              : NULL;
	json_t *spec, *j;

	if (!labels || !pod) {
		json_decref(labels);
		json_decref(pod);
		return NULL;
	}
	add_ceph_volumes(o, pod, container);
	if (indexed)
		json_object_set_new(
		    container, "env",
		    json_pack("[{s:s, s:s}]", "name", "CCB_RUN_BASE", "value", run_base));
	if (indexed)
		/* One member per node: members on one host would share its CPU
		 * and link, which is what a group is there to avoid. */
		json_object_set_new(pod, "affinity",
		                    json_pack("{s:{s:[{s:{s:{s:s}}, s:s}]}}", "podAntiAffinity",
		                              "requiredDuringSchedulingIgnoredDuringExecution",
		                              "labelSelector", "matchLabels", "ccbench.io/group",
		                              part, "topologyKey", "kubernetes.io/hostname"));
	spec = json_pack("{s:i, s:{s:{s:O}, s:o}}", "backoffLimit", 0, "template", "metadata",
	                 "labels", labels, "spec", pod);
	if (spec && indexed) {
		json_object_set_new(spec, "completionMode", json_string("Indexed"));
		json_object_set_new(spec, "completions", json_integer(members));
		json_object_set_new(spec, "parallelism", json_integer(members));
	}
	j = json_pack("{s:s, s:s, s:{s:s, s:s, s:O}, s:o}", "apiVersion", "batch/v1", "kind", "Job",
	              "metadata", "name", name, "namespace", o->k8s_namespace, "labels", labels,
	              "spec", spec);
	json_decref(labels);
	return j;
}

int ccb_group_manifest_write(const struct ccb_cli *wl, const char *group, const json_t *args,
                             FILE *out)
{
	const struct ccb_opts *o = &wl->opts;
	char part[80], name[96], rname[112];
	json_t *members = NULL, *report = NULL, *rargs;
	int r = -ENOMEM;

	if (k8s_part(group, part, sizeof(part)) < 0)
		return -EINVAL;
	snprintf(name, sizeof(name), "ccbench-%s", part);
	snprintf(rname, sizeof(rname), "ccbench-%s-report", part);
	rargs = json_pack("[s, s, s, s, s, s, s]", "group", "report", group, "--group-pool",
	                  ccb_group_pool(o), "--wait", "30m");
	if (!rargs)
		return r;
	/* Each member's run name: the base here, its index added in the pod. */
	members = job(o, name, part, (int)o->members, o->k8s_secret ? member_secret : member_rook,
	              args, o->run_name ? o->run_name : group);
	report = job(o, rname, part, 1, o->k8s_secret ? report_secret : report_rook, rargs, NULL);
	if (!members || !report)
		goto out;
	fprintf(out,
	        "# ccbench %s: group %s, %llu members (`ccbench group manifest`).\n"
	        "# kubectl apply -f this; the second Job reports the group when its\n"
	        "# members are done (kubectl logs job/%s).\n",
	        CCB_VERSION, group, (unsigned long long)o->members, rname);
	fputs("---\n", out);
	yaml_value(out, members, 0);
	fputs("---\n", out);
	yaml_value(out, report, 0);
	r = ferror(out) ? -EIO : 0;
out:
	json_decref(rargs);
	json_decref(members);
	json_decref(report);
	return r;
}

/* ---- the command -------------------------------------------------------- */

/* The option @p arg ("--name", "--name=v", "-x...") names, or NULL. */
static const struct ccb_opt_desc *option_of(const char *arg)
{
	if (arg[1] == '-') {
		size_t l = strcspn(arg + 2, "=");
		for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
			if (strlen(d->name) == l && strncmp(d->name, arg + 2, l) == 0)
				return d;
		return NULL;
	}
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
		if (d->short_name == arg[1])
			return d;
	return NULL;
}

/* Options the pod sets itself, or the manifest's own: not passed on. */
static bool manifest_own(const struct ccb_opt_desc *d)
{
	return strncmp(d->name, "k8s-", 4) == 0 || strcmp(d->name, "members") == 0 ||
	       strcmp(d->name, "run-name") == 0;
}

/*
 * The members' arguments: argv without the command words, NAME and the
 * manifest's own options, which the option table tells apart from option
 * values (cli.c parsed the same argv already, so every option is known).
 * Short options stand alone here: "-t 4", not "-t4" grouped with others.
 */
static int member_args(const struct ccb_cli *cli, int argc, char **argv, json_t *out, char *err,
                       size_t err_len)
{
	int words = 0;
	bool rest_words = false;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct ccb_opt_desc *d;
		bool takes, inline_value;

		if (rest_words || a[0] != '-' || a[1] == '\0') {
			/* "group", "manifest", NAME; then the workload's words. */
			if (words++ >= 3)
				json_array_append_new(out, json_string(a));
			continue;
		}
		if (strcmp(a, "--") == 0) {
			rest_words = true;
			continue;
		}
		d = option_of(a);
		if (!d) {
			snprintf(err, err_len, "%s: '%s': not an option ccbench knows",
			         cli->command, a);
			return -EINVAL;
		}
		takes = d->type != CCB_OPT_FLAG;
		inline_value = a[1] == '-' ? strchr(a, '=') != NULL : a[2] != '\0';
		if (strcmp(d->name, "conf") == 0 || strcmp(d->name, "keyring") == 0 ||
		    strcmp(d->name, "group") == 0 ||
		    (!cli->opts.k8s_secret &&
		     (strcmp(d->name, "name") == 0 || strcmp(d->name, "id") == 0))) {
			snprintf(err, err_len,
			         "%s: --%s: not an option of this command: the pods set it "
			         "themselves (the "
			         "group from NAME; the conf, "
			         "keyring%s from %s)",
			         cli->command, d->name,
			         cli->opts.k8s_secret ? "" : " and client name",
			         cli->opts.k8s_secret ? "--k8s-secret" : "Rook's mon Secret");
			return -EINVAL;
		}
		if (!manifest_own(d))
			json_array_append_new(out, json_string(a));
		if (takes && !inline_value && i + 1 < argc) {
			i++;
			if (!manifest_own(d))
				json_array_append_new(out, json_string(argv[i]));
		}
	}
	return 0;
}

/* An image reference: registry/path:tag@digest characters, bounded. */
static bool valid_image(const char *s)
{
	size_t l = strlen(s);

	return l >= 1 && l <= 255 && isalnum((unsigned char)s[0]) &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/:@") ==
	           l;
}

int ccb_group_manifest_command(const struct ccb_cli *cli, int argc, char **argv)
{
	const char *group = cli->args[0];
	struct ccb_cli wl = *cli;
	char err[512], word[64], part[80];
	json_t *args = json_array(), *red = NULL, *v;
	size_t i;
	int r;

	if (!args)
		return 1;
	/* The workload is checked as its own command line would be. */
	snprintf(word, sizeof(word), "%s %s", cli->args[1], cli->args[2]);
	if (ccb_cli_select(&wl, word, err, sizeof(err)) < 0 || !wl.ops) {
		fprintf(stderr,
		        "ccbench: group manifest: '%s' is not a workload (rados write, rbd "
		        "read, ...)\n",
		        word);
		json_decref(args);
		return 2;
	}
	wl.opts.group = group;
	/* The manifest's own options are not the workload's. */
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
		if (!(d->cmds & CCB_CMD_ANY_PATH))
			wl.opts.given[d - ccb_opt_table] = false;
	if (ccb_cli_validate(&wl, err, sizeof(err)) < 0 ||
	    member_args(cli, argc, argv, args, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		json_decref(args);
		return 2;
	}
	if (k8s_part(group, part, sizeof(part)) < 0 || strlen(part) > 50) {
		fprintf(stderr,
		        "ccbench: group manifest '%s': as a Kubernetes name (lower case, '_' as "
		        "'-') it must start and end with a letter or digit and have at most 50 "
		        "characters\n",
		        group);
		json_decref(args);
		return 2;
	}
	/* Each pod adds "-m<index>" to the run name, which --run-name bounds. */
	if (strlen(cli->opts.run_name ? cli->opts.run_name : group) > 58) {
		fprintf(stderr,
		        "ccbench: group manifest: --run-name (else NAME) '%s': at most 58 "
		        "characters, so that each pod's \"-m<index>\" fits in 64\n",
		        cli->opts.run_name ? cli->opts.run_name : group);
		json_decref(args);
		return 2;
	}
	/* The option table let A-Z and _ through; Kubernetes names do not. */
	for (size_t k = 0; k < 2; k++) {
		const char *name = k ? cli->opts.k8s_secret : cli->opts.k8s_namespace;

		if (name && (k8s_part(name, part, sizeof(part)) < 0 || strcmp(part, name) != 0 ||
		             strlen(name) > 63)) {
			fprintf(stderr,
			        "ccbench: --%s '%s': not a Kubernetes name (1 to 63 of a-z 0-9 -, "
			        "starting and ending with a letter or digit)\n",
			        k ? "k8s-secret" : "k8s-namespace", name);
			json_decref(args);
			return 2;
		}
	}
	if (!valid_image(cli->opts.k8s_image)) {
		fprintf(
		    stderr,
		    "ccbench: --k8s-image '%s': not an image reference (1 to 255 of A-Z a-z 0-9 "
		    ". _ - / : @)\n",
		    cli->opts.k8s_image);
		json_decref(args);
		return 2;
	}
	/* Never a key in the manifest: what ccbench would redact is refused. */
	{
		char **av = calloc(json_array_size(args) + 1, sizeof(*av));

		if (!av) {
			json_decref(args);
			return 1;
		}
		json_array_foreach(args, i, v) av[i] = (char *)json_string_value(v);
		red = ccb_redact_argv((int)json_array_size(args), av);
		free(av);
	}
	json_array_foreach(red, i, v)
	{
		if (strcmp(json_string_value(v), json_string_value(json_array_get(args, i))) != 0) {
			fprintf(stderr,
			        "ccbench: group manifest: '%s' holds key material: never in a "
			        "manifest; "
			        "the pods read the keyring from the Secret\n",
			        json_string_value(json_array_get(args, i)));
			json_decref(red);
			json_decref(args);
			return 2;
		}
	}
	json_decref(red);
	json_array_append_new(args, json_string("--group"));
	json_array_append_new(args, json_string(group));
	json_array_append_new(args, json_string("--members"));
	{
		char n[24];
		snprintf(n, sizeof(n), "%llu", (unsigned long long)cli->opts.members);
		json_array_append_new(args, json_string(n));
	}
	if (!ccb_opt_given(&cli->opts, "group-timeout")) {
		json_array_append_new(args, json_string("--group-timeout"));
		json_array_append_new(args, json_string(POD_GROUP_TIMEOUT));
	}
	r = ccb_group_manifest_write(&wl, group, args, stdout);
	json_decref(args);
	if (r == -EINVAL) {
		fprintf(stderr, "ccbench: group manifest '%s': not a Kubernetes name\n", group);
		return 2;
	}
	if (r < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "ccbench: group manifest: writing stdout: %s\n",
		        strerror(r < 0 ? -r : errno));
		return 1;
	}
	return 0;
}

/* The group manifest command's row. */
const struct ccb_command ccb_group_manifest_commands[] = {
    {
        .name = "group manifest",
        .mask = CCB_CMD_K8S | CCB_CMD_ANY_PATH | CCB_CMD_CONN | CCB_CMD_OUTPUT,
        .mode = CCB_MODE_SEQ,
        .n_args = 3,
        .args_help = "NAME WORKLOAD",
        .summary = "print a Kubernetes Indexed Job that runs a group, one member per pod",
        .description =
            "Prints (nothing is contacted) an Indexed Job of --members pods, one per node, "
            "each a member of group NAME running WORKLOAD (two words, rados write, and its "
            "options, checked as on its own command line), and a Job that reports the group "
            "after. The conf and keyring come from Rook's rook-ceph-mon-endpoints ConfigMap "
            "and rook-ceph-mon Secret, or --k8s-secret: never a key in the manifest.",
        .example = "ccbench group manifest wk48 --members 8 rados write -p rbd -d 60s -t 32",
        .run = ccb_group_manifest_command,
    },
    {0},
};
