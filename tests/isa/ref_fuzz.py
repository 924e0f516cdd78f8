#!/usr/bin/env python3
"""Differential fuzzer of the CA against the reference model ref_ca.py (docs/isa.md, "Reference model").

Each seed makes a random straight-line program of LIW bundles with forward branches, self-loops, calls and
jumps through registers, and now and then a faulting bundle at its end. The program is run on one cell of
the emulator (`iwarp debug`: registers, memory, the clock, bypass stalls) and on the reference; any
difference is a discrepancy, reported with the seed and the program kept to reproduce it.

  ref_fuzz.py IWARP --seeds 0-299          a fixed range (the test suite's budget)
  ref_fuzz.py IWARP --seconds 600          as many seeds as fit, from a random start (scripts/fuzz.sh)
  ref_fuzz.py IWARP --seeds 17 --show      print one seed's program and both results
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref_ca  # noqa: E402
from ref_ca import OPS, Op, RD_PAIR, RS_PAIR, LOADS, STORES, MASK  # noqa: E402

TEXT_END = 0x2000          # the text is padded to here (`.align 4096`), so the data's place is known
DATA_BASE = 0x2000
DATA_BYTES = 256
POOL = list(range(3, 19))  # registers random operations use: dependences between bundles are frequent
EVEN_POOL = [r for r in POOL if r % 2 == 0]
JUMP_REG = 23              # holds `la` targets for jr/callr only, so no value depends on the layout
LOOP_REG = 20
UNIT_CAP = {"alu": 2, "fpa": 1, "fpm": 1, "mem": 2, "cr": 1, "ctrl": 1, "none": 8}
# Operations the fuzzer leaves out: they need the network (gates), events or a second cell.
NOT_FUZZED = {"wfe", "rfe"}

INTS = [0, 1, 2, 3, 4, 7, 31, 32, 33, 63, 64, 0xFF, 0x80, 0x7F, 0xFFFF, 0x8000, 0x7FFF, 0x7FFFFFFF,
        0x80000000, 0xFFFFFFFF, 0xFFFFFFFE, 0x80000001, 100, 1000, 0x12345678]
FLOATS = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x3FC00000, 0xC0490FDB, 0x7F800000, 0xFF800000,
          0x7FC00000, 0x7FA00001, 0xFFC00001, 0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0x4F000000, 0xCF000000,
          0x4EFFFFFF, 0xCF000001, 0x3F000000, 0x4B000001, 0x33800000]
DOUBLES = [0x0, 1 << 63, 0x3FF0000000000000, 0xBFF8000000000000, 0x7FF0000000000000, 0xFFF0000000000000,
           0x7FF8000000000000, 0x7FF4000000000001, 0x0000000000000001, 0x7FEFFFFFFFFFFFFF,
           0x41E0000000000000, 0xC1E0000000000000, 0x41DFFFFFFFC00000, 0xC1E0000000200000,
           0x3FE0000000000000, 0x36A0000000000000, 0x47EFFFFFE0000000, 0x3810000000000000]
FAULTS = ["div0", "misaligned", "null", "past_end", "text", "trap", "bad_cr", "bad_target"]


def rand_word(rng):
    k = rng.random()
    if k < 0.4:
        return rng.choice(INTS)
    if k < 0.6:
        return rng.choice(FLOATS)
    if k < 0.8:
        return rng.getrandbits(32)
    return rng.randrange(-64, 64) & MASK


class Gen:
    """Makes one program, running the reference alongside so that addresses and divisors can be chosen
    from the values registers hold when the bundle issues."""

    def __init__(self, seed, max_bundles):
        self.rng = random.Random(seed)
        self.max_bundles = max_bundles
        self.bundles = []
        self.data = bytearray()
        for _ in range(DATA_BYTES // 8):
            k = self.rng.random()
            if k < 0.25:  # a pointer into the data, so that `[rX]` and loaded addresses occur
                v = DATA_BASE + 8 * self.rng.randrange(DATA_BYTES // 8)
            elif k < 0.5:
                v = self.rng.choice(DOUBLES)
            else:
                v = rand_word(self.rng) | (rand_word(self.rng) << 32)
            self.data += v.to_bytes(8, "little")
        self.machine, self.sets = machine_variant(self.rng)
        self.cpu = ref_ca.Cpu(self.bundles, TEXT_END, DATA_BASE, self.data, self.machine)
        self.targets = set()
        # A few registers in some programs, all of them in others: the fewer, the more bundles read what
        # the one before wrote (bypass stalls).
        n = self.rng.choice([4, 6, 8, 16])
        self.pool = self.rng.sample(POOL, n)
        self.even_pool = [r for r in self.pool if r % 2 == 0] or [4]

    # -- operands ----------------------------------------------------------------------------------------
    def reg(self):
        return self.rng.choice(self.pool)

    def src(self):
        k = self.rng.random()
        return 0 if k < 0.05 else (1 if k < 0.08 else self.reg())

    def val(self, r):
        return self.cpu.get(r)

    def address(self, size, want_fault=None):
        """(rs1, rs2, imm) of an access of size bytes: a register form when the registers happen to point
        into the data, else rs1 plus the displacement that reaches a chosen address."""
        rng = self.rng
        if want_fault is None:
            target = DATA_BASE + size * rng.randrange(DATA_BYTES // size)
            forms = [(r, 0, None) for r in POOL if self.val(r) == target]
            forms += [(r, s, None) for r in POOL for s in POOL
                      if (self.val(r) + self.val(s)) & MASK == target]
            if forms and rng.random() < 0.7:
                return rng.choice(forms)
            if rng.random() < 0.1:
                return 0, 0, target
        else:
            if want_fault == "misaligned":
                target = DATA_BASE + size * rng.randrange(DATA_BYTES // size) + rng.randrange(1, max(size, 2))
            elif want_fault == "null":
                target = rng.randrange(0, 0x1000 // size) * size
            elif want_fault == "past_end":
                target = (rng.choice([512 * 1024, 0x7FFFFFF0, 0xFFFFFFF0]) // size) * size
            else:
                target = 0x1000 + size * rng.randrange(0x400 // size)
        base = self.src()
        return base, 0, (target - self.val(base)) & MASK

    # -- operations --------------------------------------------------------------------------------------
    def op(self, kind, fault=None):
        rng, R = self.rng, self.reg
        if kind == "int":
            m = rng.choice("add sub and or xor nor sll srl sra slt sltu seq sne mul mulh mulhu".split()
                           + ["div", "divu", "rem", "remu"] * 1)
            a = self.src()
            if rng.random() < 0.4:
                imm = rng.choice(INTS + [rng.getrandbits(32)])
                if m in ("div", "divu", "rem", "remu") and imm == 0 and fault != "div0":
                    imm = 7
                if fault == "div0":
                    imm = 0
                return Op(m, R(), a, 0, imm)
            b = self.src()
            if m in ("div", "divu", "rem", "remu"):
                if fault == "div0":
                    b = 0
                elif self.val(b) == 0:
                    return Op(m, R(), a, 0, rng.choice([1, 3, 0xFFFFFFFF, 0x80000000]))
            return Op(m, R(), a, b)
        if kind == "fs":
            m = rng.choice("fadd.s fsub.s fmul.s fdiv.s feq.s flt.s fle.s".split())
            if rng.random() < 0.3:
                return Op(m, R(), self.src(), 0, rng.choice(FLOATS + [rng.getrandbits(32)]))
            return Op(m, R(), self.src(), self.src())
        if kind == "fd":
            m = rng.choice("fadd.d fsub.d fmul.d fdiv.d feq.d flt.d fle.d".split())
            rd = rng.choice(self.even_pool) if m in RD_PAIR else R()
            return Op(m, rd, rng.choice(self.even_pool), rng.choice(self.even_pool))
        if kind == "rr":
            m = rng.choice("fneg.s fabs.s fneg.d fabs.d fmov.d cvt.s.w cvt.w.s cvt.d.w cvt.w.d cvt.d.s "
                           "cvt.s.d".split())
            rd = rng.choice(self.even_pool) if m in RD_PAIR else R()
            rs = rng.choice(self.even_pool) if m in RS_PAIR else self.src()
            return Op(m, rd, rs)
        if kind == "ld":
            m = rng.choice(sorted(LOADS))
            size = {"ldw": 4, "ldh": 2, "ldhu": 2, "ldb": 1, "ldbu": 1, "ldd": 8}[m]
            rs1, rs2, imm = self.address(size, fault)
            return Op(m, rng.choice(self.even_pool) if m == "ldd" else R(), rs1, rs2, imm)
        if kind == "st":
            m = rng.choice(sorted(STORES))
            size = {"stw": 4, "sth": 2, "stb": 1, "std": 8}[m]
            rs1, rs2, imm = self.address(size, fault)
            rd = rng.choice(self.even_pool) if m == "std" else rng.choice(self.pool + [0, 1])
            return Op(m, rd, rs1, rs2, imm)
        if kind == "cr":
            if fault == "bad_cr":
                return Op("rdcr", R(), 0, 0, rng.choice([0x0B, 0x14, 0x27, 0xFF, 0x12345]))
            if rng.random() < 0.3:
                return Op("wrcr", self.reg(), 0, 0, rng.choice(sorted(ref_ca.CR_WRITE_RW)))
            return Op("rdcr", R(), 0, 0, rng.choice(sorted(ref_ca.CR_READ)))
        if kind == "nop":
            return Op("nop")
        raise AssertionError(kind)

    def fill(self, bundle, n, fault_kind=None):
        """Adds up to n random operations that fit the bundle's units and write no register twice."""
        kinds = ["int"] * 6 + ["fs"] * 2 + ["fd"] + ["rr"] * 2 + ["ld"] * 3 + ["st"] * 2 + ["cr", "nop"]
        for _ in range(n * 4):
            if len(bundle) >= n:
                break
            op = self.op(self.rng.choice(kinds))
            if fits(bundle, op):
                bundle.append(op)

    # -- the program -------------------------------------------------------------------------------------
    def emit(self, bundle, jump_to=None):
        """Appends a bundle and runs it on the reference; returns the index of the bundle run next, or the
        Result when the cell stopped."""
        self.bundles.append(bundle)
        idx = len(self.bundles) - 1
        nxt = self.cpu.step(idx, jump_to)
        while nxt == idx:  # a self-loop: run it to its end
            nxt = self.cpu.step(idx, jump_to)
        return nxt

    def dead(self, n):
        for _ in range(n):
            b = []
            if self.rng.random() < 0.3:
                b.append(Op("trap", imm=0xDEAD))
            else:
                self.fill(b, self.rng.randint(1, 3))
            self.bundles.append(b)

    def generate(self):
        rng = self.rng
        # Prologue: every pool register gets a value, some of them doubles in pairs.
        for r in POOL:
            self.emit([Op("or", r, 0, 0, rand_word(rng))])
        fault = rng.choice(FAULTS) if rng.random() < 0.2 else None
        while len(self.bundles) < self.max_bundles or max(self.targets, default=0) >= len(self.bundles):
            b = []
            self.fill(b, rng.choice([1, 1, 2, 2, 3, 4, 5, 8]))
            k = rng.random()
            idx = len(self.bundles)
            if k < 0.12 and fits(b, Op("beq")):
                m = rng.choice("beq bne blt bge bltu bgeu".split())
                d = rng.randrange(4)
                a, c = self.src(), self.src()
                if rng.random() < 0.3:
                    c = a  # equal operands, so that beq/bge/bgeu are taken too
                b.append(Op(m, 0, a, c, target=idx + 1 + d))
                self.targets.add(idx + 1 + d)
                nxt = self.emit(b)
                if nxt == idx + 1 + d and d:
                    self.dead(d)
                continue
            if k < 0.17 and fits(b, Op("loop")):
                # A self-loop of 1..4 turns, its count set just before.
                self.emit([Op("or", LOOP_REG, 0, 0, rng.randint(1, 4))])
                b = [o for o in b if LOOP_REG not in ref_ca.writes_of(o)]
                b.append(Op("loop", LOOP_REG, target=len(self.bundles)))
                self.emit(b)
                continue
            if k < 0.22 and fits(b, Op("jmp")):
                m = rng.choice(["jmp", "call"])
                if m == "call":
                    b = [o for o in b if 1 not in ref_ca.writes_of(o)]
                d = rng.randrange(3)
                b.append(Op(m, target=idx + 1 + d))
                self.targets.add(idx + 1 + d)
                self.emit(b)
                self.dead(d)
                continue
            if k < 0.26 and fits(b, Op("jr")):
                d = rng.randrange(3)
                self.emit([Op("or", JUMP_REG, 0, 0, None, target=idx + 2 + d)])
                m = rng.choice(["jr", "callr"])
                if m == "callr":
                    b = [o for o in b if 1 not in ref_ca.writes_of(o)]
                b.append(Op(m, 0, JUMP_REG))
                self.targets.add(idx + 2 + d)
                self.emit(b, jump_to=idx + 2 + d)
                self.dead(d)
                continue
            self.emit(b)
        if fault:
            self.fault_bundle(fault)
        self.bundles.append([Op("halt")])
        return fault

    def fault_bundle(self, fault):
        rng = self.rng
        if fault == "div0":
            f = self.op("int", fault)
            f.mnem = rng.choice(["div", "divu", "rem", "remu"])
        elif fault in ("misaligned", "null", "past_end"):
            f = self.op(rng.choice(["ld", "st"]), fault)
            while fault == "misaligned" and f.mnem in ("ldb", "ldbu", "stb"):
                f = self.op(rng.choice(["ld", "st"]), fault)
        elif fault == "text":
            f = self.op("st", fault)
        elif fault == "trap":
            self.bundles.append([Op("trap", imm=rng.randrange(1 << 32))])
            return
        elif fault == "bad_cr":
            f = self.op("cr", fault)
        else:  # a jump into the middle of a two-word operation: the `la` itself, plus 4
            here = len(self.bundles)
            self.bundles.append([Op("or", JUMP_REG, 0, 0, None, target=here, target_offset=4)])
            self.bundles.append([Op("jr", 0, JUMP_REG)])
            return
        b = [f]
        self.fill(b, rng.randint(1, 5))
        self.bundles.append(b)


def machine_variant(rng):
    """Half the programs run on the default machine; the others without bypass stalls, with one delay,
    or with other clocks for some timing classes (docs/machine.md keys), as `--set` options."""
    m, sets = ref_ca.Machine(), []
    k = rng.random()
    if k < 0.5:
        return m, sets
    if k < 0.75:
        m.bypass_load, m.bypass_mem_operand = rng.choice([(0, 0), (0, 1), (1, 0)])
        sets = [f"bypass.load={m.bypass_load}", f"bypass.mem_operand={m.bypass_mem_operand}"]
    for cls in rng.sample(sorted(ref_ca.CLOCKS), rng.randint(1, 4)):
        m.clocks[cls] = rng.randint(1, 6)
        sets.append(f"timing.{cls}={m.clocks[cls]}")
    return m, sets


def fits(bundle, op):
    """docs/isa.md, "Bundles": units per bundle, no register written twice, at most 8 operations."""
    if len(bundle) >= 8:
        return False
    unit = OPS[op.mnem][1]
    if sum(1 for o in bundle if OPS[o.mnem][1] == unit) >= UNIT_CAP.get(unit, 1):
        return False
    written = {r for o in bundle for r in ref_ca.writes_of(o) if r}
    return not written & {r for r in ref_ca.writes_of(op) if r}


def asm_op(op):
    m, fmt = op.mnem, OPS[op.mnem][0]

    def imm_text():
        if m in ref_ca.FLOAT_IMM:
            return f"%bits(0x{op.imm & MASK:08x})"
        return f"0x{op.imm & MASK:x}"

    def addr_text():
        if op.imm is None:
            return f"[r{op.rs1} + r{op.rs2}]" if op.rs2 else f"[r{op.rs1}]"
        return f"[r{op.rs1} + 0x{op.imm & MASK:x}]"

    if op.target is not None and fmt == "RRX":
        extra = f" + {op.target_offset}" if op.target_offset else ""
        return f"or r{op.rd}, r{op.rs1}, L{op.target}{extra}"
    if fmt == "NONE":
        return m
    if fmt == "TRAP":
        return f"trap 0x{op.imm:x}"
    if fmt == "RRX":
        return f"{m} r{op.rd}, r{op.rs1}, " + (imm_text() if op.imm is not None else f"r{op.rs2}")
    if fmt == "RRD":
        return f"{m} r{op.rd}, r{op.rs1}, r{op.rs2}"
    if fmt == "RR":
        return f"{m} r{op.rd}, r{op.rs1}"
    if fmt in ("LD", "ST"):
        return f"{m} r{op.rd}, {addr_text()}"
    if fmt == "BR":
        return f"{m} r{op.rs1}, r{op.rs2}, L{op.target}"
    if fmt == "LOOP":
        return f"loop r{op.rd}, L{op.target}"
    if fmt == "J":
        return f"{m} L{op.target}"
    if fmt == "JR":
        return f"{m} r{op.rs1}"
    raise AssertionError(m)


def asm_text(bundles, data):
    lines = []
    for i, b in enumerate(bundles):
        ops = " ; ".join(asm_op(o) for o in b)
        lines.append(f"L{i}:\t" + (f"{{ {ops} }}" if len(b) > 1 else ops))
    lines += ["\t.align 4096", "\t.data"]
    for i in range(0, len(data), 16):
        words = [int.from_bytes(data[j:j + 4], "little") for j in range(i, i + 16, 4)]
        lines.append("\t.word " + ", ".join(f"0x{w:08x}" for w in words))
    return "\n".join(lines) + "\n"


REG_NAMES = {"ra": 1, "sp": 2, "gi0": 124, "gi1": 125, "go0": 126, "go1": 127}
REG_NAMES.update({f"a{i}": 3 + i for i in range(8)})


def run_emulator(iwarp, path, sets=()):
    cmd = [iwarp, "debug", path] + [a for kv in sets for a in ("--set", kv)] + ["--batch", "-e", "continue", "-e", "regs all", "-e", "stats",
           "-e", f"mem 0x{DATA_BASE:x} {DATA_BYTES // 4}"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout
    res = {"regs": [0] * 128, "mem": bytearray(), "status": "?", "out": out}
    m = re.search(r"^fault: .* cycle (\d+): (.*)$", out, re.M)
    if m:
        res["status"] = "fault"
        res["fault_cycle"] = int(m.group(1))
        kinds = ["integer divide by zero", "misaligned address", "bad address", "store into the program text",
                 "trap", "bad control register", "bad program counter", "illegal instruction"]
        res["fault_kind"] = next((k for k in kinds if m.group(2).startswith(k)), m.group(2))
    m = re.search(r"^\(0,0\) (\w+), pc 0x[0-9a-f]+(?: <[^>]*>)?, (\d+) instructions at clock (\d+)", out, re.M)
    if m:
        if res["status"] != "fault":
            res["status"] = "done" if m.group(1) == "halted" else m.group(1)
        res["instructions"], res["clock"] = int(m.group(2)), int(m.group(3))
    for name, val in re.findall(r"\b(ra|sp|a\d|r\d+|gi\d|go\d)\s+0x([0-9a-f]{8})\b", out):
        n = REG_NAMES.get(name, None)
        res["regs"][n if n is not None else int(name[1:])] = int(val, 16)
    m = re.search(r"stalled (\d+) on bypasses", out)
    res["bypass"] = int(m.group(1)) if m else -1
    for line in out.splitlines():
        m = re.match(r"^0x([0-9a-f]+)(?: <[^>]*>)?\s+((?:0x[0-9a-f]{8}\s*)+)$", line)
        if m:
            for w in m.group(2).split():
                res["mem"] += int(w, 16).to_bytes(4, "little")
    return res


def compare(ref, emu):
    diffs = []
    if ref.status != emu["status"]:
        diffs.append(f"status: reference {ref.status} {ref.fault_kind}, emulator {emu['status']} "
                     f"{emu.get('fault_kind', '')}")
        return diffs
    if ref.status == "fault":
        if ref.fault_kind != emu["fault_kind"]:
            diffs.append(f"fault: reference '{ref.fault_kind}', emulator '{emu['fault_kind']}'")
        if ref.fault_cycle != emu["fault_cycle"]:
            diffs.append(f"fault cycle: reference {ref.fault_cycle}, emulator {emu['fault_cycle']}")
    elif ref.clock != emu.get("clock"):
        diffs.append(f"clock at halt: reference {ref.clock}, emulator {emu.get('clock')}")
    if ref.instructions != emu.get("instructions"):
        diffs.append(f"instructions: reference {ref.instructions}, emulator {emu.get('instructions')}")
    if ref.bypass_stalls != emu["bypass"]:
        diffs.append(f"bypass stalls: reference {ref.bypass_stalls}, emulator {emu['bypass']}")
    for r in range(1, 124):
        if ref.regs[r] != emu["regs"][r]:
            diffs.append(f"r{r}: reference 0x{ref.regs[r]:08x}, emulator 0x{emu['regs'][r]:08x}")
    mem = bytes(ref.mem[DATA_BASE:DATA_BASE + DATA_BYTES])
    if mem != bytes(emu["mem"]):
        for i in range(0, DATA_BYTES, 4):
            if mem[i:i + 4] != bytes(emu["mem"][i:i + 4]):
                diffs.append(f"mem 0x{DATA_BASE + i:x}: reference {mem[i:i + 4].hex()}, "
                             f"emulator {bytes(emu['mem'][i:i + 4]).hex()}")
    return diffs


def one(iwarp, seed, bundles, workdir, show=False):
    gen = Gen(seed, bundles)
    gen.generate()
    prog = gen.bundles
    # The final run of the reference, on the whole program (the generator's run saw it grow).
    cpu = ref_ca.Cpu(prog, TEXT_END, DATA_BASE, gen.data, gen.machine)
    ref = cpu.run()
    text = asm_text(prog, gen.data)
    path = os.path.join(workdir, f"seed{seed}.s")
    if gen.sets:  # kept programs say how to run them
        text = "# iwarp debug options: " + " ".join("--set " + kv for kv in gen.sets) + "\n" + text
    with open(path, "w") as f:
        f.write(text)
    assert ref_ca.layout(prog, 0x1000)[1] <= TEXT_END, "program too long for the fixed text size"
    emu = run_emulator(iwarp, path, gen.sets)
    diffs = compare(ref, emu)
    if show:
        print(text)
        print("reference:", ref.status, ref.fault_kind, "clock", ref.clock, "fault cycle", ref.fault_cycle,
              "stalls", ref.bypass_stalls, "trace", ref.trace)
        print(emu["out"])
    return diffs, text, ref


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("iwarp")
    ap.add_argument("--seeds", help="A-B (inclusive) or one seed")
    ap.add_argument("--seconds", type=float, help="run seeds from a random start for this long")
    ap.add_argument("--bundles", type=int, default=24, help="live bundles per program (about)")
    ap.add_argument("--keep", default="out/ref_fuzz", help="folder for the programs that differ")
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--max-reports", type=int, default=10)
    args = ap.parse_args()

    check_table_coverage()
    if args.seeds:
        a, _, b = args.seeds.partition("-")
        seeds = iter(range(int(a), int(b or a) + 1))
    else:
        start = random.SystemRandom().randrange(1 << 30)
        seeds = iter(range(start, start + (1 << 30)))
    deadline = time.monotonic() + args.seconds if args.seconds else None
    bad, count, tally = [], 0, {}
    with tempfile.TemporaryDirectory() as work:
        for seed in seeds:
            if deadline and time.monotonic() > deadline:
                break
            diffs, text, ref = one(args.iwarp, seed, args.bundles, work, args.show)
            count += 1
            tally[ref.fault_kind or ref.status] = tally.get(ref.fault_kind or ref.status, 0) + 1
            tally["bundles"] = tally.get("bundles", 0) + ref.instructions
            tally["bypass stalls"] = tally.get("bypass stalls", 0) + ref.bypass_stalls
            if diffs:
                bad.append(seed)
                os.makedirs(args.keep, exist_ok=True)
                keep = os.path.join(args.keep, f"seed{seed}.s")
                with open(keep, "w") as f:
                    f.write(text)
                if len(bad) <= args.max_reports:
                    print(f"seed {seed}: {len(diffs)} difference(s), program in {keep}")
                    for d in diffs[:8]:
                        print("   ", d)
    print(f"ref_fuzz: {count} programs compared, {len(bad)} differ" + (f" (seeds {bad[:20]})" if bad else ""))
    print("ref_fuzz: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
    return 1 if bad else 0


def check_table_coverage():
    """The reference must know every operation of isa/isa.def: a new row needs its semantics here too."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    with open(os.path.join(root, "isa", "isa.def")) as f:
        table = re.findall(r'^ISA_OP\(\w+,\s*0x[0-9a-f]+,\s*"([^"]+)"', f.read(), re.M)
    missing = [m for m in table if m not in OPS and m not in NOT_FUZZED]
    if missing or not table:
        sys.exit(f"ref_fuzz: operations of isa/isa.def the reference does not model: {missing or 'none found'}")


if __name__ == "__main__":
    sys.exit(main())
