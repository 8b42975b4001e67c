/*
 * test-addr.c: unit tests of a node's address (src/proto/proto-addr.c):
 * HOST:PORT and [IPV6]:PORT as `grundy bot --server` lists and `node
 * drain` take them, with their limits and the errors that name the bad
 * entry.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "proto/proto-addr.h"

/* Parses s (no default port); returns why it was refused, or NULL. */
static const char *
addr_why(const char *s, struct proto_addr *a)
{
	const char	*why;
	int		 rv = proto_addr_parse(s, strlen(s), NULL, a, &why);

	assert_int_equal(rv, why == NULL ? 0 : -1);
	return (why);
}

/* Good addresses, parsed and printed back. */
static void
test_addr_good(void **state)
{
	static const char *const good[][3] = {
		{ "127.0.0.1:7559", "127.0.0.1", "7559" },
		{ "node-2.example.org:1", "node-2.example.org", "1" },
		{ "[::1]:65535", "::1", "65535" },
		{ "[2001:db8::7]:80", "2001:db8::7", "80" },
		{ "under_score:9", "under_score", "9" },
	};
	struct proto_addr a;
	char		 out[PROTO_ADDR_MAX + 1];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		assert_null(addr_why(good[i][0], &a));
		assert_string_equal(a.host, good[i][1]);
		assert_string_equal(a.port, good[i][2]);
		proto_addr_print(&a, out, sizeof out);
		assert_string_equal(out, good[i][0]);
	}
}

/* Bad addresses, each with its reason. */
static void
test_addr_bad(void **state)
{
	static const char *const bad[][2] = {
		{ "", "empty address" },
		{ "host", "expected HOST:PORT" },
		{ ":80", "no host before ':'" },
		{ "host:", "no port after ':'" },
		{ "host:0", "port must be a number from 1 to 65535" },
		{ "host:65536", "port must be a number from 1 to 65535" },
		{ "host:080", "port must be a number from 1 to 65535" },
		{ "host:123456", "port must be a number from 1 to 65535" },
		{ "host:8x", "port must be a number from 1 to 65535" },
		{ "::1:80", "an IPv6 address needs brackets: [ADDR]:PORT" },
		{ "a b:1", "a host has only letters, digits, '-', '.' and '_'" },
		{ "[::1]", "expected HOST:PORT" },
		{ "[::1:80", "no ']' after an IPv6 address" },
		{ "[::1]80", "expected ':' after ']'" },
		{ "[]:80", "empty IPv6 address in []" },
		{ "[host]:80", "not an IPv6 address in []" },
		{ "[1.2.3.4]:80", "not an IPv6 address in []" },
	};
	struct proto_addr a;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *why = addr_why(bad[i][0], &a);

		assert_non_null(why);
		assert_string_equal(why, bad[i][1]);
	}
}

/* The limits: 253 bytes of host, 261 in all. */
static void
test_addr_limits(void **state)
{
	struct proto_addr a;
	char		 s[400];

	(void)state;
	memset(s, 'h', 253);
	snprintf(s + 253, sizeof s - 253, ":65535");
	assert_null(addr_why(s, &a));		/* 259 bytes */
	memset(s, 'h', 254);
	snprintf(s + 254, sizeof s - 254, ":1");
	assert_string_equal(addr_why(s, &a), "host longer than 253 bytes");
	memset(s, 'h', 300);
	snprintf(s + 300, sizeof s - 300, ":1");
	assert_string_equal(addr_why(s, &a), "longer than 261 bytes");
}

/* Lists: up to 16 nodes, a default port, errors naming the entry. */
static void
test_addr_list(void **state)
{
	struct proto_addr v[PROTO_NODES_MAX];
	char		 list[16 * 8 + 16], err[400];
	size_t		 n, i;

	(void)state;
	assert_int_equal(proto_addr_list("a:1,[::1]:2,c", v, PROTO_NODES_MAX,
	    &n, err, sizeof err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(v[1].host, "::1");
	assert_string_equal(v[2].port, "7559");
	assert_int_equal(proto_addr_list("a:1,,b:2", v, PROTO_NODES_MAX, &n,
	    err, sizeof err), -1);
	assert_string_equal(err, "entry 2 '': empty address");
	assert_int_equal(proto_addr_list("a:1,b:99999", v, PROTO_NODES_MAX,
	    &n, err, sizeof err), -1);
	assert_string_equal(err, "entry 2 'b:99999': port must be a number "
	    "from 1 to 65535");
	list[0] = '\0';
	for (i = 0; i < 16; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list),
		    "%sh%zu:1", i > 0 ? "," : "", i);
	assert_int_equal(proto_addr_list(list, v, PROTO_NODES_MAX, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 16);
	snprintf(list + strlen(list), sizeof list - strlen(list), ",x:2");
	assert_int_equal(proto_addr_list(list, v, PROTO_NODES_MAX, &n, err,
	    sizeof err), -1);
	assert_string_equal(err, "entry 17 'x:2': at most 16 nodes");
}

TU_MAIN("addr",
    cmocka_unit_test(test_addr_good),
    cmocka_unit_test(test_addr_bad),
    cmocka_unit_test(test_addr_limits),
    cmocka_unit_test(test_addr_list))
