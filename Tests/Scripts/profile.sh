#!/bin/sh
# `make profile`: where the time and memory of `--list`, `--export -` and `--import` (of a
# Taskwarrior export and of HotTask's own format) go, on a generated store.
#   profile.sh HOTTASK HOTTASK-BENCH SIZE TOOL OUT
# TOOL perf: /usr/bin/time (elapsed, user, system, peak memory), `perf stat` (task clock, page
# faults) and `perf record` (cpu-clock samples; the heaviest functions, callers included).
# TOOL callgrind: instruction counts (repeatable on a noisy machine; slow, use SIZE 10000).
# Everything is kept in OUT; a summary is printed.
set -eu
bin=$1 bench=$2 size=$3 tool=$4 out=$5
rm -rf "$out"
mkdir -p "$out"
"$bench" --sizes "$size" --make-stores "$out" >/dev/null
label=$(cd "$out" && ls store-*.json | head -n 1 | sed 's/^store-//; s/\.json$//')
store="$out/store-$label.json" taskwarrior="$out/tw-$label.json" empty="$out/empty.json"
demangle() { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; }
fresh() { rm -f "$empty" "$empty.bak" "$empty.lock" "$empty.journal" "$empty.index" "$empty.imported"; }

run() {
    name=$1
    shift
    echo "== $name ($label tasks): $*"
    case "$tool" in
    perf)
        fresh
        /usr/bin/time -f "elapsed %e s, user %U s, system %S s, peak %M KiB" -o "$out/$name.time" "$@" >/dev/null 2>&1
        cat "$out/$name.time"
        fresh
        perf stat -e task-clock,page-faults,context-switches -o "$out/$name.stat" "$@" >/dev/null 2>&1
        grep -E "task-clock|page-faults|elapsed" "$out/$name.stat" | sed 's/^ */  /'
        fresh
        if perf record -q -e cpu-clock -F 2000 -g -o "$out/$name.data" "$@" >/dev/null 2>&1; then
            perf report -i "$out/$name.data" --children --sort symbol --stdio -g none 2>/dev/null |
                grep '%' | grep -v '\[k\]' | demangle | cut -c1-160 >"$out/$name.top"
            sed -n '1,30p' "$out/$name.top"
        else
            echo "  (perf record is not allowed here: see $out/$name.stat)"
        fi
        ;;
    callgrind)
        fresh
        valgrind --tool=callgrind --callgrind-out-file="$out/$name.callgrind" "$@" >/dev/null 2>"$out/$name.valgrind"
        callgrind_annotate --inclusive=yes "$out/$name.callgrind" 2>/dev/null | demangle | cut -c1-160 >"$out/$name.top"
        sed -n '1,40p' "$out/$name.top"
        ;;
    *)
        echo "unknown PROFILE_TOOL $tool (perf or callgrind)" >&2
        exit 2
        ;;
    esac
}

run list "$bin" --file "$store" --list
run export "$bin" --file "$store" --export -
run import-taskwarrior "$bin" --file "$empty" --import "$taskwarrior"
run import-hottask "$bin" --file "$empty" --import "$store"
fresh
