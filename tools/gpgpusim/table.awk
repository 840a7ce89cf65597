# tools/gpgpusim/compare.sh's report: reads lines
#   NAME SCHED gs|ls ok|fail CYCLES INSN IPC L1D_MISS L2_MISS DRAM_RD DRAM_WR WALL_S
# (or "NAME build fail") and prints the Markdown tables.  "GS" is GPGPU-Sim, "LS"
# locsim.  Summary figures use only programs that passed under both simulators; a
# program that failed its own output check (but simulated to the end: "wrong") is
# shown with its figures and marked "not counted"; a crashed run shows none.
#   mean absolute cycle error  mean over runs (program x scheduler) of |LS/GS - 1|
#   geometric-mean cycle ratio exp(mean(log(LS/GS)))
#   Pearson r of IPC           over the same runs
#   instruction-count ratio    geometric mean of LS/GS thread instructions (GTO runs)
#   LRR vs GTO                 programs whose GS LRR/GTO cycle ratio is off 1 by more
#                              than 3%, and how many of them LS moves the same way
function pct(x) { return sprintf("%+.1f%%", (x - 1) * 100) }
function rate(x) { return x == "-" ? "-" : sprintf("%.3f", x) }
function mega(x) { return sprintf("%.2f", x / 1e6) }
function sign(x) { return x > 1 ? "+" : (x < 1 ? "-" : "0") }
{
  if ($3 == "build") { failed[$1] = "build failed"; order[++n_order] = $1; next }
  key = $1 SUBSEP $2 SUBSEP $3
  if (!($1 in seen)) { seen[$1] = 1; order[++n_order] = $1 }
  ok[key] = $4; cyc[key] = $5; insn[key] = $6; ipc[key] = $7; l1[key] = $8; l2[key] = $9
  dram[key] = ($10 == "-" || $11 == "-") ? "-" : $10 + $11
  wall[key] = $12
  if ($4 != "ok") {
    why = ($3 == "gs" ? "GPGPU-Sim" : "locsim") " " $2 ($4 == "wrong" ? " wrong result" : " crashed")
    if ($1 in failed) failed[$1] = failed[$1] ", " why
    else failed[$1] = why
    if ($4 == "fail") crashed[$1] = 1
  }
}
END {
  printf "Programs at size %s; locsim at %s; GTX480 config (GPGPU-Sim SM2_GTX480, locsim fermi_gtx480).\n\n", size, commit
  print "| program | thread insn GS (M) | insn LS/GS | GTO cycles GS | GTO LS/GS | LRR cycles GS | LRR LS/GS | IPC GTO GS | IPC GTO LS | L1D miss GS / LS | L2 miss GS / LS | DRAM acc. LS/GS | LRR/GTO GS | LRR/GTO LS | same sign |"
  print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|:-:|"
  runs = 0; sum_abs = 0; sum_log = 0; n_insn = 0; sum_insn_log = 0
  n_sig = 0; n_agree = 0; wall_gs = 0; wall_ls = 0
  for (i = 1; i <= n_order; i++) {
    p = order[i]
    g = p SUBSEP "gto"; l = p SUBSEP "lrr"
    if ((p in crashed) || (p in failed && !(cyc[g SUBSEP "gs"] > 0 && cyc[g SUBSEP "ls"] > 0 && cyc[l SUBSEP "gs"] > 0 && cyc[l SUBSEP "ls"] > 0))) {
      printf "| %s | %s |||||||||||||| |\n", p, failed[p]
      continue
    }
    rg = cyc[g SUBSEP "ls"] / cyc[g SUBSEP "gs"]
    rl = cyc[l SUBSEP "ls"] / cyc[l SUBSEP "gs"]
    ri = insn[g SUBSEP "ls"] / insn[g SUBSEP "gs"]
    sg = cyc[l SUBSEP "gs"] / cyc[g SUBSEP "gs"]
    sl = cyc[l SUBSEP "ls"] / cyc[g SUBSEP "ls"]
    dg = dram[g SUBSEP "gs"]; dl = dram[g SUBSEP "ls"]
    dr = (dg == "-" || dl == "-" || dg == 0) ? "-" : sprintf("%.2f", dl / dg)
    significant = (sg > 1.03 || sg < 0.97)
    agree = significant ? (sign(sg) == sign(sl) ? "yes" : "**no**") : "(<3%)"
    # A run that failed its own check still simulated; show it, count it nowhere.
    if (p in failed) agree = "not counted: " failed[p]
    printf "| %s | %s | %.3f | %d | %.3f | %d | %.3f | %.1f | %.1f | %s / %s | %s / %s | %s | %s | %s | %s |\n",
      p, mega(insn[g SUBSEP "gs"]), ri, cyc[g SUBSEP "gs"], rg, cyc[l SUBSEP "gs"], rl,
      ipc[g SUBSEP "gs"], ipc[g SUBSEP "ls"], rate(l1[g SUBSEP "gs"]), rate(l1[g SUBSEP "ls"]),
      rate(l2[g SUBSEP "gs"]), rate(l2[g SUBSEP "ls"]), dr, pct(sg), pct(sl), agree
    if (p in failed) continue
    for (s = 0; s < 2; s++) {
      k = (s == 0) ? g : l
      r = cyc[k SUBSEP "ls"] / cyc[k SUBSEP "gs"]
      runs++; sum_abs += (r > 1 ? r - 1 : 1 - r); sum_log += log(r)
      x[runs] = ipc[k SUBSEP "gs"]; y[runs] = ipc[k SUBSEP "ls"]
      wall_gs += wall[k SUBSEP "gs"]; wall_ls += wall[k SUBSEP "ls"]
    }
    n_insn++; sum_insn_log += log(ri)
    if (ri < min_ri || n_insn == 1) min_ri = ri
    if (ri > max_ri || n_insn == 1) max_ri = ri
    if (significant) { n_sig++; if (sign(sg) == sign(sl)) n_agree++ }
  }
  print ""
  if (runs == 0) { print "No program passed under both simulators."; exit }
  mx = 0; my = 0
  for (i = 1; i <= runs; i++) { mx += x[i]; my += y[i] }
  mx /= runs; my /= runs
  sxy = 0; sxx = 0; syy = 0
  for (i = 1; i <= runs; i++) { sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) ^ 2; syy += (y[i] - my) ^ 2 }
  r_ipc = (sxx > 0 && syy > 0) ? sxy / sqrt(sxx * syy) : 0
  print "| summary (" n_insn " programs, " runs " runs) | value | target (issue 8) |"
  print "|---|---:|---|"
  printf "| mean absolute cycle error | %.1f%% | <= 15%% |\n", 100 * sum_abs / runs
  printf "| geometric-mean cycle ratio LS/GS | %.3f | |\n", exp(sum_log / runs)
  printf "| Pearson r of IPC | %.3f | |\n", r_ipc
  printf "| thread-instruction ratio LS/GS (geo-mean, range) | %.3f (%.3f-%.3f) | |\n", exp(sum_insn_log / n_insn), min_ri, max_ri
  printf "| LRR-vs-GTO changes > 3%% in GS with the same sign in LS | %d of %d | all |\n", n_agree, n_sig
  printf "| simulation wall time GS / LS (s, all runs) | %d / %d | |\n", wall_gs, wall_ls
}
