# shellcheck shell=bash
# Helpers that the headless benchmark scripts (tick_matrix.sh, play_matrix.sh) source, so that
# they build the runner, read its JSON, take medians and describe the machine the same way; the
# other scripts and setup.sh source it for --help and for refusing an argument.
# Not a program: source it. Only build_runner needs the repository's root as the working folder.

# exit_with_usage FILE: prints the comment that opens the script FILE (after its #! line), which
# is its usage, without the "# ", and exits 0. For -h and --help.
exit_with_usage() {
  awk 'NR == 1 && /^#!/ { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$1"
  exit 0
}

# refuse_argument SCRIPT ARGUMENT HINT: exits 2 with one line naming ARGUMENT and, in brackets,
# HINT (what SCRIPT takes instead).
refuse_argument() {
  echo "$1: unknown argument '$2' ($3; --help prints the usage)" >&2
  exit 2
}

# takes_at_most FILE MOST HINT ARGS...: for a script (or a command of one) that takes at most
# MOST plain arguments: a first -h or --help exits with FILE's usage, and more than MOST
# arguments exit 2 naming the first extra one, with HINT.
takes_at_most() {
  local file=$1 most=$2 hint=$3
  shift 3
  case "${1-}" in -h|--help) exit_with_usage "$file" ;; esac
  [ $# -le "$most" ] || refuse_argument "$(basename "$file")" "${*:most+1:1}" "$hint"
}

# build_runner PRESET: configures and builds quadpool with the CMake preset (progress on
# stderr) and prints the executable's path.
build_runner() {
  cmake --preset "$1" >&2
  cmake --build --preset "$1" -j 2 --target quadpool >&2
  echo "$(pwd)/build/$1/game/quadpool"
}

# value_of SCRIPT FLAG VALUE: prints VALUE, the argument after FLAG; exits 2 when it is missing
# or empty.
value_of() {
  [ -n "$3" ] || { echo "$1: $2 needs a value" >&2; exit 2; }
  echo "$3"
}

# check_count SCRIPT FLAG VALUE: exits 2 unless VALUE is an integer >= 1.
check_count() {
  case "$3" in ''|*[!0-9]*|0) echo "$1: $2 must be an integer >= 1, got '$3'" >&2; exit 2 ;; esac
}

# check_list SCRIPT FLAG WHAT LIST VALID: exits 2 unless LIST names at least one word and only
# words of VALID (WHAT names such a word in the message: scene, game).
check_list() {
  local word
  for word in $4; do
    case " $5 " in
      *" $word "*) ;;
      *) echo "$1: $2: unknown $3 '$word' (valid: $5)" >&2; exit 2 ;;
    esac
  done
  [ -n "${4// /}" ] || { echo "$1: $2 must name at least one of: $5" >&2; exit 2; }
}

# json_fields JSON KEY...: the values of dotted keys (tick_ms.median, game.most_live) of the
# runner's JSON object, on one line separated by spaces; null is written "null". A missing key
# is an error (exit 1) naming it.
json_fields() {
  python3 - "$@" <<'PY'
import json, sys
doc = json.loads(sys.argv[1])
values = []
for key in sys.argv[2:]:
    value = doc
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            sys.exit(f"json_fields: the runner's JSON has no {key}")
        value = value[part]
    values.append("null" if value is None else str(value))
print(" ".join(values))
PY
}

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
# ratio A B: A / B with two decimals, "n/a" when B is 0
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
# column_median FILE K: median over the rounds (lines) of column K
column_median() { awk -v k="$2" '{print $k}' "$1" | median; }
# column_best FILE K: the smallest value of column K over the rounds
column_best() { awk -v k="$2" '{print $k}' "$1" | sort -g | head -1; }

# machine_line: the cores, the CPU, the load average now and the commit, for a table's caption.
machine_line() {
  echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
}
