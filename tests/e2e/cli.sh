#!/usr/bin/env bash
# The locsim command line: listing, running, and clear errors for bad input.
set -u
locsim=$1
fail=0
. "$(dirname "$0")/check.bash"
check "list prints workloads" 0 "^vectoradd +" "$locsim" list
n=$("$locsim" list | wc -l)
[ "$n" -ge 1 ] || { echo "FAIL: list printed no workloads"; fail=1; }
check "run prints PASS and counts" 0 "gpu_sim_insn +[1-9]" "$locsim" run vectoradd --size 1 --seed 3 --functional
check "run PASS line" 0 "^PASS$" "$locsim" run vectoradd --size 1 --functional
check "unknown workload" 2 "unknown workload 'nosuch'" "$locsim" run nosuch --functional
check "missing workload" 2 "needs a workload name" "$locsim" run --functional
check "bad size" 2 "--size expects an unsigned integer" "$locsim" run vectoradd --size abc --functional
check "zero size" 2 "--size must be >= 1" "$locsim" run vectoradd --size 0 --functional
check "unknown option" 2 "unknown option '--bogus'" "$locsim" run vectoradd --bogus
check "unknown command" 2 "unknown command 'frob'" "$locsim" frob
check "help" 0 "usage: locsim" "$locsim" --help
exit $fail
