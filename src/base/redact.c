/*
 * Key material out of everything ccbench writes or shows. A result
 * travels: stdout, --output files, CI artefacts, and in group mode RADOS
 * objects every client of the cluster can read; state records and
 * messages reach CI logs. The command line and
 * -o settings it records may carry key material (-o key=..., --map-options
 * secret=...). Values of such settings are replaced where the result is
 * built, so no view, file or group record can hold them. Paths (-k
 * KEYRING) stay: they name where a key is, not the key.
 */
#include <ccbench/redact.h>

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char *const secret_names[] = {"key", "secret", "keyring", "password", "token"};

/* Option words of other tools that take key material as the next word
 * ("rbd --key AQB..."): their value goes in free text and in argv. Not
 * --keyring, which names a file. */
static const char *const secret_flags[] = {"--key", "--secret", "--token", "--password"};

/* @p name (@p len bytes) names key material: "key", "secret", "keyring",
 * "password", "token", or ends in "_key", "-secret", ".token" ...; an
 * option word ("-okey", "-qokey") ends in one. Case and '-'/'_' do not
 * matter. */
static bool secret_name(const char *name, size_t len, bool option_word)
{
	for (size_t k = 0; k < sizeof(secret_names) / sizeof(secret_names[0]); k++) {
		size_t sl = strlen(secret_names[k]);
		const char *tail = name + len - sl;
		char before;

		if (len < sl || strncasecmp(tail, secret_names[k], sl) != 0)
			continue;
		before = len > sl ? tail[-1] : '\0';
		if (!before || before == '_' || before == '-' || before == '.' || option_word)
			return true;
	}
	return false;
}

static bool secret_flag(const char *s, size_t len)
{
	for (size_t k = 0; k < sizeof(secret_flags) / sizeof(secret_flags[0]); k++)
		if (strlen(secret_flags[k]) == len && strncmp(s, secret_flags[k], len) == 0)
			return true;
	return false;
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* Where a free-text value ends: a comma, whitespace, a quote. */
static bool value_end(char c)
{
	return !c || c == ',' || c == '"' || c == '\'' || isspace((unsigned char)c);
}

static bool b64_char(char c)
{
	return isalnum((unsigned char)c) || c == '+' || c == '/';
}

/* A ceph secret as keyrings and `ceph auth get-key` spell it starts at
 * @p s: base64 of 28 bytes whose first two are the key type 1 ("AQ"), 40
 * characters ending "==", no base64 character on either side. So specific
 * that no ordinary word matches. */
static size_t ceph_key_at(const char *text, const char *s)
{
	if ((s > text && b64_char(s[-1])) || s[0] != 'A' || s[1] != 'Q')
		return 0;
	for (int i = 2; i < 38; i++)
		if (!b64_char(s[i]))
			return 0;
	return s[38] == '=' && s[39] == '=' && !b64_char(s[40]) && s[40] != '=' ? 40 : 0;
}

/* Copy-and-scan state of ccb_redact_text(): the output so far, and the
 * text's first blank or quote (NULL: none yet), kept as the scan moves so
 * that the whole is linear. */
struct redact {
	char *out;
	size_t o;
	const char *blank;
};

/* The scan passes over [@p from, @p to). */
static void pass(struct redact *r, const char *from, const char *to)
{
	for (const char *q = from; !r->blank && q < to; q++)
		if (*q == '"' || *q == '\'' || isspace((unsigned char)*q))
			r->blank = q;
}

static void put_redacted(struct redact *r)
{
	memcpy(r->out + r->o, CCB_REDACTED, sizeof(CCB_REDACTED) - 1);
	r->o += sizeof(CCB_REDACTED) - 1;
}

char *ccb_redact_text(const char *text)
{
	size_t len = strlen(text);
	/* Each redaction replaces at least 2 bytes ("=X", " X") or 40. */
	struct redact r = {.out = malloc(len + sizeof(CCB_REDACTED) * (len / 2 + 1) + 1)};
	const char *p = text;

	if (!r.out)
		return NULL;
	while (*p) {
		const char *v = NULL, *name, *end;
		size_t kl;

		if ((kl = ceph_key_at(text, p)) > 0) {
			put_redacted(&r);
			p += kl; /* base64: no comma, blank or quote to pass */
			continue;
		}
		r.out[r.o++] = *p;
		pass(&r, p, p + 1);
		if (*p == '=') {
			/* NAME=VALUE: NAME is the run of name characters before. */
			for (name = p; name > text && name_char(name[-1]); name--)
				;
			bool option_word = name[0] == '-' && name[1] != '-';
			/* --keyring=PATH names a file, like -k PATH: kept. */
			bool keyring_path = p - name == 9 && strncmp(name, "--keyring", 9) == 0;
			if (name < p && !keyring_path &&
			    secret_name(name, (size_t)(p - name), option_word))
				v = p + 1;
		} else if (isspace((unsigned char)*p) && p > text) {
			/* "--key VALUE": the word before this blank is a secret flag. */
			for (name = p; name > text && !value_end(name[-1]); name--)
				;
			if (secret_flag(name, (size_t)(p - name))) {
				while (p[1] == ' ' || p[1] == '\t')
					r.out[r.o++] = *++p;
				v = p + 1;
			}
		}
		p++;
		if (v && (*v == '"' || *v == '\'') && (end = strchr(v + 1, *v)) && end > v + 1) {
			/* A quoted value: to its closing quote, which stays. */
			r.out[r.o++] = *p;
			put_redacted(&r);
			pass(&r, p, end);
			p = end;
			continue;
		}
		if (!v || value_end(*v))
			continue;
		/* One word, as an argv item is ("key=X", "secret=X,noshare",
		 * "--set=key=X"): the value is the rest of its comma item, blanks
		 * after it and all. In free text ("... -o secret=X,noudev", a
		 * blank before it): up to a comma, blank or quote. */
		bool item = !r.blank;
		for (end = p; *end && *end != ',' && (item || !value_end(*end)); end++)
			;
		pass(&r, p, end);
		p = end;
		put_redacted(&r);
	}
	r.out[r.o] = '\0';
	return r.out;
}

int ccb_redact_json(json_t *doc)
{
	const char *key;
	json_t *v;
	size_t i;
	int r = 0;

	if (json_is_string(doc)) {
		const char *s = json_string_value(doc);
		char *red;

		/* Nothing to redact without NAME=, a "--flag VALUE" or a key's "==". */
		if (!strchr(s, '=') && !strstr(s, "--"))
			return 0;
		red = ccb_redact_text(s);
		if (!red)
			return -ENOMEM;
		if (strcmp(red, s) != 0 && json_string_set(doc, red) < 0)
			r = -ENOMEM;
		free(red);
		return r;
	}
	if (json_is_object(doc))
		json_object_foreach(doc, key, v) if (r == 0) r = ccb_redact_json(v);
	if (json_is_array(doc))
		json_array_foreach(doc, i, v) if (r == 0) r = ccb_redact_json(v);
	return r;
}

json_t *ccb_redact_argv(int argc, char *const *argv)
{
	json_t *args = json_array();

	for (int i = 0; args && i < argc; i++) {
		/* "--key VALUE" as two words: the second goes whole. */
		bool after_flag = i > 0 && secret_flag(argv[i - 1], strlen(argv[i - 1]));
		char *red = after_flag ? strdup(CCB_REDACTED) : ccb_redact_text(argv[i]);
		if (!red || json_array_append_new(args, json_string(red)) < 0) {
			free(red);
			json_decref(args);
			return NULL;
		}
		free(red);
	}
	return args;
}

void ccb_redact_in_place(char *buf, size_t len)
{
	char *red = ccb_redact_text(buf);

	/* Without memory for the copy, nothing of it is shown. */
	snprintf(buf, len, "%s", red ? red : "(message withheld: out of memory)");
	free(red);
}
