#!/usr/bin/env bash
# -functional_cta_order (issue 33, item 8): the order CTAs run in changes a program with
# a race between CTAs and no race-free one (tests/cudart/race.cu): the racy chain ends
# at 8 in linear order and 1 in reverse, the atomic sum is 36 in every order.
set -euo pipefail
source "$2/tests/cudart/common.sh"
build race "$SRC/tests/cudart/race.cu"
for order in 0 1 5 9; do
  run race --functional -functional_cta_order $order
  [ "$status" = 0 ] || { show race; fail "order $order: exit $status"; }
  grep -q "^sum: 36$" "$WORK/race.out" || { show race; fail "order $order: the race-free sum changed"; }
  cp "$WORK/race.out" "$WORK/race.$order"
done
grep -q "^chain: last flag 8$" "$WORK/race.0" || { cat "$WORK/race.0"; fail "linear order: chain should end at 8"; }
grep -q "^chain: last flag 1$" "$WORK/race.1" || { cat "$WORK/race.1"; fail "reverse order: chain should end at 1"; }
echo "PASS: -functional_cta_order exposes a race between CTAs and leaves a race-free program alone"
