/*
 * field-ref.c: the C reference of tagd-bench. A yardstick, not a server.
 *
 * It exists only so that tagd-bench can say what tagd's keystroke costs against what a plain,
 * careful C program costs for the same job (issue 25: "<= 2x a C implementation"). tagd-bench
 * compiles it at run time (`cc -O2`), checks that its replies to the typing workload are
 * byte-identical to tagd's, and then measures it beside tagd, the floor and the Node.js peer.
 * Nothing ships it and no editor talks to it.
 *
 * The I/O model is tagd's: read stdin up to 64 KiB at a time into one buffer, answer every
 * complete Content-Length frame in it, and write all the replies with one write(2) per read.
 * Requests are read by a hand-written JSON scanner for the shapes below (any member order;
 * members it does not know are skipped; strings are UTF-8-validated and their escapes decoded).
 *
 * What it implements, and nothing more:
 *   initialize                  -> {"serverInfo":{"name":"field-ref",...},"capabilities":{}}
 *   initialized                 -> nothing (a notification)
 *   field/open {field, tags?, text?}, field/change {field, text}, field/state {field}
 *                               -> the field state, member for member as tagd writes it:
 *                                  {field, version, prompt, tags, text, outcome, canUndo?,
 *                                  announcement?}
 *   field/close {field}, shutdown -> null
 *   exit                        -> exits (status 0; so does end of input)
 *
 * The field rule is tagd's with default options: ',', LF and CR separate (a CRLF counts once);
 * every piece before the last separator is trimmed and added unless it is empty or a caseless
 * duplicate; the rest, less its leading spaces, is the draft. The version counts changes of
 * tags or draft, and canUndo appears once anything changed. The announcement is tagd's English
 * ("Added a, b and c." and "x is already a tag, as X.").
 *
 * Simplifications, none of which the benchmark's requests reach: trimming and caseless
 * comparison are ASCII-only (tagd trims Unicode whitespace and folds Unicode case); fields are
 * found by a linear search over their names; tags are never removed; there are no layouts,
 * suggestions, undo, sync or options; of the errors only "No open field" is tagd's.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define READ_SIZE (64 * 1024)
#define MAX_DEPTH 64

/* ---- growable byte buffers ---- */

struct buf {
	char *p;
	size_t len, cap;
};

static void die(void)
{
	static const char msg[] = "field-ref: out of memory\n";
	(void)!write(2, msg, sizeof msg - 1);
	exit(3);
}

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 16;
	while (c < need)
		c *= 2;
	p = realloc(p, c * size);
	if (p == NULL)
		die();
	*cap = c;
	return p;
}

static inline void reserve(struct buf *b, size_t n)
{
	if (b->cap - b->len < n)
		b->p = grow(b->p, &b->cap, b->len + n, 1);
}

static inline void put(struct buf *b, const char *s, size_t n)
{
	reserve(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

#define PUT_LIT(b, s) put((b), (s), sizeof(s) - 1)

static inline void put_char(struct buf *b, char c)
{
	reserve(b, 1);
	b->p[b->len++] = c;
}

/* Decimal digits of v into the end of d[20]; returns the first digit. */
static char *digits(uint64_t v, char d[20])
{
	char *q = d + 20;
	do {
		*--q = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	return q;
}

static void put_uint(struct buf *b, uint64_t v)
{
	char d[20];
	char *q = digits(v, d);
	put(b, q, (size_t)(d + 20 - q));
}

/* Bytes JSON requires escaped: control characters, '"' and '\\' (and nothing else: not '/',
 * not DEL, as tagd). */
static inline int needs_escape(unsigned char c)
{
	return c < 0x20 || c == '"' || c == '\\';
}

/* Eight bytes at a time: a word-wide test that is never wrong when it says "none here"
 * (whatever the byte order); when it says "maybe", the caller looks byte by byte. */
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static inline uint64_t load8(const char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* Nonzero when some byte of x is below n (n <= 0x80). */
static inline uint64_t any_below(uint64_t x, uint64_t n)
{
	return (x - ONES * n) & ~x & HIGHS;
}

/* Nonzero when some byte of x is c. */
static inline uint64_t any_equal(uint64_t x, uint64_t c)
{
	return any_below(x ^ (ONES * c), 1);
}

static inline uint64_t any_escape(uint64_t x)
{
	return any_below(x, 0x20) | any_equal(x, '"') | any_equal(x, '\\');
}

/* The escape of c, one of the bytes needs_escape names. */
static void put_escape(struct buf *b, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char e[6] = {'\\', 0, '0', '0', 0, 0};
	switch (c) {
	case '"': e[1] = '"'; break;
	case '\\': e[1] = '\\'; break;
	case '\n': e[1] = 'n'; break;
	case '\r': e[1] = 'r'; break;
	case '\t': e[1] = 't'; break;
	case '\b': e[1] = 'b'; break;
	case '\f': e[1] = 'f'; break;
	default:
		e[1] = 'u';
		e[4] = hex[c >> 4];
		e[5] = hex[c & 15];
		put(b, e, 6);
		return;
	}
	put(b, e, 2);
}

/* s as the inside of a JSON string: runs without escapes are copied whole. */
static void put_escaped(struct buf *b, const char *s, size_t n)
{
	size_t run = 0, i = 0;
	while (i < n) {
		if (n - i >= 8 && any_escape(load8(s + i)) == 0) {
			i += 8;
			continue;
		}
		size_t stop = n - i >= 8 ? i + 8 : n;
		for (; i < stop; i++) {
			unsigned char c = (unsigned char)s[i];
			if (!needs_escape(c))
				continue;
			put(b, s + run, i - run);
			put_escape(b, c);
			run = i + 1;
		}
	}
	put(b, s + run, n - run);
}

static void put_string(struct buf *b, const char *s, size_t n)
{
	put_char(b, '"');
	put_escaped(b, s, n);
	put_char(b, '"');
}

/* ---- the JSON scanner: just the shapes of the requests above ---- */

struct str {
	const char *p;
	size_t n;
};

static inline int str_is(struct str s, const char *lit, size_t n)
{
	return s.n == n && memcmp(s.p, lit, n) == 0;
}

#define STR_IS(s, lit) str_is((s), (lit), sizeof(lit) - 1)

struct scan {
	const char *p, *end;
	/* Decoded strings with escapes go here; sized to the body up front, so never moved. */
	char *scratch;
};

static inline void skip_ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		unsigned char c = (unsigned char)p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v |= (unsigned)((c | 0x20) - 'a' + 10);
		else
			return 0;
	}
	*out = v;
	return 1;
}

/* The length of the valid UTF-8 sequence (2 to 4 bytes) at p, or 0. */
static size_t utf8_length(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0];
	size_t n;
	unsigned char lo = 0x80, hi = 0xBF;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F; /* no surrogates */
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
	} else
		return 0;
	if ((size_t)(end - p) < n || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	return n;
}

static char *put_utf8(char *q, unsigned v)
{
	if (v < 0x80) {
		*q++ = (char)v;
	} else if (v < 0x800) {
		*q++ = (char)(0xC0 | v >> 6);
		*q++ = (char)(0x80 | (v & 0x3F));
	} else if (v < 0x10000) {
		*q++ = (char)(0xE0 | v >> 12);
		*q++ = (char)(0x80 | (v >> 6 & 0x3F));
		*q++ = (char)(0x80 | (v & 0x3F));
	} else {
		*q++ = (char)(0xF0 | v >> 18);
		*q++ = (char)(0x80 | (v >> 12 & 0x3F));
		*q++ = (char)(0x80 | (v >> 6 & 0x3F));
		*q++ = (char)(0x80 | (v & 0x3F));
	}
	return q;
}

/* A string at s->p (its opening quote). Without escapes it is a slice of the input; with
 * them it is decoded into the scratch area. Returns 0 on malformed input. */
static int read_string(struct scan *s, struct str *out)
{
	const char *p = s->p + 1, *end = s->end;
	const char *start = p;
	for (;;) {
		if (end - p >= 8) {
			uint64_t x = load8(p);
			if ((any_escape(x) | (x & HIGHS)) == 0) {
				p += 8;
				continue;
			}
		}
		/* Something in the next eight bytes (or fewer, at the end): one at a time. */
		const char *stop = end - p >= 8 ? p + 8 : end;
		if (p >= end)
			return 0;
		while (p < stop) {
			unsigned char c = (unsigned char)*p;
			if (c == '"') {
				out->p = start;
				out->n = (size_t)(p - start);
				s->p = p + 1;
				return 1;
			}
			if (c == '\\')
				goto escapes;
			if (c < 0x20)
				return 0;
			if (c < 0x80) {
				p++;
				continue;
			}
			size_t n = utf8_length((const unsigned char *)p, (const unsigned char *)end);
			if (n == 0)
				return 0;
			p += n;
		}
	}
escapes:;
	/* Escapes: copy what came before, then decode. */
	char *q = s->scratch;
	memcpy(q, start, (size_t)(p - start));
	q += p - start;
	for (;;) {
		if (p >= end)
			return 0;
		unsigned char c = (unsigned char)*p;
		if (c == '"')
			break;
		if (c < 0x20)
			return 0;
		if (c >= 0x80) {
			size_t n = utf8_length((const unsigned char *)p, (const unsigned char *)end);
			if (n == 0)
				return 0;
			memcpy(q, p, n);
			q += n;
			p += n;
			continue;
		}
		if (c != '\\') {
			*q++ = (char)c;
			p++;
			continue;
		}
		if (end - p < 2)
			return 0;
		switch (p[1]) {
		case '"': *q++ = '"'; break;
		case '\\': *q++ = '\\'; break;
		case '/': *q++ = '/'; break;
		case 'b': *q++ = '\b'; break;
		case 'f': *q++ = '\f'; break;
		case 'n': *q++ = '\n'; break;
		case 'r': *q++ = '\r'; break;
		case 't': *q++ = '\t'; break;
		case 'u': {
			unsigned v, low;
			if (end - p < 6 || !hex4(p + 2, &v))
				return 0;
			if (v >= 0xDC00 && v <= 0xDFFF)
				return 0; /* a lone low surrogate */
			if (v >= 0xD800 && v <= 0xDBFF) {
				if (end - p < 12 || p[6] != '\\' || p[7] != 'u' || !hex4(p + 8, &low) ||
				    low < 0xDC00 || low > 0xDFFF)
					return 0;
				v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00);
				p += 6;
			}
			q = put_utf8(q, v);
			p += 6;
			continue;
		}
		default:
			return 0;
		}
		p += 2;
	}
	/* The decoded bytes are never longer than the encoded ones, so the scratch area (the
	 * body's size) holds every string of one message. */
	out->p = s->scratch;
	out->n = (size_t)(q - s->scratch);
	s->scratch = q;
	s->p = p + 1;
	return 1;
}

static int skip_value(struct scan *s, int depth);

static int skip_members(struct scan *s, char close, int depth)
{
	s->p++;
	skip_ws(s);
	if (s->p < s->end && *s->p == close) {
		s->p++;
		return 1;
	}
	for (;;) {
		if (close == '}') {
			struct str key;
			if (s->p >= s->end || *s->p != '"' || !read_string(s, &key))
				return 0;
			skip_ws(s);
			if (s->p >= s->end || *s->p != ':')
				return 0;
			s->p++;
			skip_ws(s);
		}
		if (!skip_value(s, depth + 1))
			return 0;
		skip_ws(s);
		if (s->p >= s->end)
			return 0;
		if (*s->p == close) {
			s->p++;
			return 1;
		}
		if (*s->p != ',')
			return 0;
		s->p++;
		skip_ws(s);
	}
}

static int skip_literal(struct scan *s, const char *lit, size_t n)
{
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n) != 0)
		return 0;
	s->p += n;
	return 1;
}

/* Skips one value at s->p (after white space). */
static int skip_value(struct scan *s, int depth)
{
	if (s->p >= s->end || depth > MAX_DEPTH)
		return 0;
	struct str ignored;
	switch (*s->p) {
	case '"': return read_string(s, &ignored);
	case '{': return skip_members(s, '}', depth);
	case '[': return skip_members(s, ']', depth);
	case 't': return skip_literal(s, "true", 4);
	case 'f': return skip_literal(s, "false", 5);
	case 'n': return skip_literal(s, "null", 4);
	default: {
		const char *start = s->p;
		while (s->p < s->end &&
		       ((*s->p >= '0' && *s->p <= '9') || *s->p == '-' || *s->p == '+' ||
			*s->p == '.' || *s->p == 'e' || *s->p == 'E'))
			s->p++;
		return s->p > start;
	}
	}
}

/* What a request says. The params of every field method share one shape, so they are read
 * in the same pass as the envelope, whatever the order of the members. */
struct request {
	struct str id;     /* the id's bytes as sent; n == 0 for a notification */
	struct str method;
	struct str field;
	struct str text;
	int has_method, has_field, has_text, bad_params;
	size_t ntags;      /* the tags are in the `tags` vector below */
};

static struct str *tags;
static size_t tags_cap;

static int read_tags(struct scan *s, struct request *r)
{
	s->p++;
	skip_ws(s);
	if (s->p < s->end && *s->p == ']') {
		s->p++;
		return 1;
	}
	for (;;) {
		if (s->p >= s->end)
			return 0;
		if (*s->p != '"') {
			r->bad_params = 1;
			if (!skip_value(s, 2))
				return 0;
		} else {
			if (r->ntags == tags_cap)
				tags = grow(tags, &tags_cap, r->ntags + 1, sizeof *tags);
			if (!read_string(s, &tags[r->ntags++]))
				return 0;
		}
		skip_ws(s);
		if (s->p >= s->end)
			return 0;
		if (*s->p == ']') {
			s->p++;
			return 1;
		}
		if (*s->p != ',')
			return 0;
		s->p++;
		skip_ws(s);
	}
}

static int read_params(struct scan *s, struct request *r)
{
	if (*s->p != '{') {
		r->bad_params = 1;
		return skip_value(s, 1);
	}
	s->p++;
	skip_ws(s);
	if (s->p < s->end && *s->p == '}') {
		s->p++;
		return 1;
	}
	for (;;) {
		struct str key;
		if (s->p >= s->end || *s->p != '"' || !read_string(s, &key))
			return 0;
		skip_ws(s);
		if (s->p >= s->end || *s->p != ':')
			return 0;
		s->p++;
		skip_ws(s);
		if (s->p >= s->end)
			return 0;
		int is_string = *s->p == '"';
		if (STR_IS(key, "field") && is_string) {
			if (!read_string(s, &r->field))
				return 0;
			r->has_field = 1;
		} else if (STR_IS(key, "text") && is_string) {
			if (!read_string(s, &r->text))
				return 0;
			r->has_text = 1;
		} else if (STR_IS(key, "tags") && *s->p == '[') {
			if (!read_tags(s, r))
				return 0;
		} else {
			if (STR_IS(key, "field") || STR_IS(key, "text") || STR_IS(key, "tags"))
				r->bad_params = 1;
			if (!skip_value(s, 1))
				return 0;
		}
		skip_ws(s);
		if (s->p >= s->end)
			return 0;
		if (*s->p == '}') {
			s->p++;
			return 1;
		}
		if (*s->p != ',')
			return 0;
		s->p++;
		skip_ws(s);
	}
}

static int read_request(struct scan *s, struct request *r)
{
	memset(r, 0, sizeof *r);
	skip_ws(s);
	if (s->p >= s->end || *s->p != '{')
		return 0;
	s->p++;
	skip_ws(s);
	if (s->p < s->end && *s->p == '}')
		return 0;
	for (;;) {
		struct str key;
		if (s->p >= s->end || *s->p != '"' || !read_string(s, &key))
			return 0;
		skip_ws(s);
		if (s->p >= s->end || *s->p != ':')
			return 0;
		s->p++;
		skip_ws(s);
		if (s->p >= s->end)
			return 0;
		if (STR_IS(key, "id")) {
			const char *start = s->p;
			if (!skip_value(s, 1))
				return 0;
			r->id.p = start;
			r->id.n = (size_t)(s->p - start);
		} else if (STR_IS(key, "method") && *s->p == '"') {
			if (!read_string(s, &r->method))
				return 0;
			r->has_method = 1;
		} else if (STR_IS(key, "params")) {
			if (!read_params(s, r))
				return 0;
		} else if (!skip_value(s, 1)) {
			return 0;
		}
		skip_ws(s);
		if (s->p >= s->end)
			return 0;
		if (*s->p == '}') {
			s->p++;
			break;
		}
		if (*s->p != ',')
			return 0;
		s->p++;
		skip_ws(s);
	}
	skip_ws(s);
	return s->p == s->end;
}

/* ---- fields ---- */

struct tag {
	size_t off, len;           /* the text, in the field's `bytes` */
	size_t json_off, json_len; /* the text escaped for JSON, in the field's `json` */
	uint32_t hash;
};

struct field {
	struct buf name;
	struct buf bytes;  /* every tag's text, end to end */
	struct buf json;   /* the tags as the inside of a JSON array: "a","b",... (written once) */
	struct tag *tags;
	size_t ntags, tags_cap;
	uint32_t *slots;   /* open addressing over the tags' caseless keys: index + 1, 0 empty */
	size_t nslots;     /* a power of two, at least twice the tags */
	struct buf draft;
	uint64_t version;
	int can_undo;
};

static struct field **fields;
static size_t nfields, fields_cap;

static inline unsigned char ascii_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c | 0x20) : c;
}

/* FNV-1a of the caseless key (ASCII letters folded). */
static uint32_t key_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ ascii_lower((unsigned char)s[i])) * 16777619u;
	return h;
}

static int caseless_equal(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ascii_lower((unsigned char)a[i]) != ascii_lower((unsigned char)b[i]))
			return 0;
	return 1;
}

/* The index of the tag with the key of s, or -1. */
static ptrdiff_t find_tag(const struct field *f, const char *s, size_t n, uint32_t h)
{
	if (f->nslots == 0)
		return -1;
	size_t mask = f->nslots - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		uint32_t slot = f->slots[i];
		if (slot == 0)
			return -1;
		const struct tag *t = &f->tags[slot - 1];
		if (t->hash == h && t->len == n && caseless_equal(f->bytes.p + t->off, s, n))
			return slot - 1;
	}
}

static void place(struct field *f, size_t index)
{
	size_t mask = f->nslots - 1;
	size_t i = f->tags[index].hash & mask;
	while (f->slots[i] != 0)
		i = (i + 1) & mask;
	f->slots[i] = (uint32_t)(index + 1);
}

static size_t add_tag(struct field *f, const char *s, size_t n, uint32_t h)
{
	if (f->ntags == f->tags_cap)
		f->tags = grow(f->tags, &f->tags_cap, f->ntags + 1, sizeof *f->tags);
	size_t index = f->ntags++;
	struct tag *t = &f->tags[index];
	t->off = f->bytes.len;
	t->len = n;
	t->hash = h;
	put(&f->bytes, s, n);
	if (index > 0)
		put_char(&f->json, ',');
	put_char(&f->json, '"');
	t->json_off = f->json.len;
	put_escaped(&f->json, s, n);
	t->json_len = f->json.len - t->json_off;
	put_char(&f->json, '"');
	if (f->ntags * 2 > f->nslots) {
		free(f->slots);
		f->nslots = f->nslots ? f->nslots * 2 : 16;
		f->slots = calloc(f->nslots, sizeof *f->slots);
		if (f->slots == NULL)
			die();
		for (size_t i = 0; i < f->ntags; i++)
			place(f, i);
	} else {
		place(f, index);
	}
	return index;
}

static struct field *find_field(struct str name)
{
	for (size_t i = 0; i < nfields; i++)
		if (fields[i]->name.len == name.n && memcmp(fields[i]->name.p, name.p, name.n) == 0)
			return fields[i];
	return NULL;
}

static void free_field(struct field *f)
{
	free(f->name.p);
	free(f->bytes.p);
	free(f->json.p);
	free(f->tags);
	free(f->slots);
	free(f->draft.p);
	free(f);
}

static void close_field(struct field *f)
{
	for (size_t i = 0; i < nfields; i++) {
		if (fields[i] == f) {
			fields[i] = fields[--nfields];
			break;
		}
	}
	free_field(f);
}

static struct field *open_field(struct str name)
{
	struct field *old = find_field(name);
	if (old != NULL)
		close_field(old);
	struct field *f = calloc(1, sizeof *f);
	if (f == NULL)
		die();
	put(&f->name, name.p, name.n);
	f->version = 1;
	if (nfields == fields_cap)
		fields = grow(fields, &fields_cap, nfields + 1, sizeof *fields);
	fields[nfields++] = f;
	return f;
}

/* ---- the field rule ---- */

enum { DROP_EMPTY, DROP_DUPLICATE };

struct drop {
	struct str text;
	int reason;
	size_t of; /* the tag it duplicates */
};

/* What one request did: reused from request to request. */
static size_t *added;
static size_t nadded, added_cap;
static struct drop *drops;
static size_t ndrops, drops_cap;

static inline int is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static void admit(struct field *f, const char *s, size_t n)
{
	while (n > 0 && is_space((unsigned char)s[0])) {
		s++;
		n--;
	}
	while (n > 0 && is_space((unsigned char)s[n - 1]))
		n--;
	if (ndrops == drops_cap)
		drops = grow(drops, &drops_cap, ndrops + 1, sizeof *drops);
	if (n == 0) {
		drops[ndrops++] = (struct drop){{"", 0}, DROP_EMPTY, 0};
		return;
	}
	uint32_t h = key_hash(s, n);
	ptrdiff_t existing = find_tag(f, s, n, h);
	if (existing >= 0) {
		drops[ndrops++] = (struct drop){{s, n}, DROP_DUPLICATE, (size_t)existing};
		return;
	}
	if (nadded == added_cap)
		added = grow(added, &added_cap, nadded + 1, sizeof *added);
	added[nadded++] = add_tag(f, s, n, h);
}

/* Applies text to f; returns whether the draft changed. */
static int change(struct field *f, struct str text)
{
	const char *s = text.p;
	size_t n = text.n, start = 0;
	int found = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c != ',' && c != '\n' && c != '\r')
			continue;
		admit(f, s + start, i - start);
		if (c == '\r' && i + 1 < n && s[i + 1] == '\n')
			i++;
		start = i + 1;
		found = 1;
	}
	if (found)
		while (start < n && s[start] == ' ')
			start++;
	size_t len = n - start;
	if (f->draft.len == len && memcmp(f->draft.p, s + start, len) == 0)
		return 0;
	f->draft.len = 0;
	put(&f->draft, s + start, len);
	return 1;
}

/* ---- replies ---- */

static struct buf out;

/* Opens a reply: room for its header (fixed later by end_reply), then the envelope's start. */
static size_t begin_reply(struct str id)
{
	size_t head = out.len;
	reserve(&out, 23);
	out.len += 23; /* "Content-Length: NNN\r\n\r\n", the usual size */
	PUT_LIT(&out, "{\"jsonrpc\":\"2.0\",\"id\":");
	if (id.n == 0)
		PUT_LIT(&out, "null");
	else
		put(&out, id.p, id.n);
	return head;
}

static void end_reply(size_t head)
{
	size_t body = head + 23, length = out.len - body;
	char d[20];
	char *q = digits(length, d);
	size_t nd = (size_t)(d + 20 - q), header = 16 + nd + 4;
	if (header != 23) {
		if (header > 23)
			reserve(&out, header - 23);
		memmove(out.p + head + header, out.p + body, length);
		out.len = head + header + length;
	}
	memcpy(out.p + head, "Content-Length: ", 16);
	memcpy(out.p + head + 16, q, nd);
	memcpy(out.p + head + 16 + nd, "\r\n\r\n", 4);
}

static void reply_null(struct str id)
{
	size_t head = begin_reply(id);
	PUT_LIT(&out, ",\"result\":null}");
	end_reply(head);
}

static void reply_error(struct str id, int code, const char *message, struct str detail)
{
	size_t head = begin_reply(id);
	PUT_LIT(&out, ",\"error\":{\"code\":-");
	put_uint(&out, (uint64_t)-code);
	PUT_LIT(&out, ",\"message\":\"");
	put_escaped(&out, message, strlen(message));
	put_escaped(&out, detail.p, detail.n);
	PUT_LIT(&out, "\"}}");
	end_reply(head);
}

static inline void put_tag(const struct field *f, size_t index)
{
	put(&out, f->json.p + f->tags[index].json_off, f->tags[index].json_len);
}

/* The announcement's list of the added tags: "a", "a and b", "a, b and c", or "6 tags". */
static void put_added_list(const struct field *f)
{
	if (nadded > 5) {
		put_uint(&out, nadded);
		PUT_LIT(&out, " tags");
		return;
	}
	for (size_t i = 0; i < nadded; i++) {
		if (i > 0) {
			if (i + 1 == nadded)
				PUT_LIT(&out, " and ");
			else
				PUT_LIT(&out, ", ");
		}
		put_tag(f, added[i]);
	}
}

static void put_announcement(const struct field *f)
{
	int any = nadded > 0;
	for (size_t i = 0; i < ndrops && !any; i++)
		any = drops[i].reason == DROP_DUPLICATE;
	if (!any)
		return;
	PUT_LIT(&out, ",\"announcement\":\"");
	int first = 1;
	if (nadded > 0) {
		PUT_LIT(&out, "Added ");
		put_added_list(f);
		put_char(&out, '.');
		first = 0;
	}
	for (size_t i = 0; i < ndrops; i++) {
		const struct drop *d = &drops[i];
		if (d->reason != DROP_DUPLICATE)
			continue;
		if (!first)
			put_char(&out, ' ');
		first = 0;
		const struct tag *t = &f->tags[d->of];
		put_escaped(&out, d->text.p, d->text.n);
		if (t->len == d->text.n && memcmp(f->bytes.p + t->off, d->text.p, t->len) == 0) {
			PUT_LIT(&out, " is already a tag.");
		} else {
			PUT_LIT(&out, " is already a tag, as ");
			put_tag(f, d->of);
			put_char(&out, '.');
		}
	}
	put_char(&out, '"');
}

static void reply_state(struct str id, const struct field *f)
{
	size_t head = begin_reply(id);
	PUT_LIT(&out, ",\"result\":{\"field\":");
	put_string(&out, f->name.p, f->name.len);
	PUT_LIT(&out, ",\"version\":");
	put_uint(&out, f->version);
	PUT_LIT(&out, ",\"prompt\":\"Add a tag\",\"tags\":[");
	put(&out, f->json.p, f->json.len);
	PUT_LIT(&out, "],\"text\":");
	put_string(&out, f->draft.p, f->draft.len);
	PUT_LIT(&out, ",\"outcome\":{\"added\":[");
	for (size_t i = 0; i < nadded; i++) {
		if (i > 0)
			put_char(&out, ',');
		put_char(&out, '"');
		put_tag(f, added[i]);
		put_char(&out, '"');
	}
	PUT_LIT(&out, "],\"removed\":[],\"dropped\":[");
	for (size_t i = 0; i < ndrops; i++) {
		const struct drop *d = &drops[i];
		if (i > 0)
			put_char(&out, ',');
		PUT_LIT(&out, "{\"text\":");
		put_string(&out, d->text.p, d->text.n);
		if (d->reason == DROP_EMPTY) {
			PUT_LIT(&out, ",\"reason\":\"empty\"}");
		} else {
			PUT_LIT(&out, ",\"reason\":\"duplicate\",\"duplicateOf\":");
			put_uint(&out, d->of);
			put_char(&out, '}');
		}
	}
	PUT_LIT(&out, "]}");
	if (f->can_undo)
		PUT_LIT(&out, ",\"canUndo\":true");
	put_announcement(f);
	PUT_LIT(&out, "}}");
	end_reply(head);
}

/* ---- dispatch ---- */

static int exiting;

static void handle(const char *body, size_t length, char *scratch)
{
	struct scan s = {body, body + length, scratch};
	struct request r;
	if (!read_request(&s, &r)) {
		reply_error((struct str){NULL, 0}, -32700, "parse error", (struct str){"", 0});
		return;
	}
	struct str none = {"", 0};
	if (!r.has_method) {
		if (r.id.n > 0)
			reply_error(r.id, -32600, "no method", none);
		return;
	}
	struct str m = r.method;
	int reply = r.id.n > 0;
	nadded = 0;
	ndrops = 0;
	if (STR_IS(m, "field/change") || STR_IS(m, "field/state") || STR_IS(m, "field/close")) {
		if (!r.has_field || r.bad_params || (STR_IS(m, "field/change") && !r.has_text)) {
			if (reply)
				reply_error(r.id, -32602, "invalid params", none);
			return;
		}
		struct field *f = find_field(r.field);
		if (f == NULL) {
			if (reply) {
				size_t head = begin_reply(r.id);
				PUT_LIT(&out, ",\"error\":{\"code\":-32010,\"message\":\"No open field with id \\\"");
				put_escaped(&out, r.field.p, r.field.n);
				PUT_LIT(&out, "\\\"\"}}");
				end_reply(head);
			}
			return;
		}
		if (STR_IS(m, "field/close")) {
			close_field(f);
			if (reply)
				reply_null(r.id);
			return;
		}
		if (STR_IS(m, "field/change")) {
			int draft_changed = change(f, r.text);
			if (nadded > 0 || draft_changed) {
				f->version++;
				f->can_undo = 1;
			}
		}
		if (reply)
			reply_state(r.id, f);
	} else if (STR_IS(m, "field/open")) {
		if (!r.has_field || r.bad_params) {
			if (reply)
				reply_error(r.id, -32602, "invalid params", none);
			return;
		}
		struct field *f = open_field(r.field);
		for (size_t i = 0; i < r.ntags; i++)
			admit(f, tags[i].p, tags[i].n);
		if (r.has_text)
			change(f, r.text);
		if (reply)
			reply_state(r.id, f);
	} else if (STR_IS(m, "initialize")) {
		if (reply) {
			size_t head = begin_reply(r.id);
			PUT_LIT(&out, ",\"result\":{\"serverInfo\":{\"name\":\"field-ref\",\"version\":"
				      "\"1.0.0\"},\"capabilities\":{}}}");
			end_reply(head);
		}
	} else if (STR_IS(m, "initialized")) {
		if (reply)
			reply_null(r.id);
	} else if (STR_IS(m, "shutdown")) {
		if (reply)
			reply_null(r.id);
	} else if (STR_IS(m, "exit")) {
		exiting = 1;
	} else if (reply) {
		reply_error(r.id, -32601, "unknown method ", m);
	}
}

/* ---- framing and the read loop ---- */

static int write_all(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(1, p, n);
		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return 0;
		}
		p += w;
		n -= (size_t)w;
	}
	return 1;
}

/* The value of the Content-Length header in [p, end) (the header block, without its final
 * blank line), or -1. */
static long long content_length(const char *p, const char *end)
{
	static const char name[] = "content-length:";
	while (p < end) {
		const char *line_end = memchr(p, '\r', (size_t)(end - p));
		if (line_end == NULL)
			line_end = end;
		/* The usual spelling by memcmp, any other by the caseless comparison. */
		if ((size_t)(line_end - p) >= sizeof name - 1 &&
		    (memcmp(p, "Content-Length:", sizeof name - 1) == 0 ||
		     caseless_equal(p, name, sizeof name - 1))) {
			const char *q = p + sizeof name - 1;
			while (q < line_end && *q == ' ')
				q++;
			if (q == line_end || *q < '0' || *q > '9')
				return -1;
			long long v = 0;
			while (q < line_end && *q >= '0' && *q <= '9' && v < (1LL << 40))
				v = v * 10 + (*q++ - '0');
			return v;
		}
		p = line_end + 2;
	}
	return -1;
}

/* The end of the header block starting at p ("\r\n\r\n" included), or NULL. */
static const char *header_end(const char *p, const char *end)
{
	while (end - p >= 4) {
		const char *cr = memchr(p, '\r', (size_t)(end - p - 3));
		if (cr == NULL)
			return NULL;
		if (cr[1] == '\n' && cr[2] == '\r' && cr[3] == '\n')
			return cr + 4;
		p = cr + 1;
	}
	return NULL;
}

int main(void)
{
	struct buf in = {0};
	struct buf scratch = {0};
	for (;;) {
		reserve(&in, READ_SIZE);
		ssize_t count = read(0, in.p + in.len, READ_SIZE);
		if (count < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return 1;
		}
		if (count == 0)
			return 0;
		in.len += (size_t)count;
		const char *p = in.p, *end = in.p + in.len;
		while (!exiting) {
			const char *body = header_end(p, end);
			if (body == NULL)
				break;
			long long length = content_length(p, body - 4);
			if (length < 0)
				return 2; /* no Content-Length: not a peer we can talk to */
			if (end - body < length)
				break;
			if (scratch.cap < (size_t)length)
				scratch.p = grow(scratch.p, &scratch.cap, (size_t)length, 1);
			handle(body, (size_t)length, scratch.p);
			p = body + length;
		}
		if (out.len > 0 && !write_all(out.p, out.len))
			return 1;
		out.len = 0;
		if (exiting)
			return 0;
		/* Keep the partial frame at the start of the buffer. */
		size_t rest = (size_t)(end - p);
		memmove(in.p, p, rest);
		in.len = rest;
	}
}
