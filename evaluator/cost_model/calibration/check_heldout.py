#!/usr/bin/env python3
"""Check the virtual K1 on programs the memory model was not fitted to (held out), against rvv-bench's
published X60 pages. Two figures come from them, and both are named where they are used: the stall of a
descending vector store's DRAM miss (memreverse at 1 MB and more, --derive-descending-store) and the rate
of a read-only DRAM stream that anchors the fit's read bandwidth (utf8_count at 4 MB).

The programs next to this script (memreverse_bench.c, byteswap_bench.c, utf8_count_bench.c with
utf8_count_impls.S, LUT4_bench.c with LUT4_impls.S) reproduce four rvv-bench benchmarks. This driver builds
them, picks 13 of a page's sizes from L1 to DRAM, runs all implementations of one size in one
`eok measure` process under the issue's protocol (one untimed call, then three timed calls, median) and
compares the modeled speed (n / median cycles) with the page:

    per size:     geometric mean over implementations of modeled/measured speed; Spearman rank correlation
                  across implementations; vector-variant pairs the board separates by 5% or more that the
                  model ties (within 1%)
    per program:  sizes whose geometric mean is within [0.8, 1.25]; mean Spearman; share of tied pairs

--pages is a folder with the X60 pages as rvv-bench-results publishes them (memreverse.html, byteswap.html,
utf8_count.html, LUT4.html: the spacemit_x60/ folder of a checkout). Results are kept in --out (JSON lines,
one per program, size and implementation with every region's counters), so a rerun measures only what is
missing, --report-only measures nothing and --model re-judges the kept counters under other memory-model
figures. --smoke needs no pages: it builds every program and runs each at an L1 and an L2 size (each
program checks its results in its untimed call), which is what CI runs.

    evaluator/cost_model/calibration/check_heldout.py --pages rvv-bench-results/spacemit_x60

The pages were not measured in one session (see VINTAGES): byteswap and LUT4 come from runs whose harness
timed a fence.i with every call and, for byteswap, whose memory beyond L1 measured about half as fast as in
the run the model is fitted to. evaluator/README.md ("Held-out check") has the figures.

Python 3 standard library only.
"""
import argparse
import concurrent.futures
import json
import math
import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import run_calibration as rc  # noqa: E402  (the build, eok measure, region mapping)
from fit_memory_model import DEFAULT_MODEL, evaluate, expand, params_from_model, pooled, region_cycles  # noqa: E402

# program -> (page file, chart title on the page, bytes touched per unit of n, {page label: our impl name})
PROGRAMS = {
    "memreverse": ("memreverse.html", "memreverse", 1, {}),
    "byteswap": ("byteswap.html", "byteswap32", 4, {"scalar_autovec_clang18": "scalar_autovec"}),
    "utf8_count": ("utf8_count.html", "utf8 count", 1, {}),
    "LUT4": ("LUT4.html", "LUT4", 1, {}),
}
# When each page's data was measured (the commit of rvv-bench-results that last changed its figures) and
# what differs from the run the memory model is fitted to (memcpy/memset, 2025-09-13).
# FENCE_ERA: pages whose every call carries a fixed ~190 cycles the other pages do not (rvv-bench's harness
# then timed a fence.i after each call; it was removed on 2024-10-27); --fence-cycles adds it to the model.
VINTAGES = {
    "memreverse": ("2026-01-17", "same harness as the fitted run (its gather variants at 1 MB and more set the "
                                 "descending vector store's DRAM stall)"),
    "utf8_count": ("2025-09-13", "the fitted run itself (the memory fit holds a read-only stream to its 4 MB "
                                 "rate; its L1 loops set the compare and integer-load latencies)"),
    "LUT4": ("2024-10-27", "a fixed ~190 cycles per call, as the fence.i-era runs (its L1 loops set the "
                           "integer-load latency and the permutes' unit)"),
    "byteswap": ("2024-05-21", "a fence.i-era run: ~190 cycles per call; beyond L1 about 2x slower"),
}
FENCE_ERA = {"LUT4", "byteswap"}
# working-set targets in bytes, L1 (32 KiB) to DRAM (L2 512 KiB); the nearest measured n is taken
TARGET_BYTES = [64, 256, 1 << 10, 4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10,
                512 << 10, 1 << 20, 4 << 20]
TIMED = 3


def parse_page(path, title):
    """{impl: {n: measured speed}} of the chart `title` on an rvv-bench results page."""
    text = path.read_text()
    at = text.find(f'title: "{title}"')
    if at < 0:
        sys.exit(f"{path}: no chart titled {title!r}")
    labels = json.loads(re.search(r"labels:\s*(\[[^\]]*\])", text[at:]).group(1).replace(",]", "]"))
    block = text[at:][text[at:].index("data:"):]
    rows = []
    for m in re.finditer(r"\[([0-9eE.,+\-\s]*)\]", block):
        rows.append([float(x) for x in m.group(1).split(",") if x.strip()])
        if len(rows) == len(labels):
            break
    sizes = [int(x) for x in rows[0]]
    return {label: dict(zip(sizes, row)) for label, row in zip(labels[1:], rows[1:])}, sizes


def pick_sizes(sizes, unit):
    picked = []
    for target in TARGET_BYTES:
        n = min(sizes, key=lambda s: abs(math.log(s * unit) - math.log(target)))
        if n not in picked:
            picked.append(n)
    return picked


def load_cache(path):
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                rec = json.loads(line)
                done[rec["program"], rec["n"], rec["impl"]] = rec["regions"]
    return done


def measure(args, progs, plan, done):
    todo = [(prog, n, impls) for prog, n, impls in plan
            if any((prog, n, i) not in done for i in impls)]
    rc.log(f"{len(todo)} (program, size) runs to measure, {len(plan) - len(todo)} cached in {args.out}")
    args.out.parent.mkdir(parents=True, exist_ok=True)

    def work(item):
        prog, n, impls = item
        res = {}
        for group in rc.plan_groups(impls, n * PROGRAMS[prog][2], TIMED, args.split_bytes):
            part, _, _ = rc.run_group(args.eok, progs[prog], prog, "base", n, TIMED, group, None)
            res.update(part)
        return prog, n, res

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(work, item) for item in sorted(todo, key=lambda t: -t[1] * PROGRAMS[t[0]][2])]
        for f in concurrent.futures.as_completed(futures):
            try:
                prog, n, regions = f.result()
            except RuntimeError as e:
                failed += 1
                rc.loud("RUN FAILED (nothing written for it)", str(e))
                continue
            with open(args.out, "a") as out:
                for impl, regs in regions.items():
                    out.write(json.dumps({"program": prog, "n": n, "impl": impl, "regions": regs}) + "\n")
                    done[prog, n, impl] = regs
            rc.log(f"   {prog} n={n}: {len(regions)} impls")
    return failed


def call_cycles(regions, params):
    """eok's median timed call; with params (a model to try), the formula's cycles of the call of median
    compute under them (fit_memory_model.region_cycles), as the fit judges a parameter set"""
    if params is None:
        return statistics.median(r["cycles"] for r in regions)
    middle = sorted(regions, key=lambda r: r["compute_cycles"])[len(regions) // 2]
    return region_cycles(middle, params)


def report(plan, pages, done, params=None, detail=False, fence_cycles=0.0):
    print(f"{'program':11} {'n':>9} {'bytes':>9} {'impls':>5} {'geomean':>8} {'spearman':>9} {'ties':>7}  in-range")
    summary = {}
    for prog, n, impls in plan:
        measured, _ = pages[prog]
        alias = {ours: page for page, ours in PROGRAMS[prog][3].items()}
        model, board, names = [], [], []
        for impl in impls:
            label = alias.get(impl, impl)
            if (prog, n, impl) not in done or label not in measured:
                continue
            extra = fence_cycles if prog in FENCE_ERA else 0.0
            model.append(n / (call_cycles(done[prog, n, impl], params) + extra))
            board.append(measured[label][n])
            names.append(impl)
            if detail:
                print(f"  {prog:11} {n:>9} {impl:26} modeled {model[-1]:8.4f} measured {board[-1]:8.4f} "
                      f"ratio {model[-1] / board[-1]:6.2f}")
        if len(model) < 3:
            continue
        rows = [(prog, "base", n, impl, m, x) for impl, m, x in zip(names, model, board)]
        (size_row,) = evaluate(rows)  # the geometric-mean ratio and Spearman, as the calibration check has them
        geo, rho = size_row["ratio"], size_row["spearman"]
        _, separated, tied = pooled(rows)  # vector pairs the board separates by >= 5% that the model ties
        ok = 0.8 <= geo <= 1.25
        s = summary.setdefault(prog, {"sizes": 0, "in_range": 0, "rhos": [], "separated": 0, "tied": 0})
        s["sizes"] += 1
        s["in_range"] += ok
        s["rhos"].append(rho)
        s["separated"] += separated
        s["tied"] += tied
        print(f"{prog:11} {n:>9} {n * PROGRAMS[prog][2]:>9} {len(model):>5} {geo:>8.3f} {rho:>9.3f} "
              f"{tied:>3}/{separated:<3}  {'yes' if ok else 'NO'}")
    print()
    means = []
    for prog, s in summary.items():
        print(f"{prog:11} page measured {VINTAGES[prog][0]}: {VINTAGES[prog][1]}")
        mean = statistics.fmean(s["rhos"])
        means.append(mean)
        print(f"{prog:11} sizes in [0.8, 1.25]: {s['in_range']}/{s['sizes']}; mean Spearman {mean:.3f} "
              f"(min {min(s['rhos']):.3f}); tied {s['tied']}/{s['separated']} "
              f"({100.0 * s['tied'] / max(1, s['separated']):.1f}%)")
    if means:
        print(f"average of the programs' mean Spearman: {statistics.fmean(means):.3f}")


def derive_descending_store(plan, pages, done, params):
    """The memory model's stall per DRAM line a descending unit-stride vector store misses
    (fit_memory_model.DESCENDING_STORE_DRAM_CYCLES): the figure under which memreverse's implementations that
    write most of their lines that way match the board at its sizes of 1 MB and more, geometric mean over
    them."""
    calls = []
    for prog, n, impls in plan:
        if prog != "memreverse" or n * PROGRAMS[prog][2] < 1_000_000:
            continue
        measured, _ = pages[prog]
        for impl in impls:
            if (prog, n, impl) not in done or impl not in measured:
                continue
            regions = done[prog, n, impl]
            middle = sorted(regions, key=lambda r: r["compute_cycles"])[len(regions) // 2]
            counters = middle["memory_counters"]
            if counters.get("descending_store_dram", 0) * 64 * 2 >= counters["store_bytes"]:  # most lines
                calls.append((n, middle, measured[impl][n]))
    if not calls:
        sys.exit("no memreverse run of 1 MB or more with descending vector stores in --out: run with "
                 "--program memreverse (or all) without --report-only first")

    def log_ratio(stall):
        q = dict(params, descending_store=stall)
        return statistics.fmean(math.log(n / region_cycles(r, q) / board) for n, r, board in calls)

    if log_ratio(0.0) <= 0:
        sys.exit("memreverse's descending stores are modeled slower than the board even without the stall: "
                 "the rest of the model, not this figure, is off")
    lo, hi = 0.0, 1000.0  # modeled speed falls as the stall grows: bisect for a geometric mean of 1
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if log_ratio(mid) > 0 else (lo, mid)
    print(f"descending_store_dram_cycles {lo:.1f} ({len(calls)} memreverse calls at 1 MB and more)")


def smoke(args, programs):
    """Every program built and run at an L1 and an L2 working set with all its implementations; each run
    validates its results in the untimed call and must end TIMED regions per implementation."""
    progs = rc.build(args.cc, args.build_dir, programs)
    for prog in programs:
        impls = rc.list_impls(args.eok, progs[prog])
        for size in (3000, 100_000):
            n = max(1, size // PROGRAMS[prog][2])
            try:
                rc.run_group(args.eok, progs[prog], prog, "base", n, TIMED, impls, None)
            except RuntimeError as e:
                rc.loud(f"SMOKE RUN FAILED: {prog} n={n}", str(e))
                return 1
            print(f"{prog} n={n}: {len(impls)} implementations ok")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=Path, help="folder with the X60 pages (memreverse.html, byteswap.html, ...)")
    ap.add_argument("--smoke", action="store_true", help="build and run every program at two sizes; no pages")
    ap.add_argument("--program", choices=[*PROGRAMS, "all"], default="all")
    ap.add_argument("--eok", type=Path, default=REPO / "build" / "eok")
    ap.add_argument("--out", type=Path, default=REPO / "build" / "calibration" / "heldout.jsonl")
    ap.add_argument("--build-dir", type=Path, default=REPO / "build" / "calibration")
    ap.add_argument("--cc", default="clang-22")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--split-bytes", type=int, default=128_000_000)
    ap.add_argument("--report-only", action="store_true", help="print the report from --out, measure nothing")
    ap.add_argument("--fresh", action="store_true", help="discard --out first (after a model change)")
    ap.add_argument("--model", type=Path, default=None,
                    help="report with these memory-model figures (an x60_memory.json) recomputed from the counters")
    ap.add_argument("--detail", action="store_true", help="also print every implementation's ratio")
    ap.add_argument("--derive-descending-store", action="store_true",
                    help="print the memory model's stall per DRAM line of a descending vector store that makes "
                         "memreverse's implementations storing that way match the page at 1 MB and more")
    ap.add_argument("--fence-cycles", type=float, default=0.0,
                    help="add this many cycles to every modeled call of a fence.i-era page (LUT4, byteswap), as "
                         "that harness timed them; 0 (default) judges eok's cycles as they are")
    args = ap.parse_args()

    programs = list(PROGRAMS) if args.program == "all" else [args.program]
    if not args.report_only and not args.eok.exists():
        ap.error(f"{args.eok} not found: build eok first (cmake --build build) or pass --eok")
    if args.smoke:
        return smoke(args, programs)
    if args.pages is None:
        ap.error("--pages is required (or --smoke)")
    pages = {}
    for prog in programs:
        page, title, _, _ = PROGRAMS[prog]
        if not (args.pages / page).exists():
            ap.error(f"{args.pages / page} not found (--pages: the spacemit_x60 folder of rvv-bench-results)")
        pages[prog] = parse_page(args.pages / page, title)
    if args.fresh and args.out.exists():
        args.out.unlink()
    done = load_cache(args.out)
    progs = {} if args.report_only else rc.build(args.cc, args.build_dir, programs)
    plan = []
    for prog in programs:
        impls = rc.list_impls(args.eok, progs[prog]) if progs else sorted({i for p, _, i in done if p == prog})
        for n in pick_sizes(pages[prog][1], PROGRAMS[prog][2]):
            plan.append((prog, n, impls))
    failed = 0 if args.report_only else measure(args, progs, plan, done)
    params = expand(params_from_model(json.loads(args.model.read_text()))) if args.model else None
    if args.derive_descending_store:
        shipped = expand(params_from_model(json.loads(Path(DEFAULT_MODEL).read_text())))
        derive_descending_store(plan, pages, done, params or shipped)
        return 1 if failed else 0
    report(plan, pages, done, params, args.detail, args.fence_cycles)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
