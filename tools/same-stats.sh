#!/usr/bin/env bash
# same-stats.sh OLD_LOCSIM NEW_LOCSIM [--size S] [--threads N,M,...] [workload ...]
# SAME_STATS_POLICIES=1 adds every warp scheduler and shipped config on three
# workloads.
#
# SAME_STATS_NEW_OPTIONS=1 also leaves out the "config_hash" input: it hashes the
# whole option dump, so it changes whenever an option is added, even one whose
# default changes nothing (every statistic is still compared).
#
# Checks that a change meant only to make the simulator faster changes no
# statistic: runs every workload (bench_timing's list: all of `locsim list`, at
# its default size unless --size) under the old and the new binary with
# fermi_gtx480, plus a few runs with the other shipped configs and with policy
# options, and compares the --json statistics byte for byte (all but the
# "version" input, the git description each binary was built from).  Prints one
# line per run and exits 1 if any pair differs (or a run fails under one binary
# only).
#
# --threads N,M,...: the new binary runs each workload once per thread count
# (-sim_threads N) and every one of those reports is compared with the old
# binary's run (at its default, one thread); OLD and NEW may be the same
# binary.  Parallel simulation must change no byte of the report
# (docs/timing-core.md, "Parallel simulation (-sim_threads)").
#
# A workload argument with spaces is a whole run: "bfs --config ccws_gtx285
# -gpgpu_scheduler ccws" (its label is the words joined by '-').
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 OLD_LOCSIM NEW_LOCSIM [--size S] [--threads N,M,...] [workload ...]" >&2
    exit 2
fi
old=$1 new=$2
shift 2
size=()
if [ "${1:-}" = "--size" ]; then
    size=(--size "$2")
    shift 2
fi
threads=()
if [ "${1:-}" = "--threads" ]; then
    IFS=, read -r -a threads <<< "$2"
    shift 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LOCSIM_QUIET=1

if [ $# -gt 0 ]; then wls=("$@"); else mapfile -t wls < <("$new" list | awk '{print $1}'); fi

# Each run: a label, then the arguments after `run`.
runs=()
for w in "${wls[@]}"; do runs+=("${w// /-}|$w"); done
if [ $# -eq 0 ]; then
    runs+=("kmeans-ccws_gtx285|kmeans --config ccws_gtx285"
           "bfs-ccws_gtx285-ccws|bfs --config ccws_gtx285 -gpgpu_scheduler ccws"
           "memc-sharing_fermi|memc --config sharing_fermi"
           "spmv-sharing_fermi|spmv --config sharing_fermi"
           "gc-lrr|gc -gpgpu_scheduler lrr"
           "kmeans-cwlp|kmeans -gpgpu_scheduler cwlp -l1d_policy lpc"
           "vectoradd-two_level|vectoradd -gpgpu_scheduler two_level")
fi
# --policies: every warp scheduler and the other shipped configs on a few
# workloads (for changes to the core, the schedulers or the main loop).
if [ "${SAME_STATS_POLICIES:-0}" = 1 ]; then
    for w in backprop hotspot kmeans; do
        for p in gto lrr two_level warp_limiting:gto:8 ccws; do runs+=("$w-$p|$w -gpgpu_scheduler $p"); done
        runs+=("$w-cwlp|$w -gpgpu_scheduler cwlp -l1d_policy lpc" "$w-wsmp|$w -gpgpu_scheduler wsmp")
        for c in ldesc_numa4 sharing_fermi ccws_gtx285 ldesc_gtx480; do runs+=("$w-$c|$w --config $c"); done
    done
    runs+=("gc-ccws_gtx285-ccws|gc --config ccws_gtx285 -gpgpu_scheduler ccws")
fi

skip='^ *"version": '
[ "${SAME_STATS_NEW_OPTIONS:-0}" = 1 ] && skip='^ *"\(version\|config_hash\)": '
bad=0
# compare LABEL OLD_STATUS NEW_STATUS: the two reports in $work
compare() {
    local label=$1 ro=$2 rn=$3
    if [ "$ro" -ne "$rn" ]; then
        echo "DIFF  $label: exit status $ro (old) vs $rn (new)"
        bad=1
    elif [ "$ro" -ne 0 ]; then
        echo "skip  $label: both exit $ro"
    elif cmp -s <(grep -v "$skip" "$work/old.json") <(grep -v "$skip" "$work/new.json"); then
        echo "same  $label"
    else
        echo "DIFF  $label: statistics differ"
        diff <(tr ',' '\n' < "$work/old.json") <(tr ',' '\n' < "$work/new.json") | head -10
        bad=1
    fi
}

for r in "${runs[@]}"; do
    label=${r%%|*}
    read -r -a args <<< "${r#*|}"
    "$old" run "${args[@]}" "${size[@]}" --json "$work/old.json" > /dev/null 2>&1
    ro=$?
    if [ ${#threads[@]} -eq 0 ]; then
        "$new" run "${args[@]}" "${size[@]}" --json "$work/new.json" > /dev/null 2>&1
        compare "$label" $ro $?
    else
        for t in "${threads[@]}"; do
            "$new" run "${args[@]}" "${size[@]}" -sim_threads "$t" --json "$work/new.json" > /dev/null 2>&1
            compare "$label (-sim_threads $t)" $ro $?
            rm -f "$work/new.json"
        done
    fi
    rm -f "$work/old.json" "$work/new.json"
done
[ $bad -eq 0 ] && echo "all statistics identical" || echo "statistics DIFFER"
exit $bad
