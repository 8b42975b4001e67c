/*
 * test-json.c: the JSON writer (src/lib/json.c): every string escaped as
 * RFC 8259 requires, bytes that are not UTF-8 replaced, commas placed;
 * members null when absent; buf_utf8 (src/lib/buf.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "testutil.h"
#include "lib/json.h"

/* Checks that s quotes to want. */
static void
quotes_to(const char *s, const char *want)
{
	struct buf	 b;

	buf_init(&b);
	json_quote(&b, s);
	assert_string_equal(buf_str(&b), want);
	buf_free(&b);
}

static void
test_escapes(void **state)
{
	quotes_to("plain", "\"plain\"");
	quotes_to("a\"b\\c", "\"a\\\"b\\\\c\"");
	quotes_to("\n\r\t\b\f", "\"\\n\\r\\t\\b\\f\"");
	quotes_to("\001\037\177", "\"\\u0001\\u001f\\u007f\"");
	quotes_to("</script>", "\"<\\/script>\"");
	quotes_to("/a</b/<</", "\"/a<\\/b/<<\\/\"");
	quotes_to("nim 3 4\t5", "\"nim 3 4\\t5\"");
	quotes_to("edges=0>1 <b>&amp;", "\"edges=0>1 <b>&amp;\"");
	quotes_to(NULL, "null");
	quotes_to("", "\"\"");
}

static void
test_utf8(void **state)
{
	quotes_to("\303\251\342\202\254\360\237\230\200",
	    "\"\303\251\342\202\254\360\237\230\200\"");	/* é € 😀 */
	quotes_to("\342\200\250\342\200\251", "\"\\u2028\\u2029\"");
	quotes_to("a\377b", "\"a\\ufffdb\"");			/* not UTF-8 */
	quotes_to("\300\257", "\"\\ufffd\\ufffd\"");		/* overlong */
	quotes_to("\355\240\200", "\"\\ufffd\\ufffd\\ufffd\"");	/* surrogate */
	quotes_to("\364\220\200\200", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	quotes_to("\303", "\"\\ufffd\"");			/* cut short */
	quotes_to("\342\202", "\"\\ufffd\\ufffd\"");
}

static void
test_writer(void **state)
{
	struct buf	 b;
	struct json	 j;

	buf_init(&b);
	json_init(&j, &b);
	json_obj(&j);
	json_kstr(&j, "s", "x");
	json_kint(&j, "i", -3);
	json_kuint(&j, "u", 18446744073709551615ULL);
	json_kbool(&j, "t", 1);
	json_knull(&j, "n");
	json_knum1(&j, "r", 1523.44);
	json_knum4(&j, "q", 0.5 / 0.0);
	json_key(&j, "a");
	json_arr(&j);
	json_int(&j, 1);
	json_obj(&j);
	json_end_obj(&j);
	json_arr(&j);
	json_end_arr(&j);
	json_str(&j, "z");
	json_end_arr(&j);
	json_end_obj(&j);
	assert_string_equal(buf_str(&b), "{\"s\":\"x\",\"i\":-3,"
	    "\"u\":18446744073709551615,\"t\":true,\"n\":null,\"r\":1523.4,"
	    "\"q\":null,\"a\":[1,{},[],\"z\"]}");
	buf_free(&b);
}

/* The members null when absent, and buf_utf8 (a code point as UTF-8). */
static void
test_if_and_utf8(void **state)
{
	struct buf	 b;
	struct json	 j;

	buf_init(&b);
	json_init(&j, &b);
	json_obj(&j);
	json_kuint_if(&j, "a", 1, 7);
	json_kuint_if(&j, "b", 0, 7);
	json_kint_if(&j, "c", 1, -2);
	json_kint_if(&j, "d", 0, -2);
	json_end_obj(&j);
	assert_string_equal(buf_str(&b),
	    "{\"a\":7,\"b\":null,\"c\":-2,\"d\":null}");
	buf_reset(&b);
	buf_utf8(&b, 0x41);
	buf_utf8(&b, 0xe9);
	buf_utf8(&b, 0x20ac);
	buf_utf8(&b, 0x1f600);
	assert_string_equal(buf_str(&b),
	    "A\303\251\342\202\254\360\237\230\200");	/* A é € 😀 */
	buf_free(&b);
}

TU_MAIN("json",
    cmocka_unit_test(test_escapes),
    cmocka_unit_test(test_utf8),
    cmocka_unit_test(test_writer),
    cmocka_unit_test(test_if_and_utf8))
