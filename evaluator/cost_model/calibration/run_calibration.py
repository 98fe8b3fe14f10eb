#!/usr/bin/env python3
"""Run eok's own memcpy/memset calibration programs on the virtual K1 board (`eok measure`).

The programs (memcpy_bench.c + memcpy_impls.S, memset_bench.c + memset_impls.S, next to this script)
reproduce what rvv-bench measured on a SpacemiT X60 (../shared/data/x60/rvv-bench-x60-kernels.json beside the checkout).
This driver builds them, picks a subset of the measured sizes, runs

    eok measure --json -- <prog> CHART N TIMED [IMPL...]

once per (bench, chart, size) with all implementations in one process (split into several processes only
when a size is too large to finish within the board's time limit), maps the regions to implementations
by order (each implementation ends exactly TIMED regions, in the program's fixed order) and appends one
JSON line per (bench, chart, impl, n) to --out:

    {"bench", "chart", "impl", "n", "regions": [{"cycles", "compute_cycles", "load_stall_cycles",
     "l2_cycles", "dram_cycles", "memory_counters": {...}, ...every region field but hot_blocks}]}

The lines of one (bench, chart, n) are written together once all of its implementations succeeded, so a
rerun with the same --out skips what is done (resumable). A failed run (eok or program exit != 0, a
"problem", a time-out, a wrong region count) is reported loudly with the program's output and its size
is not written; the script then exits 1.

    evaluator/cost_model/calibration/run_calibration.py --every 8 --max-size 4000000 \\
        --out build/calibration/results.jsonl
    evaluator/cost_model/calibration/run_calibration.py --compare --out build/calibration/results.jsonl

--compare runs nothing: it prints modeled bytes/cycle (n / median cycles of the timed calls) next to the
measured figure for the sizes in --out.

Python 3 standard library only.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]  # evaluator/cost_model/calibration -> repo root
DEFAULT_DATA = REPO.parent / "shared" / "data" / "x60" / "rvv-bench-x60-kernels.json"
BENCHES = ("memcpy", "memset")
CHARTS = ("base", "aligned")
# chart name of this driver/programs -> chart title in the measured data
CHART_TITLE = {("memcpy", "base"): "memcpy", ("memcpy", "aligned"): "memcpy aligned",
               ("memset", "base"): "memset", ("memset", "aligned"): "memset aligned"}
BASE_FLAGS = ["--target=riscv64-linux-gnu", "-march=rv64gcv_zba_zbb_zbs", "-O3", "-static", "-fuse-ld=lld"]

_print_lock = threading.Lock()


def log(msg):
    with _print_lock:
        print(msg, file=sys.stderr, flush=True)


def loud(title, body):
    bar = "!" * 100
    log(f"{bar}\n!! {title}\n{bar}\n{body.rstrip()}\n{bar}")


# --------------------------------------------------------------------------------------------- build

def compiler_accepts(cc, flags, tmpdir):
    src = tmpdir / "probe.c"
    src.write_text("int main(void) { return 0; }\n")
    exe = tmpdir / "probe"
    r = subprocess.run([cc, *flags, str(src), "-o", str(exe)], capture_output=True, text=True)
    for f in (src, exe):
        f.unlink(missing_ok=True)
    return r.returncode == 0


def build(cc, build_dir, benches):
    build_dir.mkdir(parents=True, exist_ok=True)
    flags = list(BASE_FLAGS)
    if compiler_accepts(cc, flags + ["-mcpu=spacemit-x60"], build_dir):
        flags.append("-mcpu=spacemit-x60")
    else:
        log(f"note: {cc} does not accept -mcpu=spacemit-x60; building without it")
    flags.append(f"-I{REPO / 'evaluator' / 'target'}")
    progs = {}
    for bench in benches:
        out = build_dir / f"{bench}_bench"
        sources = [HERE / f"{bench}_bench.c", HERE / f"{bench}_impls.S"]  # a program may have no assembly
        cmd = [cc, *flags, "-Wall", "-Wextra", *(str(src) for src in sources if src.exists()), "-o", str(out)]
        log("build: " + " ".join(cmd))
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            loud(f"BUILD FAILED: {bench}", r.stdout + r.stderr)
            sys.exit(1)
        if r.stderr.strip():
            log(r.stderr.rstrip())
        progs[bench] = out
    return progs


# --------------------------------------------------------------------------------------------- running

def eok_measure(eok, args, timeout):
    """Run `eok measure --json -- args`; return (ok, json-or-None, stderr text, wall seconds, why)."""
    cmd = [str(eok), "measure", "--json"]
    if timeout:
        cmd += ["--timeout", str(timeout)]
    cmd += ["--", *map(str, args)]
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    try:
        doc = json.loads(r.stdout)
    except json.JSONDecodeError:
        return False, None, r.stderr, wall, f"eok exit {r.returncode}, no JSON on stdout: {r.stdout[:2000]!r}"
    why = None
    if r.returncode != 0 or doc.get("exit_code") != 0 or doc.get("problem"):
        why = (f"eok exit {r.returncode}, status {doc.get('status')!r}, program exit_code {doc.get('exit_code')!r}, "
               f"problem {doc.get('problem')!r}")
    return why is None, doc, r.stderr, wall, why


def list_impls(eok, prog):
    ok, doc, err, _, why = eok_measure(eok, [prog, "list"], None)
    names = [line.strip() for line in err.splitlines() if re.fullmatch(r"[A-Za-z0-9_]+", line.strip())]
    if not ok or not names:
        loud(f"cannot list the implementations of {prog}", f"{why}\n{err}")
        sys.exit(1)
    return names


def is_timeout(doc):
    return doc is not None and "timed out" in str(doc.get("status", ""))


def run_group(eok, prog, bench, chart, n, timed, impls, timeout):
    """Run one process for `impls`; split the group in two on a time-out. Returns ({impl: regions}, wall
    seconds, process count) or raises RuntimeError with the whole story."""
    ok, doc, err, wall, why = eok_measure(eok, [prog, chart, n, timed, *impls], timeout)
    if not ok:
        if is_timeout(doc) and len(impls) > 1:
            half = len(impls) // 2
            log(f"   {bench} {chart} n={n}: {len(impls)} impls timed out after {wall:.1f} s; "
                f"splitting into {half} + {len(impls) - half}")
            a, wa, pa = run_group(eok, prog, bench, chart, n, timed, impls[:half], timeout)
            b, wb, pb = run_group(eok, prog, bench, chart, n, timed, impls[half:], timeout)
            a.update(b)
            return a, wall + wa + wb, pa + pb
        raise RuntimeError(f"{why}\ncommand: {prog} {chart} {n} {timed} {' '.join(impls)}\n"
                           f"--- program output (stdout + stderr) ---\n{err}")
    seen = [line.split(None, 1)[1].strip() for line in err.splitlines() if line.startswith("impl ")]
    regions = doc.get("regions", [])
    if seen != list(impls) or len(regions) != len(impls) * timed:
        raise RuntimeError(f"expected impls {impls} with {timed} regions each ({len(impls) * timed}); the program "
                           f"announced {seen} and ended {len(regions)} regions\n"
                           f"--- program output ---\n{err}")
    out = {}
    for k, impl in enumerate(impls):
        rs = []
        for reg in regions[k * timed:(k + 1) * timed]:
            reg = dict(reg)
            reg.pop("hot_blocks", None)
            rs.append(reg)
        out[impl] = rs
    return out, wall, 1


def plan_groups(impls, n, timed, split_bytes):
    """Chunk the impls so one process copies about split_bytes bytes at most (the emulator is slow for big
    sizes and the board stops a program after 30 s)."""
    per_impl = n * (timed + 1)
    k = max(1, min(len(impls), split_bytes // max(per_impl, 1)))
    return [impls[i:i + k] for i in range(0, len(impls), k)]


# --------------------------------------------------------------------------------------------- data

def load_data(path):
    with open(path) as f:
        return json.load(f)["benchmarks"]


def select_sizes(data, bench, chart, every, min_size, max_size):
    sizes = [int(s) for s in data[bench][CHART_TITLE[bench, chart]]["sizes"]]
    picked = sizes[::every]
    return [n for n in picked if (min_size is None or n >= min_size) and (max_size is None or n <= max_size)]


def read_done(out_path):
    """{(bench, chart, n): set(impls)} from an existing --out file."""
    done = {}
    if out_path.exists():
        with open(out_path) as f:
            for lineno, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    log(f"warning: {out_path}:{lineno}: not JSON, ignored")
                    continue
                done.setdefault((rec["bench"], rec["chart"], int(rec["n"])), set()).add(rec["impl"])
    return done


# --------------------------------------------------------------------------------------------- compare

def compare(out_path, data_path, impls_filter, sizes_filter):
    data = load_data(data_path)
    rows = {}
    with open(out_path) as f:
        for line in f:
            if line.strip():
                rec = json.loads(line)
                rows[rec["bench"], rec["chart"], rec["impl"], int(rec["n"])] = rec
    print(f"{'bench':7} {'chart':8} {'impl':26} {'n':>10} {'modeled':>9} {'measured':>9} {'ratio':>6}"
          f"  {'median cyc':>11}  {'compute':>9} {'ld_stall':>9} {'l2':>9} {'dram':>9}")
    for (bench, chart, impl, n), rec in sorted(rows.items()):
        if impls_filter and impl not in impls_filter:
            continue
        if sizes_filter and n not in sizes_filter:
            continue
        regs = rec["regions"]
        cyc = statistics.median(r["cycles"] for r in regs)
        mid = sorted(regs, key=lambda r: r["cycles"])[len(regs) // 2]
        modeled = n / cyc if cyc else float("nan")
        chart_data = data[bench][CHART_TITLE[bench, chart]]
        measured = float("nan")
        if impl in chart_data["impls"] and n in [int(s) for s in chart_data["sizes"]]:
            measured = chart_data["impls"][impl][[int(s) for s in chart_data["sizes"]].index(n)]
        ratio = modeled / measured if measured else float("nan")
        print(f"{bench:7} {chart:8} {impl:26} {n:>10} {modeled:>9.3f} {measured:>9.3f} {ratio:>6.2f}"
              f"  {cyc:>11.1f}  {mid['compute_cycles']:>9.1f} {mid['load_stall_cycles']:>9.1f}"
              f" {mid['l2_cycles']:>9.1f} {mid['dram_cycles']:>9.1f}")


# --------------------------------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", choices=[*BENCHES, "all"], default="all")
    ap.add_argument("--chart", choices=[*CHARTS, "all"], default="all")
    ap.add_argument("--every", type=int, default=1, help="take every K-th size of the data's list (from the first)")
    ap.add_argument("--min-size", type=int, default=None, help="smallest n, bytes")
    ap.add_argument("--max-size", type=int, default=None, help="largest n, bytes")
    ap.add_argument("--timed", type=int, default=3, help="timed calls per (impl, n) (default 3)")
    ap.add_argument("--jobs", type=int, default=2, help="eok processes in parallel (default 2)")
    ap.add_argument("--eok", type=Path, default=REPO / "build" / "eok", help="eok binary (default build/eok)")
    ap.add_argument("--out", type=Path, default=REPO / "build" / "calibration" / "results.jsonl",
                    help="JSON-lines output, appended to and resumed from (default build/calibration/results.jsonl)")
    ap.add_argument("--build-dir", type=Path, default=REPO / "build" / "calibration")
    ap.add_argument("--cc", default="clang-22")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the measured X60 data (for its sizes)")
    ap.add_argument("--impl", action="append", default=[],
                    help="run only this implementation (repeatable); default all")
    ap.add_argument("--split-bytes", type=int, default=128_000_000,
                    help="split a size over several processes when impls x (timed+1) x n exceeds this "
                         "(default 128e6, about 13 s of emulation); a process that times out is split again")
    ap.add_argument("--timeout", type=float, default=None, help="eok measure --timeout (default: the board's)")
    ap.add_argument("--compare", action="store_true", help="print modeled vs measured from --out and exit")
    ap.add_argument("--sizes", type=str, default=None,
                    help="comma-separated sizes: run exactly these (each must be a measured size), or with --compare show them")
    args = ap.parse_args()

    if args.compare:
        sizes = {int(s) for s in args.sizes.split(",")} if args.sizes else None
        compare(args.out, args.data, set(args.impl), sizes)
        return 0

    if args.every < 1 or args.timed < 1 or args.jobs < 1:
        ap.error("--every, --timed and --jobs must be >= 1")
    if not args.eok.exists():
        ap.error(f"{args.eok} not found (build eok first)")
    if shutil.which(args.cc) is None:
        ap.error(f"{args.cc} not found")

    benches = BENCHES if args.bench == "all" else (args.bench,)
    charts = CHARTS if args.chart == "all" else (args.chart,)
    data = load_data(args.data)
    progs = build(args.cc, args.build_dir, benches)
    all_impls = {b: list_impls(args.eok, progs[b]) for b in benches}
    for b in benches:
        unknown = [i for i in args.impl if i not in all_impls[b]]
        if args.impl and len(unknown) == len(args.impl):
            ap.error(f"none of {args.impl} is a {b} implementation ({' '.join(all_impls[b])})")

    done = read_done(args.out)
    tasks = []
    skipped = 0
    for bench in benches:
        impls = [i for i in all_impls[bench] if not args.impl or i in args.impl]
        for chart in charts:
            chosen = select_sizes(data, bench, chart, args.every, args.min_size, args.max_size)
            if args.sizes:
                measured = {int(x) for x in data[bench][CHART_TITLE[bench, chart]]["sizes"]}
                chosen = [int(x) for x in args.sizes.split(",")]
                missing = [n for n in chosen if n not in measured]
                if missing:
                    ap.error(f"{bench} {chart}: {missing} are not measured sizes")
            for n in chosen:
                todo = [i for i in impls if i not in done.get((bench, chart, n), set())]
                if not todo:
                    skipped += 1
                    continue
                tasks.append((bench, chart, n, todo))
    # big sizes first, so the long runs overlap with many short ones
    tasks.sort(key=lambda t: -t[2])
    log(f"{len(tasks)} (bench, chart, size) runs to do, {skipped} already in {args.out}; timed={args.timed}, "
        f"jobs={args.jobs}")
    args.out.parent.mkdir(parents=True, exist_ok=True)

    write_lock = threading.Lock()
    failures = []
    counter = [0]
    t_start = time.monotonic()

    def work(task):
        bench, chart, n, todo = task
        t0 = time.monotonic()
        results, procs = {}, 0
        try:
            for group in plan_groups(todo, n, args.timed, args.split_bytes):
                res, _, p = run_group(args.eok, progs[bench], bench, chart, n, args.timed, group, args.timeout)
                results.update(res)
                procs += p
        except RuntimeError as e:
            failures.append((bench, chart, n))
            loud(f"RUN FAILED: {bench} {chart} n={n} (nothing written for this size)", str(e))
            return
        wall = time.monotonic() - t0
        with write_lock:
            with open(args.out, "a") as f:
                for impl in todo:
                    f.write(json.dumps({"bench": bench, "chart": chart, "impl": impl, "n": n,
                                        "regions": results[impl]}) + "\n")
            counter[0] += 1
            k = counter[0]
        log(f"[{k}/{len(tasks)}] {bench:6} {chart:7} n={n:>9}: {len(todo)} impls, {procs} process(es), "
            f"{wall:6.2f} s wall  (elapsed {time.monotonic() - t_start:7.1f} s)")

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(work, tasks))

    log(f"done in {time.monotonic() - t_start:.1f} s: {counter[0]} runs written to {args.out}, "
        f"{len(failures)} failed")
    if failures:
        loud("FAILED RUNS (rerun the same command to retry them)",
             "\n".join(f"{b} {c} n={n}" for b, c, n in failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
