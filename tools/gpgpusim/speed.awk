# tools/gpgpusim/compare.sh --speed's report: reads lines
#   NAME ROUND gs|ls ok|wrong|fail CPU_S RSS_KB INSN
# (or "NAME 0 build fail"), one per run, and prints a Markdown table of each
# program's CPU time (perf's task-clock) and peak resident memory under GPGPU-Sim
# ("GS") and locsim ("LS"), then the ratios GS/LS over the programs that passed
# every round under both simulators:
#   CPU-time ratio   a program's smallest CPU time over its rounds, GS over LS;
#                    median, minimum and maximum over programs, and the total
#                    (sum of GS times over sum of LS times)
#   memory ratio     peak resident memory (the smallest of the rounds), GS over LS
# A program that failed or crashed in any round under either simulator, or whose
# CPU time or memory was not recorded, is listed with the reason and not counted.
function sort_into(v, n,    i, j, t) {
  for (i = 2; i <= n; i++) {
    t = v[i]
    for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]
    v[j + 1] = t
  }
}
# "GPGPU-Sim failed in 4 of 4 rounds, ..." for a program left out
function why_text(p,    k, m, part, out) {
  m = split(reasons[p], part, SUBSEP)
  out = ""
  for (k = 1; k <= m; k++) {
    if (part[k] == "build failed") return part[k]
    out = out (k > 1 ? ", " : "") part[k] " in " nbad[p, part[k]] " of " rounds " rounds"
  }
  return out
}
function median(v, n) {
  sort_into(v, n)
  return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{
  name = $1
  if (!(name in seen)) { seen[name] = 1; order[++n_order] = name }
  if ($3 == "build") { reasons[name] = "build failed"; next }
  key = name SUBSEP $3
  if ($4 != "ok" || $5 == "-" || $6 == "-") {   # (a run without both figures counts as failed)
    why = ($3 == "gs" ? "GPGPU-Sim" : "locsim") ($4 == "wrong" ? " wrong result" : " failed")
    if (!((name, why) in nbad)) {
      list = (name in reasons) ? reasons[name] SUBSEP why : why   # (not in the assignment: the
      reasons[name] = list                                       # element would exist first)
    }
    nbad[name, why]++
    next
  }
  if (!(key in cpu) || $5 + 0 < cpu[key] + 0) cpu[key] = $5
  if (!(key in rss) || $6 + 0 < rss[key] + 0) rss[key] = $6
  if ($3 == "gs") insn[name] = $7
  runs[key]++
}
END {
  printf "Programs at size %s, GTO, GTX480 config (GPGPU-Sim SM2_GTX480, locsim fermi_gtx480); locsim at %s; " \
         "the smallest CPU time (perf task-clock) of %s rounds.\n\n", size, commit, rounds
  print "| program | thread insn GS (M) | CPU s GS | CPU s LS | CPU GS/LS | peak MB GS | peak MB LS | memory GS/LS |"
  print "|---|---:|---:|---:|---:|---:|---:|---:|"
  n = 0; tot_gs = 0; tot_ls = 0
  for (i = 1; i <= n_order; i++) {
    p = order[i]; g = p SUBSEP "gs"; l = p SUBSEP "ls"
    if (p in reasons || runs[g] < rounds || runs[l] < rounds) {
      printf "| %s | not counted: %s |||||||\n", p, (p in reasons) ? why_text(p) : "missing rounds"
      continue
    }
    lcpu = cpu[l] > 0 ? cpu[l] : 0.00001   # (task-clock is in ms to 0.01)
    r = cpu[g] / lcpu; m = rss[g] / rss[l]
    n++; ratio[n] = r; mem[n] = m
    tot_gs += cpu[g]; tot_ls += cpu[l]
    if (n == 1 || r < lo) { lo = r; lo_p = p }
    if (n == 1 || r > hi) { hi = r; hi_p = p }
    printf "| %s | %.2f | %.2f | %.3f | %.1fx | %.1f | %.1f | %.1fx |\n", p, insn[p] / 1e6, cpu[g], cpu[l], r,
      rss[g] / 1024, rss[l] / 1024, m
  }
  if (!n) { print "\nNo program passed under both simulators."; exit }
  printf "\n%d programs counted.  CPU-time ratio GPGPU-Sim / locsim: median %.1fx, minimum %.1fx (%s), " \
         "maximum %.1fx (%s), total %.1fx (%.1f s against %.2f s).  Peak memory ratio: median %.1fx.\n",
    n, median(ratio, n), lo, lo_p, hi, hi_p, tot_gs / (tot_ls > 0 ? tot_ls : 0.00001), tot_gs, tot_ls, median(mem, n)
}
