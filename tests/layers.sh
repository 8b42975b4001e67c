#!/bin/sh
# layers.sh: runs the layer checker (tests/layers.py) on the object files
# of this build against doc/layers.txt.
exec python3 "${top_srcdir:-.}/tests/layers.py" . "${top_srcdir:-.}"
