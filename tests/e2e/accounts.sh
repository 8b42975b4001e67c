#!/bin/sh
# accounts.sh: runs the end-to-end tests of accounts, resume by account,
# the record's timing and the admin commands (tests/e2e/accounts.py) against
# the grundyd of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/accounts.py" . "${top_srcdir:-.}"
