#!/bin/sh
# matchout.sh: runs tests/e2e/matchout.py (grundy match's --out file: the
# results JSON's shape, and --resume of a file of the former shape).
exec python3 "${top_srcdir:-.}/tests/e2e/matchout.py" . "${top_srcdir:-.}"
