#!/usr/bin/env bash
# locsim report: a small sweep, then the report opened in headless Chromium.
# Chromium's DOM (after it parsed the file) must hold one bar per (workload,
# variant) in every chart, with the value the database gives (Best-SWL chosen
# from the grid by the test itself), and the table cells must equal the
# database's numbers; the screenshot must be a real PNG.  Python reads the DOM
# and the database independently of locsim.
set -u
locsim=$1
src=$2
export LOCSIM_CONFIG_DIR=$src/configs
for tool in chromium python3 sqlite3; do
  command -v $tool >/dev/null || { echo "SKIP: no $tool (tools/install-deps.sh installs it as root)"; exit 0; }
done
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cat >"$dir/r.yaml" <<'EOF'
name: rep
configs: [ccws_gtx285]
classes: {HCS: highly cache-sensitive, CI: cache-insensitive}
workloads:
  - {name: kmeans, size: 1, class: HCS, label: KMN}
  - {name: backprop, size: 1, class: CI, variants: [lrr, gto]}
variants:
  lrr: {label: LRR, options: {-gpgpu_scheduler: lrr}}
  gto: {label: GTO, options: {-gpgpu_scheduler: gto}}
grids:
  swl: {values: [32, 8, 2], options: {-gpgpu_scheduler: "warp_limiting:gto:{}"}, same: {32: gto}}
report:
  title: "Report test <&> ${spec}"
  derived:
    best_swl: {label: Best-SWL, best_of: swl, max: "$.gpu_tot_ipc"}
  sections:
    - text: "HMEAN of LRR/GTO over every class: ${hmean(*, lrr.gpu_tot_ipc / gto.gpu_tot_ipc):%.6f}"
    - text: "SWL-8 mean IPC over the workloads that run it: ${amean(*, swl_8.gpu_tot_ipc):%.6f} = ${amean(HCS, swl_8.gpu_tot_ipc):%.6f}"
    - table:
        title: IPC
        classes: [HCS, CI]
        group_by_class: true
        summary: "**HMEAN**"
        columns:
          - {head: class, cell: "${class}"}
          - {head: workload, cell: "${workload}"}
          - {head: GTO IPC, cell: "${gto.gpu_tot_ipc:%.6g}"}
          - {each: [lrr, gto, best_swl], head: "${variant}", cell: "${$.gpu_tot_ipc / gto.gpu_tot_ipc:%.6f}",
             summary: "${hmean(@, $.gpu_tot_ipc / gto.gpu_tot_ipc):%.6f}"}
          - {head: best N, cell: "${best_swl.@value}"}
          - {head: SWL-8, cell: "${swl_8.gpu_tot_ipc:%.3f}"}
          - {head: paper, cell: "${if(workload == 'kmeans', 'kmeans row', if(label != 'KMN' && class == 'CI', 1.5, 0)):%.1f}"}
    - chart:
        title: IPC normalised to GTO
        variants: [lrr, gto, best_swl]
        value: "$.gpu_tot_ipc / gto.gpu_tot_ipc"
        reference: 1
    - chart:
        title: L1D MPKI
        classes: [HCS]
        variants: [lrr, gto, swl]
        value: "$.L1D_MPKI"
EOF
"$locsim" sweep "$dir/r.yaml" --jobs 2 >"$dir/log" 2>&1 || { echo "FAIL: sweep"; cat "$dir/log"; exit 1; }
"$locsim" report "$dir/r.yaml" --out "$dir/out" >"$dir/rlog" 2>&1 || { echo "FAIL: report"; cat "$dir/rlog"; exit 1; }
[ -s "$dir/out/rep.md" ] && [ -s "$dir/out/rep.html" ] || { echo "FAIL: no rep.md / rep.html"; exit 1; }
grep -q "^| HCS | kmeans |" "$dir/out/rep.md" || { echo "FAIL: the Markdown lacks the kmeans row"; fail=1; }
# words as strings in expressions: a per-workload constant chosen by name, label and class
grep -q "^| HCS | kmeans |.* | kmeans row |$" "$dir/out/rep.md" || { echo "FAIL: if(workload == 'kmeans', ...) did not pick kmeans' cell"; grep "kmeans" "$dir/out/rep.md"; fail=1; }
grep -q "^| CI | backprop |.* | 1.5 |$" "$dir/out/rep.md" || { echo "FAIL: label/class string comparison did not pick backprop's cell"; grep "backprop" "$dir/out/rep.md"; fail=1; }
# a plain variant a workload does not run (backprop's variants: list) is '-' in its cell and
# left out of aggregates: the mean over every class equals the mean over the class that runs it
grep -Eq "^\| CI \| backprop \|.* \| - \| 1\.5 \|$" "$dir/out/rep.md" || { echo "FAIL: backprop's SWL-8 cell is not '-'"; grep backprop "$dir/out/rep.md"; fail=1; }
line=$(grep "^SWL-8 mean IPC" "$dir/out/rep.md")
a=$(echo "$line" | sed -E 's/.*: ([0-9.]+) = ([0-9.]+).*/\1/'); b=$(echo "$line" | sed -E 's/.*: ([0-9.]+) = ([0-9.]+).*/\2/')
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: amean over '*' did not skip backprop's variant-less value: $line"; fail=1; }
# self-contained: nothing fetched from anywhere, no script
grep -Eqi "<script|src=|href=|@import|url\(" "$dir/out/rep.html" && { echo "FAIL: the HTML refers to something outside"; fail=1; }

flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync)
timeout 120 chromium "${flags[@]}" --user-data-dir="$dir/prof1" --dump-dom "file://$dir/out/rep.html" >"$dir/dom.html" 2>"$dir/c1.log"
timeout 120 chromium "${flags[@]}" --user-data-dir="$dir/prof2" --window-size=1200,1600 --screenshot="$dir/shot.png" \
  "file://$dir/out/rep.html" >/dev/null 2>"$dir/c2.log"
[ -s "$dir/dom.html" ] || { echo "FAIL: Chromium gave no DOM"; tail -5 "$dir/c1.log"; exit 1; }
[ "$(head -c 8 "$dir/shot.png" | od -An -tx1 | tr -d ' ')" = "89504e470d0a1a0a" ] && [ "$(stat -c %s "$dir/shot.png")" -gt 20000 ] ||
  { echo "FAIL: no screenshot"; tail -5 "$dir/c2.log"; fail=1; }

python3 - "$dir/dom.html" "$dir/r.db" <<'EOF' || fail=1
import sqlite3, sys
from html.parser import HTMLParser

class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts, self.tables, self.cell, self.title = [], [], None, ""
        self.in_title = False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and "chart" in a.get("class", ""):
            self.charts.append((a.get("data-title"), []))
        elif tag == "rect" and a.get("class") == "bar":
            self.charts[-1][1].append((a["data-workload"], a["data-variant"], a["data-value"]))
        elif tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = ""
        elif tag == "title" and not self.charts:   # the page's, not a bar's tooltip
            self.in_title = True
    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append(self.cell.strip())
            self.cell = None
        elif tag == "title":
            self.in_title = False
    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.in_title:
            self.title += data

dom = Dom()
dom.feed(open(sys.argv[1]).read())
db = sqlite3.connect(sys.argv[2])
def stat(w, v, name):
    rows = db.execute("select value from stat_values where workload=? and variant=? and kernel=-1 and name=?",
                      (w, v, name)).fetchall()
    assert len(rows) == 1, (w, v, name, rows)
    return rows[0][0]
def variant_of(w, v):
    if v != "best_swl":
        return "gto" if v == "swl_32" else v
    best, bv = None, None       # the grid in order; ties keep the earlier value
    for g in ("gto", "swl_8", "swl_2"):
        x = stat(w, g, "gpu_tot_ipc")
        if best is None or x > bv:
            best, bv = g, x
    return best
bad = 0
def check(ok, what):
    global bad
    if not ok:
        print("FAIL:", what)
        bad = 1

check(dom.title == "Report test <&> rep", "page title %r" % dom.title)
check(len(dom.charts) == 2, "%d charts" % len(dom.charts))
labels = {"LRR": "lrr", "GTO": "gto", "Best-SWL": "best_swl", "32": "swl_32", "8": "swl_8", "2": "swl_2"}
expect = [(["kmeans", "backprop"], ["LRR", "GTO", "Best-SWL"], "ipc"), (["kmeans"], ["LRR", "GTO", "32", "8", "2"], "mpki")]
# backprop runs no SWL (its variants: list): its Best-SWL bar says so and has no value
none = [(w, v) for _, bars in dom.charts for w, v, val in bars if val == "none"]
check(none == [("backprop", "Best-SWL")], "bars without a run: %s" % none)
for (title, bars), (wls, vs, kind) in zip(dom.charts, expect):
    pairs = [(w, v) for w, v, _ in bars]
    check(len(pairs) == len(set(pairs)), "chart %s: a (workload, variant) bar twice" % title)
    check(sorted(pairs) == sorted((w, v) for w in wls for v in vs), "chart %s: bars %s" % (title, pairs))
    for w, v, val in bars:
        if val == "none":
            continue
        var = variant_of(w, labels[v])
        want = stat(w, var, "gpu_tot_ipc") / stat(w, "gto", "gpu_tot_ipc") if kind == "ipc" else stat(w, var, "L1D_MPKI")
        check(abs(float(val) - want) <= 1e-12 * max(1.0, abs(want)), "chart %s %s %s: %s vs DB %r" % (title, w, v, val, want))

rows = dom.tables[0]
check(rows[0] == ["class", "workload", "GTO IPC", "LRR", "GTO", "Best-SWL", "best N", "SWL-8", "paper"], "header %s" % rows[0])
body = {r[1]: r for r in rows[1:] if not r[1].startswith("HMEAN")}
check(sorted(body) == ["backprop", "kmeans"], "table rows %s" % list(body))
for w, r in body.items():
    g = stat(w, "gto", "gpu_tot_ipc")
    check(r[2] == "%.6g" % g, "%s GTO IPC %s vs DB %.6g" % (w, r[2], g))
    for col, v in ((3, "lrr"), (4, "gto"), (5, "best_swl")):
        if v == "best_swl" and w == "backprop":
            check(r[col] == "-", "backprop Best-SWL %s, expected '-' (not run)" % r[col])
            continue
        want = "%.6f" % (stat(w, variant_of(w, v), "gpu_tot_ipc") / g)
        check(r[col] == want, "%s %s: %s vs DB %s" % (w, v, r[col], want))
    n = {"gto": "32", "swl_8": "8", "swl_2": "2"}[variant_of(w, "best_swl")] if w == "kmeans" else "-"
    check(r[6] == n, "%s best N %s vs %s" % (w, r[6], n))
    # a plain variant backprop does not run: '-' (kmeans: the run's IPC)
    want = "%.3f" % stat(w, "swl_8", "gpu_tot_ipc") if w == "kmeans" else "-"
    check(r[7] == want, "%s SWL-8 %s vs %s" % (w, r[7], want))
if not bad:
    print("checked %d bars and %d table rows against the database" % (sum(len(b) for _, b in dom.charts), len(body)))
sys.exit(bad)
EOF
[ $fail -eq 0 ] && echo "ok: harness report (Chromium)"
exit $fail
