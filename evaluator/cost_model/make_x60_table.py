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
    the measured table labels it. Only filled cells are copied; nothing is interpolated.
    Strided loads/stores (vlse*, vsse*, vlsseg*, vssseg*) were measured with three strides: register
    t3 (an ordinary positive stride), x0 (zero stride, every element from one address) and t1 = -1
    (negative stride). We take the t3 row as representative; the other two are not used.
vector.<mnemonic>.latency (cycles, per vtype)
    LLVM's SpacemiT X60 scheduling model (llvm/lib/Target/RISCV/RISCVSchedSpacemitX60.td), read through
    llvm-mca with a leading `vsetvli t0, a0, e<SEW>, <LMUL>, ta, ma` so the model sees SEW and LMUL.
    Written only for the vtypes that have a throughput figure in the same entry. Two kinds of memory
    instruction are asked in an equivalent form because LLVM's model charges a worst case for some of
    them otherwise (see llvm_query()): loads/stores with an explicit EEW (vle, vlse, vlseg, vlsseg, vle*ff
    and their stores) under e<EEW>, <EMUL> (same VLMAX, same register group); indexed ones as the same
    instruction with index EEW = SEW under the same vtype (same element count).
vector.<mnemonic>.unit
    The resource LLVM's model charges (SMX60_VFP -> vfp, SMX60_VIEU -> vieu, SMX60_VLS -> vls).
vector entries with "source": "llvm"
    Instructions the measurement does not cover (vssra, indexed loads/stores, whole-register
    loads/stores): rthroughput is LLVM's RThroughput, for every legal vtype (indexed: every vtype
    whose index EMUL is legal).
scalar.<mnemonic>
    unit, latency and rthroughput from LLVM's model (one llvm-mca run, no vsetvli needed). Where the
    measured table has a scalar row (add, mul) the rthroughput is the measured one ("measured": true,
    with "source", "row" and "vtype" naming the cell): the smallest figure over the row's columns of
    tblMaa, because the scalar rows do not depend on vtype and the spread between columns is loop
    overhead of the benchmark. Instructions LLVM's model cannot schedule (it has no scheduling class
    for them) are left out and listed in sources.llvm.not_modelled; the caller falls back.

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
    ("t0, (t1)", ["lr.w", "lr.d"]),
    ("t0, t1, (t2)", ["sc.w", "sc.d"] + [f"amo{op}.{w}" for op in
                                         ("swap", "add", "xor", "and", "or", "min", "max", "minu", "maxu")
                                         for w in ("w", "d")]),
    ("t0, fflags, t1", ["csrrw", "csrrs", "csrrc"]),
    ("t0, fflags, 3", ["csrrwi", "csrrsi", "csrrci"]),
    ("", ["ecall", "ebreak", "fence", "fence.i"]),
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


# Vector instructions the measurement does not cover; their throughput comes from LLVM.
def llvm_only_vector():
    """mnemonic -> (assembler text, legality predicate over (sew, lmul_log2))."""
    out = {}
    anyv = lambda sew, lg: True  # noqa: E731
    for s in ("vv", "vx", "vi"):
        out[f"vssra.{s}"] = ({"vv": "v8,v16,v24", "vx": "v8,v16,t0", "vi": "v8,v16,13"}[s], anyv)
    for eew in SEWS:
        # index EMUL = EEW / SEW * LMUL must lie in [1/8, 8]
        def ok(sew, lg, eew=eew):
            emul = eew / sew * 2.0 ** lg
            return 0.125 <= emul <= 8
        for kind in ("vluxei", "vloxei", "vsuxei", "vsoxei"):
            out[f"{kind}{eew}.v"] = ("v8,(t0),v16", ok)
        for nreg in (1, 2, 4, 8):
            out[f"vl{nreg}re{eew}.v"] = ("v8,(t0)", anyv)
    for nreg in (1, 2, 4, 8):
        out[f"vs{nreg}r.v"] = ("v8,(t0)", anyv)
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
INDEXED = re.compile(r"^v[ls][ou]xei(8|16|32|64)\.v$")


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
        return vtype_key_of(sew, lg), text.replace(f"ei{m.group(1)}.v", f"ei{sew}.v", 1)
    return vtype_key_of(sew, lg), text


def build(data_path, mca):
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
    llvm_only = llvm_only_vector()
    for mn, (ops, ok) in llvm_only.items():
        assert mn not in vector, mn
        vector[mn] = {"source": "llvm", "row": f"{mn} {ops}",
                      "legal": {k for k, sew, _, lg in vtypes if ok(sew, lg)}}

    # Which (entry, vtype) cells LLVM is asked about, grouped by the vtype of the llvm-mca run.
    by_key = {k: (sew, lg) for k, sew, _, lg in vtypes}
    runs = {}
    for mn, e in sorted(vector.items()):
        if e["source"] == "llvm":
            keys = sorted(e["legal"])
        else:
            keys = sorted(set(e["rthroughput"]) | set(e.get("masked_rthroughput", {})))
        for key in keys:
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

    for mn, e in list(vector.items()):
        e.pop("legal", None)
        if not units[mn]:
            if e["source"] == "llvm":
                del vector[mn]
                continue
            e["unit"] = "none"
        else:
            e["unit"] = max(units[mn], key=lambda u: (units[mn][u], -UNIT_PRIORITY.index(u)))
            if len(units[mn]) > 1:
                print(f"note: {mn}: LLVM units differ across vtypes {dict(units[mn])}", file=sys.stderr)
        for fld in ("rthroughput", "masked_rthroughput", "latency"):
            if fld in e:
                e[fld] = {k: num(v) for k, v in e[fld].items()}

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

    not_modelled = sorted(n for n in names if n not in scalar) + \
        sorted(mn for mn, e in vector.items() if "latency" not in e)
    for line, why in sorted(rejected.items()):
        print(f"note: llvm-mca rejects {line!r}: {why}", file=sys.stderr)

    sources = {
        "measured": {
            "what": "vector rthroughput and masked_rthroughput; scalar rthroughput where measured is true",
            "origin": "rvv-bench (camel-cdr/rvv-bench-results, spacemit_x60): SpacemiT X60 core of the "
                      "SpacemiT K1, VLEN=256, reciprocal throughput in cycles, independent instructions unrolled",
            "file": "shared/data/x60/rvv-bench-x60-throughput.json",
            "sha256": hashlib.sha256(raw.encode("utf-8")).hexdigest(),
            "tables": "vl=VLMAX: tblMaa (tail/mask agnostic) for integer rows, tblMau (tail agnostic, mask "
                      "undisturbed) for floating-point rows; an entry's source names the table it used",
            "masked_row": "row + ',v0.t' in the same table",
            "strided": "vlse/vsse/vlsseg/vssseg use the t3 stride row (positive stride); the x0 (zero) "
                       "and t1=-1 (negative) stride rows are not used",
            "scalar": "smallest figure over the row's vtype columns of tblMaa (cell named by vtype)",
        },
        "llvm": {
            "what": "vector latency and unit; vector rthroughput where source is llvm; scalar unit, latency, "
                    "and rthroughput where measured is false",
            "model": "LLVM SpacemiT X60 scheduling model (llvm/lib/Target/RISCV/RISCVSchedSpacemitX60.td)",
            "tool": "llvm-mca-22 " + " ".join(MCA_FLAGS) + ", after vsetvli t0, a0, e<SEW>, <LMUL>, ta, ma",
            "equivalent_forms": "asked under e<EEW>,<EMUL>: vector loads/stores with an explicit EEW (LLVM "
                                "charges segment ones a worst case when EEW != SEW); asked with index EEW = "
                                "SEW: indexed loads/stores (LLVM is inconsistent off that diagonal)",
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
    ap.add_argument("--out", default=os.path.join(here, "x60_table.json"))
    ap.add_argument("--llvm-mca", default="llvm-mca-22")
    ap.add_argument("--check", action="store_true", help="exit 1 when the table on disk is out of date")
    ap.add_argument("--compare", help="comma-separated vector mnemonics to compare with LLVM")
    ap.add_argument("--vtypes", default="e32m1,e32m2,e32m4,e32m8")
    args = ap.parse_args()

    if not os.path.isfile(args.data):
        sys.exit(f"error: measured table {args.data} not found; pass --data")
    table = build(args.data, args.llvm_mca)
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
