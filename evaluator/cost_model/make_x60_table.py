#!/usr/bin/env python3
"""Generate x60_table.json, the per-instruction cost table of the SpacemiT X60 core.

Where every figure comes from
-----------------------------
vector.<mnemonic>.rthroughput / masked_rthroughput (cycles, per vtype "e<SEW><LMUL>")
    Measured. rvv-bench (camel-cdr/rvv-bench-results, page spacemit_x60) measured reciprocal throughput
    on an X60 core of the SpacemiT K1 (VLEN=256); the project keeps it parsed as JSON in
    shared/data/x60/rvv-bench-x60-throughput.json (see the README beside it). We use the vl = VLMAX
    tables: tblMaa (tail and mask agnostic), where the integer rows are filled, and tblMau (tail
    agnostic, mask undisturbed), where the floating-point rows are filled. A row takes tblMaa when that
    table has any figure for it, tblMau otherwise; the entry names its table in "source" and its
    unmasked row text in "row". The masked figure comes from the row text + ",v0.t" of the same table.
    A column is the vtype the instruction runs under (vle32.v under e8mf4 runs at EMUL=m1), exactly as
    the measured table labels it. Filled cells are copied as they are; empty ones that are legal take
    a measured neighbour's figure (see vector.<mnemonic>.derived below).
    Strided loads/stores (vlse*, vsse*, vlsseg*, vssseg*) were measured with three strides: register
    t3 (an ordinary positive stride), x0 (zero stride, every element from one address) and t1 = -1
    (negative stride). We take the t3 row as representative; the other two are not used.
vector.<mnemonic>.latency (cycles, per vtype)
    LLVM's SpacemiT X60 scheduling model (llvm/lib/Target/RISCV/RISCVSchedSpacemitX60.td), read through
    llvm-mca with a leading `vsetvli t0, a0, e<SEW>, <LMUL>, ta, ma` so the model sees SEW and LMUL.
    Written for every legal vtype of the entry (legal_cell()). Two kinds of memory
    instruction are asked in an equivalent form because LLVM's model charges a worst case for some of
    them otherwise (see llvm_query()): loads/stores with an explicit EEW (vle, vlse, vlseg, vlsseg, vle*ff
    and their stores) under e<EEW>, <EMUL> (same VLMAX, same register group); indexed ones as the same
    instruction with index EEW = SEW under the same vtype (same element count).
    Vector compares (VECTOR_COMPARE_PREFIXES, "latency_source": "measured_loops") instead take
    max(rthroughput, min(LLVM's latency, 4)): measured loops show the mask ready when the compare leaves
    the unit. Integer scalar loads take SCALAR_LOAD_USE_LATENCY the same way.
vector.<mnemonic>.unit
    The resource LLVM's model charges (SMX60_VFP -> vfp, SMX60_VIEU -> vieu, SMX60_VLS -> vls). The cost
    model runs permutes (vrgather, slides, compress) on vls instead (x60_cost_model.cc: measured loops
    show them not overlapping loads and stores).
vector entries with "source": "llvm"
    Instructions the measurement does not cover (vssra, indexed and indexed-segment loads/stores,
    whole-register loads/stores): rthroughput is LLVM's RThroughput, for every legal vtype, unless a
    measured neighbour doing the same or less work costs more (then "derived" says which, see below).
vector.<mnemonic>.derived / masked_derived ({vtype: "<rule>:<neighbour> <vtype>"})
    Cells whose figure is a measured neighbour's rather than the instruction's own: a legal vtype the
    measurement skipped (vlse32.v under e8m1 moves the elements of vlse32.v under e32m4), or an LLVM
    figure below the measured instruction that does the same work (vluxei32.v >= vlse32.v). Every legal
    (instruction, vtype) cell has a figure; derive_vector() states the rules. A vtype legal_cell()
    rejects (EMUL > 8, widening at m8, floating point at e8, ...) traps on the hart and has no cell:
    the cost model charges the instruction's worst figure there.
scalar.<mnemonic>
    unit, latency and rthroughput from LLVM's model (one llvm-mca run, no vsetvli needed). Where the
    measured table has a scalar row (add, mul) the rthroughput is the measured one ("measured": true,
    with "source", "row" and "vtype" naming the cell): the smallest figure over the row's columns of
    tblMaa, because the scalar rows do not depend on vtype and the spread between columns is loop
    overhead of the benchmark. A measured figure of a cycle or more on either integer pipe is charged
    to one pipe (ieu_b) so that a stream of copies reproduces it. Instructions LLVM models like a
    measured one (mulh, mulhsu, mulhu, mulw like mul) are never cheaper than it ("derived":
    "sibling:mul"). Instructions LLVM's model cannot schedule (it has no scheduling class for them) are
    left out and listed in sources.llvm.not_modelled; the caller falls back.
scalar.vsetvli (and vsetivli, vsetvl: "derived": "sibling:vsetvli")
    Measured, from rvv-bench's memset kernels (shared/data/x60/rvv-bench-x60-kernels.json, chart
    "memset", see derive_vset()), not from LLVM, whose model charges a vsetvli 1 cycle. rvv_m<n> sets vl
    with a vsetvli in every iteration (vsetvli; vse8.v; sub; add; bnez); rvv_tail_m<n> stores the same
    bytes with the same vse8.v and no vsetvli in the loop (vse8.v; add; bltu). Cycles per iteration are
    the least-squares slope of cycles over size at L1-resident sizes (VSET_FIT_BYTES) times the bytes of
    an iteration (VLEN/8 * LMUL); the intercept takes the per-call overhead. At m1 the vsetvli loop runs
    at 6.04 cycles an iteration and the plain one at 3.04 (the instruction table's vse8.v e8m1: 3.08),
    so a vsetvli adds 3.0 cycles there; at m2 1.0, at m4 and m8 ~0.1: the loop with a vsetvli never
    runs faster than ~6 cycles an iteration whatever the LMUL, and the loops that place the vsetvli at
    the bottom (rvv_align_m<n>, rvv_vlmax_m<n>: vse8.v; sub; add; vsetvli; bnez) run at the same ~6.1
    cycles at m1 and m2 as rvv_m<n>. Two figures carry it:
      unit vcfg, rthroughput: successive vset instructions are at least the m1 loop's period apart
        (6.04), on a unit of their own, so longer vector work hides them (m4, m8) and their place in
        the loop does not matter. The figure is what the m2 loop shows as well (6.09, its stores alone
        5.06), and rvv-bench's LUT4 loop with three vsetvli an iteration (20.9 cycles) fits it, its
        vector work running between them.
      latency: the vl (and rd) the vsetvli writes reaches the vector instructions that read it that
        much later: what a vsetvli adds to the m1 store loop (with_vsetvli - without at m1, 3.0).
        Vector loads do not read vl in eok's scoreboard (x60_cost_model.cc).
    QEMU ends a translation block after every vset instruction; eok costs a block that runs on into the
    next one together with it (x60_cost_model.cc), so a loop is costed whole, vsetvli included.

Units: SMX60_IEUA -> ieu_a, SMX60_IEUB -> ieu_b, both -> ieu_any, SMX60_LS (either of the two) -> ls,
SMX60_FP -> fp, vector units as above, no resource -> none. When an instruction uses several units the
one with the largest pressure wins.

llvm-mca is run with -instruction-tables: that prints the same Instruction Info (latency, RThroughput)
as -instruction-info and the resource pressure of each instruction as the static model states it,
without simulating; the simulated pressure of -resource-pressure depends on the neighbouring
instructions (an instruction that may use either IEU can land on one of them every time).
One llvm-mca invocation per vtype carries all vector instructions; a batch that llvm-mca rejects is
split in halves until the rejected instructions are isolated.

Rerun (from the repository root; needs python3 and llvm-mca-22 from Debian's llvm-22):
    python3 evaluator/cost_model/make_x60_table.py [--data ../shared/data/x60/rvv-bench-x60-throughput.json]
            [--kernels ../shared/data/x60/rvv-bench-x60-kernels.json]
            [--out evaluator/cost_model/x60_table.json] [--llvm-mca llvm-mca-22]
    --check   regenerate in memory and exit 1 when the committed table differs
    --compare MNEMONIC[,MNEMONIC...] [--vtypes e32m1,e32m2,...]
              print measured vs LLVM rthroughput and LLVM latency side by side
The output is deterministic: sorted keys, one line per mnemonic. The recorded generation date only
changes when some figure changes (or SOURCE_DATE_EPOCH sets it).
"""

import argparse
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys
from collections import Counter

FORMAT_VERSION = 1
MCA_FLAGS = ["-mtriple=riscv64", "-mcpu=spacemit-x60", "-instruction-tables"]
MEASURED_VLMAX_TABLES = ("tblMaa", "tblMau")  # integer rows, floating-point rows
SCALAR_MEASURED_TABLE = "tblMaa"

SEWS = (8, 16, 32, 64)
LMULS = (("mf8", -3), ("mf4", -2), ("mf2", -1), ("m1", 0), ("m2", 1), ("m4", 2), ("m8", 3))
ELEN = 64

UNIT_OF_RESOURCE = {
    "SMX60_FP": "fp",
    "SMX60_IEUA": "ieu_a",
    "SMX60_IEUB": "ieu_b",
    "SMX60_LS": "ls",
    "SMX60_VFP": "vfp",
    "SMX60_VIEU": "vieu",
    "SMX60_VLS": "vls",
}
# Tie-break when two units carry the same pressure.
UNIT_PRIORITY = ("vfp", "vieu", "vls", "fp", "ls", "ieu_any", "ieu_a", "ieu_b")


def legal_vtypes():
    """(key, sew, lmul name, lmul_log2) for every vtype with SEW <= LMUL * ELEN."""
    out = []
    for sew in SEWS:
        for name, lg in LMULS:
            if sew <= ELEN * 2.0 ** lg:
                out.append((f"e{sew}{name}", sew, name, lg))
    return out


# ----------------------------------------------------------------------------------------------------
# Scalar instructions compilers emit for RV64GC + Zfh + Zba/Zbb/Zbs (+ Zbc, Zicond, Zicbo*, vset*),
# grouped by operand template. Compressed forms are looked up by their 32-bit base.

def _fp(names, exts=("s", "d", "h")):
    return [f"{n}.{e}" for n in names for e in exts]


def _ordered(names):
    return [f"{n}{o}" for n in names for o in ("", ".aq", ".rl", ".aqrl")]


SCALAR_GROUPS = [
    ("t0, t1, t2", ["add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and",
                    "addw", "subw", "sllw", "srlw", "sraw",
                    "mul", "mulh", "mulhsu", "mulhu", "mulw", "div", "divu", "rem", "remu",
                    "divw", "divuw", "remw", "remuw",
                    "add.uw", "sh1add", "sh2add", "sh3add", "sh1add.uw", "sh2add.uw", "sh3add.uw",
                    "andn", "orn", "xnor", "max", "maxu", "min", "minu", "rol", "rolw", "ror", "rorw",
                    "bclr", "bext", "binv", "bset", "clmul", "clmulh", "clmulr",
                    "czero.eqz", "czero.nez", "vsetvl"]),
    ("t0, t1, 3", ["addi", "slti", "sltiu", "xori", "ori", "andi", "slli", "srli", "srai",
                   "addiw", "slliw", "srliw", "sraiw", "slli.uw", "rori", "roriw",
                   "bclri", "bexti", "binvi", "bseti"]),
    ("t0, t1", ["clz", "clzw", "ctz", "ctzw", "cpop", "cpopw", "sext.b", "sext.h", "zext.h",
                "rev8", "orc.b"]),
    ("t0, 1", ["lui", "auipc"]),
    ("t0, 8(t1)", ["lb", "lh", "lw", "ld", "lbu", "lhu", "lwu", "sb", "sh", "sw", "sd"]),
    ("ft0, 8(t1)", ["flw", "fld", "flh", "fsw", "fsd", "fsh"]),
    ("t0, t1, 8", ["beq", "bne", "blt", "bge", "bltu", "bgeu"]),
    ("zero, 8", ["jal"]),
    ("zero, 0(t1)", ["jalr"]),
    ("ft0, ft1, ft2", _fp(["fadd", "fsub", "fmul", "fdiv", "fsgnj", "fsgnjn", "fsgnjx", "fmin", "fmax"])),
    ("ft0, ft1, ft2, ft3", _fp(["fmadd", "fmsub", "fnmsub", "fnmadd"])),
    ("ft0, ft1", _fp(["fsqrt"]) + ["fcvt.s.d", "fcvt.d.s", "fcvt.s.h", "fcvt.h.s", "fcvt.d.h", "fcvt.h.d"]),
    ("t0, ft0", [f"fcvt.{i}.{f}" for i in ("w", "wu", "l", "lu") for f in ("s", "d", "h")]
     + ["fmv.x.w", "fmv.x.d", "fmv.x.h"] + _fp(["fclass"])),
    ("ft0, t0", [f"fcvt.{f}.{i}" for f in ("s", "d", "h") for i in ("w", "wu", "l", "lu")]
     + ["fmv.w.x", "fmv.d.x", "fmv.h.x"]),
    ("t0, ft0, ft1", _fp(["feq", "flt", "fle"])),
    # Atomics in every ordering (.aq, .rl, .aqrl are separate mnemonics to the decoder).
    ("t0, (t1)", _ordered(["lr.w", "lr.d"])),
    ("t0, t1, (t2)", _ordered(["sc.w", "sc.d"] + [f"amo{op}.{w}" for op in
                                                  ("swap", "add", "xor", "and", "or", "min", "max", "minu",
                                                   "maxu")
                                                  for w in ("w", "d")])),
    ("t0, fflags, t1", ["csrrw", "csrrs", "csrrc"]),
    ("t0, fflags, 3", ["csrrwi", "csrrsi", "csrrci"]),
    ("", ["ecall", "ebreak", "fence", "fence.i", "fence.tso", "wfi", "mret", "sret"]),
    ("zero, zero", ["sfence.vma"]),
    ("0(t0)", ["prefetch.i", "prefetch.r", "prefetch.w"]),
    ("(t0)", ["cbo.clean", "cbo.flush", "cbo.inval", "cbo.zero"]),
    ("t0, a0, e32, m4, ta, ma", ["vsetvli"]),
    ("t0, 4, e32, m4, ta, ma", ["vsetivli"]),
]


def scalar_asm():
    out = {}
    for operands, names in SCALAR_GROUPS:
        for n in names:
            out[n] = f"{n} {operands}".strip()
    return out


# Vector instructions the measurement does not cover; their throughput comes from LLVM (and is then
# raised to the nearest measured neighbour where LLVM's is lower: see derive_vector()).
def llvm_only_vector():
    """mnemonic -> assembler operands; the vtypes asked are those where legal_cell() holds."""
    out = {}
    for s in ("vv", "vx", "vi"):
        out[f"vssra.{s}"] = {"vv": "v8,v16,v24", "vx": "v8,v16,t0", "vi": "v8,v16,13"}[s]
    for eew in SEWS:
        for kind in ("vlux", "vlox", "vsux", "vsox"):
            out[f"{kind}ei{eew}.v"] = "v8,(t0),v16"
            # Indexed segment accesses: fields of v8.. (at most 8 registers), indices from v16..
            for nf in range(2, 9):
                out[f"{kind}seg{nf}ei{eew}.v"] = "v8,(t0),v16"
        for nreg in (1, 2, 4, 8):
            out[f"vl{nreg}re{eew}.v"] = "v8,(t0)"
    for nreg in (1, 2, 4, 8):
        out[f"vs{nreg}r.v"] = "v8,(t0)"
    return out


# ----------------------------------------------------------------------------------------------------
# llvm-mca

class McaRejected(Exception):
    pass


def run_mca_once(mca, lines):
    text = "\n".join(lines) + "\n"
    try:
        proc = subprocess.run([mca] + MCA_FLAGS + ["-"], input=text, capture_output=True, text=True)
    except FileNotFoundError:
        sys.exit(f"error: {mca} not found; install Debian's llvm-22 or pass --llvm-mca")
    if proc.returncode != 0:
        raise McaRejected(proc.stderr.strip())
    return parse_mca(proc.stdout, len(lines))


def parse_mca(out, expected):
    lines = out.splitlines()
    info, pressure, resources = [], [], {}
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("[1]") and "Instructions:" in ln:
            i += 1
            while i < len(lines) and lines[i].strip():
                f = lines[i].split()
                info.append((int(f[0]), float(f[1]), float(f[2])))
                i += 1
            continue
        m = re.match(r"^\[(\d+(?:\.\d+)?)\]\s+-\s+(\S+)", ln)
        if m:
            resources[m.group(1)] = m.group(2)
        if ln.startswith("Resource pressure by instruction:"):
            header = lines[i + 1].split()
            cols = [h.strip("[]") for h in header if h != "Instructions:"]
            i += 2
            while i < len(lines) and lines[i].strip():
                f = lines[i].split()
                row = Counter()
                for c, v in zip(cols, f[:len(cols)]):
                    if v != "-":
                        row[resources[c]] += float(v)
                pressure.append(row)
                i += 1
            continue
        i += 1
    if len(info) != expected or len(pressure) != expected:
        raise RuntimeError(f"llvm-mca printed {len(info)}/{len(pressure)} rows for {expected} instructions")
    return [{"latency": lat, "rthroughput": rt, "unit": unit_of(p)} for (_, lat, rt), p in zip(info, pressure)]


def unit_of(pressure):
    groups = Counter()
    for res, v in pressure.items():
        groups[UNIT_OF_RESOURCE.get(res, "none")] += v
    if groups.get("ieu_a") and groups.get("ieu_b"):
        groups["ieu_any"] = groups.pop("ieu_a") + groups.pop("ieu_b")
    groups.pop("none", None)
    if not groups:
        return "none"
    return max(groups, key=lambda u: (groups[u], -UNIT_PRIORITY.index(u)))


def run_mca(mca, prefix, lines, rejected):
    """Figures for each line (None where llvm-mca rejects it); prefix lines are set-up (vsetvli)."""
    if not lines:
        return []
    try:
        return run_mca_once(mca, prefix + lines)[len(prefix):]
    except McaRejected as e:
        if len(lines) == 1:
            rejected[lines[0]] = e.args[0].splitlines()[0] if e.args[0] else "rejected"
            return [None]
        half = len(lines) // 2
        return run_mca(mca, prefix, lines[:half], rejected) + run_mca(mca, prefix, lines[half:], rejected)


def mca_version(mca):
    out = subprocess.run([mca, "--version"], capture_output=True, text=True).stdout
    for ln in out.splitlines():
        if "LLVM version" in ln:
            return ln.strip()
    return out.strip().splitlines()[0] if out.strip() else "unknown"


# ----------------------------------------------------------------------------------------------------
# measured table

def figure(cell):
    return float(cell) if cell not in ("", None) else None


def num(x):
    """Compact deterministic number: 4.0 -> 4, 38.43 stays."""
    return int(x) if float(x).is_integer() else x


def filled(row):
    return {k: figure(v) for k, v in row.items() if figure(v) is not None}


def pick_rows(table):
    """mnemonic -> representative unmasked row text (strided: the t3 stride row)."""
    rows = {}
    for text in table:
        if text.endswith(",v0.t"):
            continue
        mn = text.split(" ", 1)[0]
        if "/*" in text or text.endswith(",x0"):
            continue
        if mn in rows:
            raise SystemExit(f"error: two representative rows for {mn}: {rows[mn]!r} and {text!r}")
        rows[mn] = text
    return rows


def mca_text(row):
    return re.sub(r"/\*.*?\*/", "", row)


LMUL_NAME = {lg: name for name, lg in LMULS}
# Unit-stride, strided and segment loads/stores with an explicit EEW (vle32.v, vlsseg2e16.v, vle8ff.v ...).
EEW_MEMORY = re.compile(r"^v[ls](?:s?seg[2-8])?s?e(8|16|32|64)(?:ff)?\.v$")
# Indexed loads/stores, segment ones included (vluxei32.v, vsoxseg3ei8.v); the EEW is the index's.
INDEXED = re.compile(r"^v([ls])([ou])x(?:seg([2-8]))?ei(8|16|32|64)\.v$")
WHOLE_LOAD = re.compile(r"^vl([1248])re(8|16|32|64)\.v$")
WHOLE_STORE = re.compile(r"^vs([1248])r\.v$")
WHOLE_MOVE = re.compile(r"^vmv([1248])r\.v$")
EXTEND = re.compile(r"^v[sz]ext\.vf([248])$")
# Widening (2*SEW destination) and narrowing (2*SEW source) instructions; the reductions among them only
# widen their scalar result.
WIDENING = re.compile(r"^(?:vw|vfw|vn(?:srl|sra|clip|clipu)\.w|vfncvt\.)")
WIDENING_REDUCTION = re.compile(r"^vf?wred")
# Conversions between integers and floating point whose integer side is SEW wide: with Zvfh they are
# legal at SEW = 8 (int8 <-> fp16); every other floating-point instruction needs an fp SEW.
INT_SEW_CONVERSION = re.compile(r"^(?:vfwcvt\.f\.xu?\.v|vfncvt\.(?:rtz\.)?xu?\.f\.w)$")
FP_SEWS = (16, 32, 64)  # Zvfh, F, D


def vtype_key_of(sew, lg):
    return f"e{sew}{LMUL_NAME[lg]}"


def vtype_order(key):
    sew, name = re.match(r"e(\d+)(\w+)", key).groups()
    return int(sew), dict(LMULS)[name]


def llvm_query(mn, text, sew, lg):
    """(vtype key of the llvm-mca run, instruction text) that gives LLVM's figure for `mn` under e<sew>, lg.

    Memory instructions with an explicit EEW move vl elements of EEW bits in an EMUL = EEW/SEW * LMUL
    register group; LLVM's model resolves them by (EEW, EMUL) but, for segment instructions, only when
    EEW = SEW; otherwise it charges a worst case (vlseg2e16.v under e32m1: 256 cycles, under the
    equivalent e16mf2: 16). They are asked under the equivalent vtype e<EEW>, <EMUL>, which has the same
    VLMAX and register group. Indexed instructions (data EEW = SEW, index EEW given) are charged
    inconsistently off the EEW = SEW diagonal (vluxei32.v under e8m1: 4 cycles for 32 elements, under
    e8mf4: 32 cycles for 8); on the diagonal LLVM charges per element, so they are asked as the same
    instruction with index EEW = SEW under the same vtype (same element count).
    """
    m = EEW_MEMORY.match(mn)
    if m:
        eew = int(m.group(1))
        elg = lg + (eew // sew).bit_length() - 1 if eew >= sew else lg - ((sew // eew).bit_length() - 1)
        return vtype_key_of(eew, elg), text
    m = INDEXED.match(mn)
    if m:
        return vtype_key_of(sew, lg), text.replace(f"ei{m.group(4)}.v", f"ei{sew}.v", 1)
    return vtype_key_of(sew, lg), text


# ----------------------------------------------------------------------------------------------------
# Derived figures: cells the measurement left empty, and LLVM figures below a measured neighbour

NEGATED_FMA = {"vfnmacc": "vfmacc", "vfnmadd": "vfmadd", "vfnmsac": "vfmsac", "vfnmsub": "vfmsub",
               "vnmsac": "vmacc", "vnmsub": "vmadd"}
# Scalar instructions LLVM models exactly like a measured one: never cheaper than its measurement. mul's
# 3 cycles refute LLVM's 0.5 for the whole multiplier; add's 0.51 confirms LLVM's 0.5 for the ALU (dual
# issue, plus the benchmark's loop overhead), so the ALU instructions keep LLVM's figure.
SCALAR_SIBLINGS = {"mul": ("mulh", "mulhsu", "mulhu", "mulw")}
# Integer loads: an L1 hit is usable 3 cycles after the load issues, not LLVM's 4. Measured loops of
# rvv-bench on the X60 (new runs: 2025-09 utf8_count, 2024-10 LUT4) whose time is a load-use chain:
# utf8_count's scalar loop (lb; slti; addi; xori; add; mv; bne) runs at 5.88 cycles per byte and LUT4's
# (lbu; andi; add; lbu; sb; addi; bne) at 6.13; the scoreboard gives 5.5 and 6.0 with 3 cycles, 6.5 and 8.0
# with LLVM's 4 (tests/evaluator/x60_core_figures_test.cc checks these loops).
SCALAR_LOAD_USE_LATENCY = 3
SCALAR_INT_LOADS = ("lb", "lbu", "lh", "lhu", "lw", "lwu", "ld")
# Vector compares: the mask is ready when the compare leaves the unit (its measured occupancy), not at
# LLVM's latency, which at m4 and m8 exceeds it (vmsgt.vx e8m8: 18 against 11), and no sooner than 4 cycles
# (LLVM's latency of every compare at m1 and below). rvv-bench utf8_count on the X60 (2025-09): its loops (vle8; vmsgt.vx; vcpop.m) at m2-m8, four
# strips an iteration, run at the sum of the three occupancies (29.7 cycles a strip at m8: 16.6 + 11 + 2).
VECTOR_COMPARE_PREFIXES = ("vmseq", "vmsne", "vmslt", "vmsle", "vmsgt", "vmsge",
                           "vmfeq", "vmfne", "vmflt", "vmfle", "vmfgt", "vmfge")
VECTOR_COMPARE_MIN_LATENCY = 4

# ----------------------------------------------------------------------------------------------------
# vsetvli: measured in rvv-bench's memset kernels (see the module docstring)

VLEN_BYTES = 32                 # the X60's VLEN = 256: an e8 vector register holds 32 bytes
VSET_FIT_BYTES = (1024, 16384)  # L1-resident sizes (the data's README: L1 <= 16 KiB) with many iterations
VSET_CHART = ("memset", "memset")          # destinations at random offsets, as the instruction table's stores
VSET_CROSS_CHART = ("memset", "memset aligned")  # reported beside it, not used
VSET_LMULS = (("m1", 0), ("m2", 1), ("m4", 2), ("m8", 3))
VSET_MNEMONICS = ("vsetvli", "vsetivli", "vsetvl")


def loop_cycles(chart, impl, bytes_per_iteration, lo, hi):
    """Cycles per loop iteration of `impl`: the least-squares slope of cycles (size / bytes per cycle) over
    size, for sizes in [lo, hi], times the bytes of an iteration. The intercept absorbs what every call pays
    once (the benchmark's ~20 cycles of timer overhead, the set-up before the loop, the tail)."""
    pts = [(n, n / bpc) for n, bpc in zip(chart["sizes"], chart["impls"][impl]) if lo <= n <= hi and bpc]
    if len(pts) < 8:
        raise SystemExit(f"error: only {len(pts)} sizes of {impl} in [{lo}, {hi}] bytes")
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    slope = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    return slope * bytes_per_iteration


def derive_vset(kernels_path):
    """(scalar entry of vsetvli, record for sources) from the measured memset kernels."""
    with open(kernels_path, encoding="utf-8") as fh:
        raw = fh.read()
    bench = json.loads(raw)["benchmarks"]
    lo, hi = VSET_FIT_BYTES

    def exposed(chart_key):
        chart = bench[chart_key[0]][chart_key[1]]
        out = {}
        for name, lg in VSET_LMULS:
            it = VLEN_BYTES << lg
            with_vset = loop_cycles(chart, f"rvv_{name}", it, lo, hi)
            without = loop_cycles(chart, f"rvv_tail_{name}", it, lo, hi)
            out[name] = {"with_vsetvli": round(with_vset, 2), "without": round(without, 2),
                         "vsetvli": round(max(0.0, with_vset - without), 2)}
        return out

    used, cross = exposed(VSET_CHART), exposed(VSET_CROSS_CHART)
    entry = {
        "unit": "vcfg",
        "rthroughput": num(used["m1"]["with_vsetvli"]),
        "latency": num(used["m1"]["vsetvli"]),
        "measured": True,
        "source": "memset",
    }
    record = {
        "what": "scalar vsetvli (vsetivli, vsetvl as its siblings): unit, rthroughput, latency",
        "file": "shared/data/x60/rvv-bench-x60-kernels.json",
        "sha256": hashlib.sha256(raw.encode("utf-8")).hexdigest(),
        "chart": "/".join(VSET_CHART),
        "kernels": "rvv_m<n> (vsetvli; vse8.v; sub; add; bnez) against rvv_tail_m<n> (vse8.v; add; bltu)",
        "fit": f"cycles per iteration: least-squares slope of cycles over size for sizes {lo}..{hi} bytes "
               f"times {VLEN_BYTES} * LMUL bytes",
        "per_lmul": used,
        "cross_check": {"chart": "/".join(VSET_CROSS_CHART), "per_lmul": cross},
        "unit": "vcfg, a unit of the vset instructions alone (not LLVM's): the loop's period bounds how close "
                "successive vsetvli issue, wherever they sit in the loop",
        "rthroughput": "with_vsetvli at m1 (the m2 loop runs at the same period although its stores alone are faster)",
        "latency": "with_vsetvli - without at m1: when the vl it sets reaches the next vector store",
    }
    return entry, record


def derive_vector(vector, legal, by_key):
    """Gives every legal cell a figure, never below the nearest measured neighbour; returns the count.

    A derived cell records "<rule>:<neighbour> <vtype>" in "derived" (the unmasked figure) or
    "masked_derived" (the masked one). The rules, each naming a neighbour that does the same work:
      same_data     loads/stores with an explicit EEW (unit-stride, strided, segment, fault-only-first)
                    under a vtype the measurement skipped: the same instruction under e<EEW>, <EMUL>,
                    which moves the same elements in the same registers (vlse32.v e8m1 = vlse32.v e32m4).
      same_move     vmv<n>r.v under LMUL < n: the same instruction under e<SEW>, m<n> (it ignores vtype).
      negated_fma,  vfnmacc/vfnmadd/vfnmsac/vfnmsub and vnmsac/vnmsub where the measurement skipped them
      twice_half,   (m8, e64): the largest of the non-negated form under the same vtype, twice the same
      narrower_sew  instruction under half the LMUL, and the same instruction on the same registers with
                    half the SEW.
      next_sew      int8 <-> fp16 conversions at SEW = 8: the same instruction under e16 with the same
                    LMUL, the same registers (mf4 for mf8: the same elements); the X60's widening and
                    narrowing work costs the same at e8 and e16 wherever both are measured.
      floor         LLVM-only instructions whose LLVM figure is below a measured instruction doing the
                    same or less work: indexed (segment) accesses >= strided (segment) ones of EEW = SEW
                    under the same vtype (same elements and fields: an in-order core serves indexed
                    accesses an element at a time, as strided ones); vl<n>re<EEW>.v >= vle<EEW>.v under
                    e<EEW>, m<n>; vs<n>r.v >= vse8.v under e8, m<n> (its encoded EEW); vssra >= vssrl
                    under the same vtype. The latency is floored at the neighbour's too.
    """
    n = 0

    def fig(mn, key, masked=False):
        e = vector.get(mn)
        if e is None:
            return None
        r = e.get("rthroughput", {}).get(key)
        return e.get("masked_rthroughput", {}).get(key, r) if masked else r

    def put(mn, key, field, value, why):
        nonlocal n
        e = vector[mn]
        e.setdefault(field, {})[key] = value
        e.setdefault("derived" if field == "rthroughput" else "masked_derived", {})[key] = why
        n += 1

    def fill(mn, key, candidates, masked_candidates):
        """candidates: [(figure or None, why)]; the largest wins. The masked figure is never below the
        unmasked one (the unmasked form is a neighbour too; without a masked figure the lookup uses it)."""
        best = max((c for c in candidates if c[0] is not None), default=None, key=lambda c: c[0])
        if best is None:
            return
        put(mn, key, "rthroughput", best[0], best[1])
        mbest = max((c for c in masked_candidates if c[0] is not None), default=None, key=lambda c: c[0])
        if mbest is not None and mbest[0] > best[0]:
            put(mn, key, "masked_rthroughput", mbest[0], mbest[1])

    def floor(mn, key, nb, nb_key, maskable=True):
        why = f"floor:{nb} {nb_key}"
        e, b = vector[mn], vector[nb]
        own = e["rthroughput"][key]
        if b["rthroughput"].get(nb_key) is None:
            raise SystemExit(f"error: no figure for {nb} {nb_key}, the neighbour of {mn} {key}")
        if fig(nb, nb_key) > own:
            put(mn, key, "rthroughput", fig(nb, nb_key), why)
        if maskable and fig(nb, nb_key, True) > e["rthroughput"][key]:
            put(mn, key, "masked_rthroughput", fig(nb, nb_key, True), why)
        lat = b.get("latency", {}).get(nb_key)
        if lat is not None and lat > e.get("latency", {}).get(key, 0):
            e.setdefault("latency", {})[key] = lat

    for mn in sorted(vector):
        e = vector[mn]
        keys = sorted(legal[mn], key=vtype_order)
        base, _, form = mn.partition(".")
        for key in keys:
            sew, lg = by_key[key]
            if e["source"] == "llvm":
                if key not in e.get("rthroughput", {}):
                    continue  # LLVM could not cost it: reported by the completeness check below
                m = INDEXED.match(mn)
                if m:
                    kind, nf = m.group(1), fields(mn)
                    nb = f"v{kind}s{'seg' + str(nf) if nf > 1 else ''}e{sew}.v"
                    floor(mn, key, nb, key)
                m = WHOLE_LOAD.match(mn)
                if m:
                    nb, nb_key = f"vle{m.group(2)}.v", vtype_key_of(int(m.group(2)), log2(int(m.group(1))))
                    floor(mn, key, nb, nb_key, maskable=False)
                m = WHOLE_STORE.match(mn)
                if m:
                    nb_key = vtype_key_of(8, log2(int(m.group(1))))
                    floor(mn, key, "vse8.v", nb_key, maskable=False)
                if base == "vssra":
                    floor(mn, key, f"vssrl.{form}", key)
                continue
            if key in e["rthroughput"]:
                continue
            m = EEW_MEMORY.match(mn)
            if m:
                eew = int(m.group(1))
                diag = vtype_key_of(eew, lg + log2(eew) - log2(sew))
                why = f"same_data:{mn} {diag}"
                fill(mn, key, [(fig(mn, diag), why)], [(e.get("masked_rthroughput", {}).get(diag), why)])
                continue
            m = WHOLE_MOVE.match(mn)
            if m:
                src = vtype_key_of(sew, log2(int(m.group(1))))
                why = f"same_move:{mn} {src}"
                fill(mn, key, [(fig(mn, src), why)], [])
                continue
            if base in NEGATED_FMA:
                sib = f"{NEGATED_FMA[base]}.{form}"
                half = vtype_key_of(sew, lg - 1) if lg >= 1 else None
                twice = lambda x: 2 * x if x is not None else None  # noqa: E731
                cands = [(fig(sib, key), f"negated_fma:{sib} {key}")]
                mcands = [(fig(sib, key, True), cands[0][1])]
                if half:
                    why = f"twice_half:{mn} {half}"
                    cands.append((twice(fig(mn, half)), why))
                    mcands.append((twice(fig(mn, half, True)), why))
                if sew > 8 and vtype_key_of(sew // 2, lg) in legal[mn]:
                    narrow = vtype_key_of(sew // 2, lg)
                    why = f"narrower_sew:{mn} {narrow}"
                    cands.append((fig(mn, narrow), why))
                    mcands.append((fig(mn, narrow, True), why))
                fill(mn, key, cands, mcands)
                continue
            if INT_SEW_CONVERSION.match(mn) and sew == 8:
                nb_key = vtype_key_of(16, max(lg, -2))
                why = f"next_sew:{mn} {nb_key}"
                fill(mn, key, [(fig(mn, nb_key), why)], [(e.get("masked_rthroughput", {}).get(nb_key), why)])

    missing = [f"{mn} {key}" for mn in sorted(vector) for key in sorted(legal[mn], key=vtype_order)
               if key not in vector[mn].get("rthroughput", {})]
    if missing:
        raise SystemExit(f"error: {len(missing)} legal cells have no figure and no measured neighbour: "
                         + ", ".join(missing[:20]))
    return n


# ----------------------------------------------------------------------------------------------------
# Which (instruction, vtype) cells exist: RVV 1.0 on the X60 (ELEN = 64, Zvfh)

def log2(n):
    return n.bit_length() - 1


def fields(mn):
    m = re.search(r"seg([2-8])", mn)
    return int(m.group(1)) if m else 1


def legal_cell(mn, sew, lg):
    """Whether vector instruction `mn` may execute under e<sew>, LMUL = 2**lg on the X60.

    The rules of RVV 1.0 that depend on the vtype: every register group has an EMUL in [1/8, 8]; a
    segment access spans at most 8 registers (fields * max(EMUL, 1)); a widening or narrowing group
    (2*SEW) needs 2*SEW <= ELEN and 2*LMUL <= 8; floating-point elements are 16 (Zvfh), 32 or 64 bits.
    Under any other vtype the hart raises an illegal-instruction exception; the cost model then charges
    the instruction's worst figure (x60_cost_model.cc), so these cells stay empty.
    """
    if sew > ELEN * 2.0 ** lg:
        return False
    m = EEW_MEMORY.match(mn)
    if m:
        elg = lg + log2(int(m.group(1))) - log2(sew)
        return -3 <= elg <= 3 and fields(mn) * 2 ** max(elg, 0) <= 8
    m = INDEXED.match(mn)
    if m:  # data: SEW at LMUL; index: EEW at EEW/SEW * LMUL
        ilg = lg + log2(int(m.group(4))) - log2(sew)
        return -3 <= ilg <= 3 and fields(mn) * 2 ** max(lg, 0) <= 8
    if WHOLE_LOAD.match(mn) or WHOLE_STORE.match(mn) or WHOLE_MOVE.match(mn) or mn in ("vlm.v", "vsm.v"):
        return True  # whole registers and masks: independent of SEW and LMUL
    m = EXTEND.match(mn)
    if m:
        k = int(m.group(1))
        return sew // k >= 8 and lg - log2(k) >= -3
    if mn == "vrgatherei16.vv":
        return -3 <= lg + log2(16) - log2(sew) <= 3
    if WIDENING_REDUCTION.match(mn):
        if 2 * sew > ELEN:
            return False
    elif WIDENING.match(mn):
        if 2 * sew > ELEN or lg + 1 > 3:
            return False
    if INT_SEW_CONVERSION.match(mn):
        return 2 * sew in FP_SEWS
    if mn.startswith(("vfw", "vfncvt.")):
        return sew in FP_SEWS and 2 * sew in FP_SEWS
    if mn.startswith(("vf", "vmf")) and mn != "vfirst.m":
        return sew in FP_SEWS
    return True


def build(data_path, kernels_path, mca):
    with open(data_path, encoding="utf-8") as fh:
        raw = fh.read()
    measured = json.loads(raw)
    vtypes = legal_vtypes()
    rejected = {}

    # ---- vector, measured rows
    rows = pick_rows(measured["tblMaa"])
    vector = {}
    for mn, row in sorted(rows.items()):
        if not mn.startswith("v"):
            continue
        for tbl in MEASURED_VLMAX_TABLES:
            rt = filled(measured[tbl].get(row, {}))
            if rt:
                break
        else:
            continue
        entry = {"source": tbl, "row": row, "rthroughput": rt}
        masked = filled(measured[tbl].get(row + ",v0.t", {}))
        if masked:
            entry["masked_rthroughput"] = masked
        vector[mn] = entry
    for mn, ops in llvm_only_vector().items():
        assert mn not in vector, mn
        vector[mn] = {"source": "llvm", "row": f"{mn} {ops}"}

    # Every legal cell gets a figure: measured, LLVM's, or derived from a measured neighbour.
    by_key = {k: (sew, lg) for k, sew, _, lg in vtypes}
    legal = {mn: {k for k, sew, _, lg in vtypes if legal_cell(mn, sew, lg)} for mn in vector}
    for mn, e in vector.items():
        stray = (set(e.get("rthroughput", {})) | set(e.get("masked_rthroughput", {}))) - legal[mn]
        if stray:
            raise SystemExit(f"error: {mn} was measured under {sorted(stray)}, which legal_cell() rejects")

    # Which (entry, vtype) cells LLVM is asked about, grouped by the vtype of the llvm-mca run.
    runs = {}
    for mn, e in sorted(vector.items()):
        for key in sorted(legal[mn]):
            qkey, text = llvm_query(mn, mca_text(e["row"]), *by_key[key])
            runs.setdefault(qkey, []).append((mn, key, text))

    units = {mn: Counter() for mn in vector}
    for qkey, cells in sorted(runs.items(), key=lambda kv: vtype_order(kv[0])):
        sew, lg = by_key[qkey]
        prefix = [f"vsetvli t0, a0, e{sew}, {LMUL_NAME[lg]}, ta, ma"]
        figs = run_mca(mca, prefix, [text for _, _, text in cells], rejected)
        for (mn, key, _), f in zip(cells, figs):
            if f is None:
                continue
            e = vector[mn]
            e.setdefault("latency", {})[key] = f["latency"]
            units[mn][f["unit"]] += 1
            if e["source"] == "llvm":
                e.setdefault("rthroughput", {})[key] = f["rthroughput"]

    dropped = [mn for mn, e in vector.items() if e["source"] == "llvm" and not units[mn]]
    for mn in dropped:
        del vector[mn]  # LLVM cannot cost it at all; listed in not_modelled
    derived = derive_vector(vector, legal, by_key)
    for mn, e in vector.items():
        if not units[mn]:
            e["unit"] = "none"
        else:
            e["unit"] = max(units[mn], key=lambda u: (units[mn][u], -UNIT_PRIORITY.index(u)))
            if len(units[mn]) > 1:
                print(f"note: {mn}: LLVM units differ across vtypes {dict(units[mn])}", file=sys.stderr)
        for fld in ("rthroughput", "masked_rthroughput", "latency"):
            if fld in e:
                e[fld] = {k: num(v) for k, v in e[fld].items()}
    for mn, e in vector.items():
        if mn.startswith(VECTOR_COMPARE_PREFIXES):
            for key, lat in e.get("latency", {}).items():
                rt = e.get("rthroughput", {}).get(key)
                if rt is not None and lat is not None:
                    e["latency"][key] = num(max(rt, min(lat, VECTOR_COMPARE_MIN_LATENCY)))
            e["latency_source"] = "measured_loops"

    # ---- scalar
    asm = scalar_asm()
    names = sorted(asm)
    figs = run_mca(mca, [], [asm[n] for n in names], rejected)
    scalar = {}
    for n, f in zip(names, figs):
        if f is None:
            continue
        scalar[n] = {"unit": f["unit"], "latency": num(f["latency"]),
                     "rthroughput": num(f["rthroughput"]), "measured": False}
    for mn, row in rows.items():
        if mn.startswith("v") or mn not in scalar:
            continue
        cells = filled(measured[SCALAR_MEASURED_TABLE][row])
        if not cells:
            continue
        best = min(sorted(cells), key=lambda k: cells[k])
        scalar[mn].update({"rthroughput": num(cells[best]), "measured": True,
                           "source": SCALAR_MEASURED_TABLE, "row": row, "vtype": best})
        # A measured figure is the throughput of a stream of independent copies. The scoreboard keeps
        # the unit busy for rthroughput; on ieu_any (either integer pipe) two copies would overlap and
        # halve a figure of a cycle or more (mul: 3 measured, 1.5 modelled). Such an instruction is
        # charged to one pipe, ieu_b (LLVM's model also loads ieu_a with branches and divisions). add's
        # 0.51 is dual issue (0.5, which the scoreboard's issue width already gives) plus loop overhead.
        if scalar[mn]["unit"] == "ieu_any" and cells[best] >= 1:
            scalar[mn]["unit"] = "ieu_b"
    # Instructions LLVM models like a measured one (the same multiplier) are never cheaper than it.
    for rep, siblings in SCALAR_SIBLINGS.items():
        r = scalar[rep]
        assert r["measured"], rep
        for sib in siblings:
            e = scalar[sib]
            if e["rthroughput"] < r["rthroughput"]:
                e.update({"rthroughput": r["rthroughput"], "unit": r["unit"], "measured": True,
                          "derived": f"sibling:{rep}"})

    for mn in SCALAR_INT_LOADS:
        if mn in scalar:
            scalar[mn].update({"latency": SCALAR_LOAD_USE_LATENCY, "latency_source": "measured_loops"})

    # vset instructions: the stall measured in the memset kernels, not LLVM's figure.
    vset, vset_record = derive_vset(kernels_path)
    for mn in VSET_MNEMONICS:
        e = dict(vset)
        if mn != "vsetvli":
            e["derived"] = "sibling:vsetvli"
        scalar[mn] = e

    not_modelled = sorted(n for n in names if n not in scalar) + \
        sorted(dropped + [mn for mn, e in vector.items() if "latency" not in e])
    for line, why in sorted(rejected.items()):
        print(f"note: llvm-mca rejects {line!r}: {why}", file=sys.stderr)

    sources = {
        "measured": {
            "what": "vector rthroughput and masked_rthroughput; scalar rthroughput where measured is true and "
                    "source names a table of this file (source memset: see measured_kernels)",
            "origin": "rvv-bench (camel-cdr/rvv-bench-results, spacemit_x60): SpacemiT X60 core of the "
                      "SpacemiT K1, VLEN=256, reciprocal throughput in cycles, independent instructions unrolled",
            "file": "shared/data/x60/rvv-bench-x60-throughput.json",
            "sha256": hashlib.sha256(raw.encode("utf-8")).hexdigest(),
            "tables": "vl=VLMAX: tblMaa (tail/mask agnostic) for integer rows, tblMau (tail agnostic, mask "
                      "undisturbed) for floating-point rows; an entry's source names the table it used",
            "masked_row": "row + ',v0.t' in the same table",
            "strided": "vlse/vsse/vlsseg/vssseg use the t3 stride row (positive stride); the x0 (zero) "
                       "and t1=-1 (negative) stride rows are not used",
            "scalar": "smallest figure over the row's vtype columns of tblMaa (cell named by vtype); a "
                      "figure of a cycle or more on either integer pipe is charged to ieu_b alone, so that "
                      "a stream of copies reproduces it",
        },
        "measured_kernels": vset_record,
        "measured_loops": {
            "what": "latencies of entries with latency_source: measured_loops: the integer loads' (scalar) "
                    "and the vector compares' (max(rthroughput, min(LLVM latency, "
                    f"{VECTOR_COMPARE_MIN_LATENCY})))",
            "figure": SCALAR_LOAD_USE_LATENCY,
            "origin": "rvv-bench utf8_count scalar (5.88 cycles/byte) and LUT4 scalar (6.13) on the X60, "
                      "load-use chains costed by the scoreboard with its issue groups; utf8_count's vector "
                      "loops (vle8; vmsgt.vx; vcpop.m) at the sum of their occupancies",
        },
        "derived": {
            "what": "vector cells listed in an entry's derived / masked_derived, scalar entries with derived: "
                    "the figure of the measured neighbour named there, never below it",
            "rules": "same_data: same EEW and EMUL (loads/stores with an explicit EEW under another SEW); "
                     "same_move: vmv<n>r under LMUL n; negated_fma / twice_half / narrower_sew: negated "
                     "multiply-adds the measurement skipped; next_sew: int8<->fp16 conversions from e16; "
                     "floor: LLVM figure raised to indexed >= strided, vl<n>re >= vle, vs<n>r >= vse8, "
                     "vssra >= vssrl; sibling: mulh/mulhsu/mulhu/mulw >= mul, vsetivli/vsetvl = vsetvli",
            "cells": derived,
            "illegal": "vtypes where the instruction traps (EMUL outside [1/8, 8], more than 8 segment "
                       "registers, widening at m8 or e64, floating point at e8) have no cell",
        },
        "llvm": {
            "what": "vector latency and unit (a floored cell takes its neighbour's latency when larger); vector "
                    "rthroughput where source is llvm and the cell is not derived; scalar unit, latency, and "
                    "rthroughput where measured is false; the unit of vsetvli/vsetivli/vsetvl",
            "model": "LLVM SpacemiT X60 scheduling model (llvm/lib/Target/RISCV/RISCVSchedSpacemitX60.td)",
            "tool": "llvm-mca-22 " + " ".join(MCA_FLAGS) + ", after vsetvli t0, a0, e<SEW>, <LMUL>, ta, ma",
            "equivalent_forms": "asked under e<EEW>,<EMUL>: vector loads/stores with an explicit EEW (LLVM "
                                "charges segment ones a worst case when EEW != SEW); asked with index EEW = "
                                "SEW: indexed (segment) loads/stores (LLVM is inconsistent off that diagonal)",
            "version": mca_version(mca),
            "not_modelled": not_modelled,
        },
        "generator": "evaluator/cost_model/make_x60_table.py",
    }
    return {"format": FORMAT_VERSION, "sources": sources, "scalar": scalar, "vector": vector}


def dump(table, generated):
    def line(v):
        return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True)

    sources = dict(table["sources"], generated=generated)
    out = ["{", f'"format":{table["format"]},', '"scalar":{']
    sc = sorted(table["scalar"].items())
    out += [f"{line(k)}:{line(v)}" + ("," if i + 1 < len(sc) else "") for i, (k, v) in enumerate(sc)]
    out += ["},", '"sources":{']
    so = sorted(sources.items())
    out += [f"{line(k)}:{line(v)}" + ("," if i + 1 < len(so) else "") for i, (k, v) in enumerate(so)]
    out += ["},", '"vector":{']
    ve = sorted(table["vector"].items())
    out += [f"{line(k)}:{line(v)}" + ("," if i + 1 < len(ve) else "") for i, (k, v) in enumerate(ve)]
    out += ["}", "}"]
    return "\n".join(out) + "\n"


def generation_date(out_path, table):
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).date().isoformat()
    try:
        with open(out_path, encoding="utf-8") as fh:
            old = json.load(fh)
        old_date = old["sources"]["generated"]
        if dump(table, old_date) == dump(old_as_table(old), old_date):
            return old_date
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return datetime.datetime.now(datetime.timezone.utc).date().isoformat()


def old_as_table(old):
    src = dict(old.get("sources", {}))
    src.pop("generated", None)
    return {"format": old.get("format"), "sources": src, "scalar": old.get("scalar", {}),
            "vector": old.get("vector", {})}


def compare(table, mca, mnemonics, vtype_keys):
    """Measured vs LLVM rthroughput side by side (LLVM figures freshly computed)."""
    vt = {k: (sew, lg) for k, sew, _, lg in legal_vtypes()}
    print(f"{'mnemonic':<14}{'vtype':<7}{'measured':>10}{'llvm rthr':>11}{'llvm lat':>10}  note")
    for mn in mnemonics:
        e = table["vector"].get(mn)
        if e is None:
            print(f"{mn:<14}not in table")
            continue
        for key in vtype_keys:
            qkey, text = llvm_query(mn, mca_text(e["row"]), *vt[key])
            qsew, qlg = vt[qkey]
            f = run_mca_once(mca, [f"vsetvli t0, a0, e{qsew}, {LMUL_NAME[qlg]}, ta, ma", text])[1]
            meas = e["rthroughput"].get(key) if e["source"] != "llvm" else None
            note = ""
            if key in e.get("derived", {}):
                note = f"table: {e['rthroughput'][key]} ({e['derived'][key]}) "
                meas = None
            if meas is not None and abs(f["rthroughput"] - meas) > 0.2 * meas:
                note = f"LLVM/measured = {f['rthroughput'] / meas:.2f}"
            ms = f"{meas:.2f}" if meas is not None else "-"
            print(f"{mn:<14}{key:<7}{ms:>10}{f['rthroughput']:>11.2f}{f['latency']:>10.0f}  {note}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=os.path.join(repo, "..", "shared", "data", "x60",
                                                   "rvv-bench-x60-throughput.json"),
                    help="measured rvv-bench JSON (default: ../shared/data/x60/ beside the repository)")
    ap.add_argument("--kernels", default=os.path.join(repo, "..", "shared", "data", "x60",
                                                      "rvv-bench-x60-kernels.json"),
                    help="measured rvv-bench memcpy/memset kernels JSON (the vsetvli figures)")
    ap.add_argument("--out", default=os.path.join(here, "x60_table.json"))
    ap.add_argument("--llvm-mca", default="llvm-mca-22")
    ap.add_argument("--check", action="store_true", help="exit 1 when the table on disk is out of date")
    ap.add_argument("--compare", help="comma-separated vector mnemonics to compare with LLVM")
    ap.add_argument("--vtypes", default="e32m1,e32m2,e32m4,e32m8")
    args = ap.parse_args()

    if not os.path.isfile(args.data):
        sys.exit(f"error: measured table {args.data} not found; pass --data")
    if not os.path.isfile(args.kernels):
        sys.exit(f"error: measured kernels {args.kernels} not found; pass --kernels")
    table = build(args.data, args.kernels, args.llvm_mca)
    if args.compare:
        compare(table, args.llvm_mca, args.compare.split(","), args.vtypes.split(","))
        return
    text = dump(table, generation_date(args.out, table))
    if args.check:
        try:
            with open(args.out, encoding="utf-8") as fh:
                same = fh.read() == text
        except OSError:
            same = False
        print("up to date" if same else f"{args.out} is out of date; rerun without --check")
        sys.exit(0 if same else 1)
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"wrote {args.out}: {len(table['vector'])} vector, {len(table['scalar'])} scalar entries, "
          f"{len(text)} bytes")


if __name__ == "__main__":
    main()
