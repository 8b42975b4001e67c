# tap.sh: TAP output for the shell tests (sourced by cli.sh, bots.sh and
# install.sh), read by automake's tap-driver.sh: each check is one line,
# `ok N - NAME` or `not ok N - NAME` with its detail as `#` lines under
# it, and the plan `1..N` at the end, so that a failure names its check in
# the test's .log and in test-suite.log.

tap_n=0
tap_failed=0

# tap_desc TEXT: TEXT on one line, without the '#' that starts a directive.
tap_desc() {
	printf '%s' "$1" | tr '\n#' ' .'
}

# tap_note TEXT: TEXT as comment lines.
tap_note() {
	[ -n "$1" ] && printf '%s\n' "$1" | sed 's/^/# /'
	return 0
}

# tap_ok NAME: a check that passed.
tap_ok() {
	tap_n=$((tap_n + 1))
	printf 'ok %d - %s\n' "$tap_n" "$(tap_desc "$1")"
}

# tap_fail NAME [DETAIL]: a check that failed, with what was seen.
tap_fail() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	printf 'not ok %d - %s\n' "$tap_n" "$(tap_desc "$1")"
	tap_note "${2:-}"
}

# tap_skip NAME REASON: a check that cannot run here.
tap_skip() {
	tap_n=$((tap_n + 1))
	printf 'ok %d - %s # SKIP %s\n' "$tap_n" "$(tap_desc "$1")" \
	    "$(tap_desc "$2")"
}

# refuse NAME PATTERN CMD...: CMD must exit non-zero and print PATTERN.
refuse() {
	name=$1 pat=$2
	shift 2
	if out=$("$@" 2>&1); then
		tap_fail "$name" "accepted: $out"
	elif printf '%s\n' "$out" | grep -q -- "$pat"; then
		tap_ok "$name"
	else
		tap_fail "$name" "$out"
	fi
}

# tap_done: prints the plan; exits 0 when every check passed, else 1.
tap_done() {
	printf '1..%d\n' "$tap_n"
	[ "$tap_failed" = 0 ] && exit 0
	exit 1
}
