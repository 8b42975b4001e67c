/*
 * test-jsonread.c: the JSON reader (src/lib/jsonread.c) of grundy match's
 * engines file and results file: values, escapes, what the writer
 * (src/lib/json.c) writes read back as written, and the refusals.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "lib/json.h"
#include "lib/jsonread.h"

/* Parses s, which must be valid. */
static void
parse_ok(const char *s, struct jsonr *v)
{
	char	 err[128];

	if (jsonr_parse(s, strlen(s), v, err, sizeof err) != 0)
		fail_msg("%s: %s", s, err);
}

/* Parses s, which must be refused with a message holding want. */
static void
parse_bad(const char *s, const char *want)
{
	struct jsonr	 v;
	char		 err[128];

	assert_int_equal(jsonr_parse(s, strlen(s), &v, err, sizeof err), -1);
	if (strstr(err, want) == NULL)
		fail_msg("%s: '%s' lacks '%s'", s, err, want);
	assert_int_equal(v.type, JSONR_NULL);
	assert_null(v.items);
}

static void
test_values(void **state)
{
	struct jsonr	 v;
	unsigned long long u;
	const struct jsonr *a;

	(void)state;
	parse_ok(" {\"a\": [1, -2.5e3, true, false, null, \"x\"], \"b\": {}, "
	    "\"c\": [], \"n\": 18446744073709551615} ", &v);
	assert_int_equal(v.type, JSONR_OBJ);
	assert_int_equal(v.n, 4);
	a = jsonr_get(&v, "a");
	assert_non_null(a);
	assert_int_equal(a->type, JSONR_ARR);
	assert_int_equal(a->n, 6);
	assert_true(a->items[0].num == 1);
	assert_true(a->items[1].num == -2500);
	assert_string_equal(a->items[1].str, "-2.5e3");
	assert_int_equal(a->items[2].type, JSONR_BOOL);
	assert_int_equal(a->items[2].b, 1);
	assert_int_equal(a->items[3].b, 0);
	assert_int_equal(a->items[4].type, JSONR_NULL);
	assert_string_equal(a->items[5].str, "x");
	assert_int_equal(jsonr_get(&v, "b")->type, JSONR_OBJ);
	assert_int_equal(jsonr_get(&v, "c")->n, 0);
	assert_null(jsonr_get(&v, "d"));
	assert_null(jsonr_str(&v, "a"));
	assert_int_equal(jsonr_uint(&v, "n", &u), 0);
	assert_true(u == 18446744073709551615ULL);
	assert_int_equal(jsonr_uint(&v, "a", &u), -1);
	jsonr_free(&v);
	parse_ok("{\"n\": -1, \"f\": 1.5}", &v);
	assert_int_equal(jsonr_uint(&v, "n", &u), -1);
	assert_int_equal(jsonr_uint(&v, "f", &u), -1);
	jsonr_free(&v);
}

static void
test_escapes(void **state)
{
	struct jsonr	 v;

	(void)state;
	parse_ok("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20ac"
	    "\\ud83d\\ude00\"", &v);
	assert_string_equal(v.str, "a\"b\\c/d\b\f\n\r\tA\xc3\xa9\xe2\x82\xac"
	    "\xf0\x9f\x98\x80");
	jsonr_free(&v);
}

/* What the writer writes is read back as it was. */
static void
test_round_trip(void **state)
{
	static const char *const strs[] = {
		"plain", "quote \" back \\ slash", "\x01\x1f\x7f", "</script>",
		"\xc3\xa9t\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x98\x80", "",
	};
	struct buf	 b;
	struct json	 j;
	struct jsonr	 v;
	size_t		 i;

	(void)state;
	buf_init(&b);
	json_init(&j, &b);
	json_arr(&j);
	for (i = 0; i < sizeof strs / sizeof strs[0]; i++) {
		json_obj(&j);
		json_kstr(&j, "s", strs[i]);
		json_kuint(&j, "i", i);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	parse_ok(buf_str(&b), &v);
	assert_int_equal(v.n, sizeof strs / sizeof strs[0]);
	for (i = 0; i < v.n; i++)
		assert_string_equal(jsonr_str(&v.items[i], "s"), strs[i]);
	jsonr_free(&v);
	buf_free(&b);
}

static void
test_refused(void **state)
{
	char	*deep;
	size_t	 i;

	(void)state;
	parse_bad("", "unexpected end");
	parse_bad("[1,]", "unexpected token");
	parse_bad("{\"a\" 1}", "expected ':'");
	parse_bad("{1: 2}", "expected a key");
	parse_bad("[1 2]", "expected ',' or ']'");
	parse_bad("{\"a\": 1,}", "expected a key");
	parse_bad("\"abc", "unterminated string");
	parse_bad("\"a\nb\"", "control byte");
	parse_bad("\"\\x\"", "bad escape");
	parse_bad("\"\\u12\"", "short \\u escape");
	parse_bad("\"\\u12zz\"", "bad \\u escape");
	parse_bad("\"\\ud800\"", "lone surrogate");
	parse_bad("\"\\udc00\"", "lone surrogate");
	parse_bad("1 2", "trailing bytes");
	parse_bad("tru", "unexpected token");
	parse_bad("1.2.3", "bad number");
	parse_bad("[\"a\", {\"b\": [1, \"unterminated]}]", "unterminated");
	deep = malloc(2 * (JSONR_DEPTH + 2) + 1);
	for (i = 0; i < JSONR_DEPTH + 2; i++) {
		deep[i] = '[';
		deep[JSONR_DEPTH + 2 + i] = ']';
	}
	deep[2 * (JSONR_DEPTH + 2)] = '\0';
	parse_bad(deep, "nested too deep");
	free(deep);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refused),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
