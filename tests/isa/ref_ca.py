"""A reference model of one cell's computation agent (CA), written from docs/isa.md alone.

It is deliberately independent of emu/: the differential fuzzer (ref_fuzz.py) runs the same random
programs here and on the emulator and compares registers, memory, faults and clocks. Where docs/isa.md
left a choice open, the comment at the place says which reading the doc now states.

A program is a list of bundles; a bundle is a list of Op. Gates, events and wfe are not modelled (a
single cell with no channels bound): the fuzzer does not generate them.
"""

import struct
from dataclasses import dataclass, field

MASK = 0xFFFFFFFF

# docs/isa.md, "Timing": clocks of each timing class (the machine's defaults).
CLOCKS = {"int": 1, "imul": 3, "idiv": 31, "fadd_s": 2, "fadd_d": 4, "fmul_s": 2, "fmul_d": 4,
          "fdiv_s": 15, "fdiv_d": 31, "mem": 2, "mem_d": 4, "branch": 1, "cr": 1}

# mnemonic: (format, unit, timing class), from the Operations and Bundles sections of docs/isa.md.
OPS = {}
for m in ("add sub and or xor nor sll srl sra slt sltu seq sne").split():
    OPS[m] = ("RRX", "alu", "int")
for m in ("mul mulh mulhu").split():
    OPS[m] = ("RRX", "fpm", "imul")
for m in ("div divu rem remu").split():
    OPS[m] = ("RRX", "fpm", "idiv")
OPS.update({
    "fadd.s": ("RRX", "fpa", "fadd_s"), "fsub.s": ("RRX", "fpa", "fadd_s"),
    "fmul.s": ("RRX", "fpm", "fmul_s"), "fdiv.s": ("RRX", "fpm", "fdiv_s"),
    "feq.s": ("RRX", "fpa", "fadd_s"), "flt.s": ("RRX", "fpa", "fadd_s"), "fle.s": ("RRX", "fpa", "fadd_s"),
    "fneg.s": ("RR", "fpa", "fadd_s"), "fabs.s": ("RR", "fpa", "fadd_s"),
    "fadd.d": ("RRD", "fpa", "fadd_d"), "fsub.d": ("RRD", "fpa", "fadd_d"),
    "fmul.d": ("RRD", "fpm", "fmul_d"), "fdiv.d": ("RRD", "fpm", "fdiv_d"),
    "feq.d": ("RRD", "fpa", "fadd_d"), "flt.d": ("RRD", "fpa", "fadd_d"), "fle.d": ("RRD", "fpa", "fadd_d"),
    "fneg.d": ("RR", "fpa", "fadd_d"), "fabs.d": ("RR", "fpa", "fadd_d"), "fmov.d": ("RR", "alu", "int"),
    "cvt.s.w": ("RR", "fpa", "fadd_s"), "cvt.w.s": ("RR", "fpa", "fadd_s"),
    "cvt.d.w": ("RR", "fpa", "fadd_d"), "cvt.w.d": ("RR", "fpa", "fadd_d"),
    "cvt.d.s": ("RR", "fpa", "fadd_d"), "cvt.s.d": ("RR", "fpa", "fadd_d"),
    "ldw": ("LD", "mem", "mem"), "ldh": ("LD", "mem", "mem"), "ldhu": ("LD", "mem", "mem"),
    "ldb": ("LD", "mem", "mem"), "ldbu": ("LD", "mem", "mem"), "ldd": ("LD", "mem", "mem_d"),
    "stw": ("ST", "mem", "mem"), "sth": ("ST", "mem", "mem"), "stb": ("ST", "mem", "mem"),
    "std": ("ST", "mem", "mem_d"),
    "beq": ("BR", "ctrl", "branch"), "bne": ("BR", "ctrl", "branch"), "blt": ("BR", "ctrl", "branch"),
    "bge": ("BR", "ctrl", "branch"), "bltu": ("BR", "ctrl", "branch"), "bgeu": ("BR", "ctrl", "branch"),
    "loop": ("LOOP", "ctrl", "branch"), "jmp": ("J", "ctrl", "branch"), "call": ("J", "ctrl", "branch"),
    "jr": ("JR", "ctrl", "branch"), "callr": ("JR", "ctrl", "branch"),
    "rdcr": ("LD", "cr", "cr"), "wrcr": ("ST", "cr", "cr"),
    "nop": ("NONE", "none", "int"), "halt": ("NONE", "sys", "int"), "trap": ("TRAP", "sys", "int"),
})
# Operations whose rd names a pair / whose register sources name pairs (docs/isa.md, "Floating point").
RD_PAIR = {"fadd.d", "fsub.d", "fmul.d", "fdiv.d", "fneg.d", "fabs.d", "fmov.d", "cvt.d.w", "cvt.d.s",
           "ldd", "std"}
RS_PAIR = {"fadd.d", "fsub.d", "fmul.d", "fdiv.d", "feq.d", "flt.d", "fle.d", "fneg.d", "fabs.d", "fmov.d",
           "cvt.w.d", "cvt.s.d"}
LOADS = {"ldw", "ldh", "ldhu", "ldb", "ldbu", "ldd"}
STORES = {"stw", "sth", "stb", "std"}
FLOAT_IMM = {"fadd.s", "fsub.s", "fmul.s", "fdiv.s", "feq.s", "flt.s", "fle.s"}
# Control registers a single cell reads without a network (docs/isa.md, "Control registers").
CR_READ = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x20, 0x21, 0x22, 0x23, 0x24, 0x26}
CR_WRITE_RW = {0x21, 0x23, 0x24}  # written and read back by the fuzzer, with events off

QNAN_S = 0x7FC00000
QNAN_D = 0x7FF8000000000000


@dataclass
class Op:
    mnem: str
    rd: int = 0
    rs1: int = 0
    rs2: int = 0
    imm: int | None = None    # the extension word's value (the second operand, or the trap code)
    target: int | None = None  # a bundle index, for branches, loop, jmp, call
    target_offset: int = 0     # `la rd, L + offset`: a bundle's address plus this (an RRX with a target)


@dataclass
class Machine:
    mem_bytes: int = 512 * 1024
    mem_guard: int = 0x1000
    text_base: int = 0x1000
    bypass_load: int = 1
    bypass_mem_operand: int = 1
    clocks: dict = field(default_factory=lambda: dict(CLOCKS))  # timing.* keys


class Fault(Exception):
    def __init__(self, kind, detail=""):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


def op_words(op):
    """Words an operation takes: docs/isa.md, "Encoding" (X = 1 for an immediate, a target, a code)."""
    fmt = OPS[op.mnem][0]
    if fmt in ("BR", "LOOP", "J", "TRAP"):
        return 2
    return 2 if op.imm is not None or op.target is not None else 1


def layout(bundles, text_base):
    addrs, a = [], text_base
    for b in bundles:
        addrs.append(a)
        a += 4 * sum(op_words(o) for o in b)
    return addrs, a


def s32(x):
    x &= MASK
    return x - (1 << 32) if x & 0x80000000 else x


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits & MASK))[0]


def f64(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def b32(x):
    """A value as binary32 bits, rounded to nearest even; NaN canonical, overflow to infinity."""
    if x != x:
        return QNAN_S
    try:
        return struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:
        return 0x7F800000 if x > 0 else 0xFF800000


def b64(x):
    if x != x:
        return QNAN_D
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def fdiv(a, b):
    if b == 0.0:
        if a != a or a == 0.0:
            return float("nan")
        neg = (struct.pack("<d", a)[7] ^ struct.pack("<d", b)[7]) & 0x80
        return float("-inf") if neg else float("inf")
    return a / b


def fmul(a, b):
    return a * b  # Python raises nothing on float overflow; inf * 0 gives nan


def cvt_w(x):
    if x != x:
        return 0
    if x >= 2147483648.0:
        return 0x7FFFFFFF
    if x <= -2147483649.0:
        return 0x80000000
    return int(x) & MASK  # int() truncates toward zero


def int_op(m, a, b):
    sa, sb = s32(a), s32(b)
    if m == "add": return a + b
    if m == "sub": return a - b
    if m == "and": return a & b
    if m == "or": return a | b
    if m == "xor": return a ^ b
    if m == "nor": return ~(a | b)
    if m == "sll": return 0 if b >= 32 else a << b
    if m == "srl": return 0 if b >= 32 else a >> b
    if m == "sra": return sa >> min(b, 31)
    if m == "slt": return int(sa < sb)
    if m == "sltu": return int(a < b)
    if m == "seq": return int(a == b)
    if m == "sne": return int(a != b)
    if m == "mul": return a * b
    if m == "mulh": return (sa * sb) >> 32
    if m == "mulhu": return (a * b) >> 32
    if m in ("div", "divu", "rem", "remu"):
        if b == 0:
            raise Fault("integer divide by zero", m)
        if m == "divu": return a // b
        if m == "remu": return a % b
        if sa == -(1 << 31) and sb == -1:
            return a if m == "div" else 0
        q = abs(sa) // abs(sb)
        if (sa < 0) != (sb < 0):
            q = -q
        return q if m == "div" else sa - q * sb
    fa, fb = f32(a), f32(b)
    if m == "fadd.s": return b32(fa + fb)
    if m == "fsub.s": return b32(fa - fb)
    if m == "fmul.s": return b32(fmul(fa, fb))
    if m == "fdiv.s": return b32(fdiv(fa, fb))
    if m == "feq.s": return int(fa == fb)
    if m == "flt.s": return int(fa < fb)
    if m == "fle.s": return int(fa <= fb)
    raise AssertionError(m)


def dbl_op(m, a, b):
    """Two-operand double operations: returns 64 bits for pair results, an int for compares."""
    fa, fb = f64(a), f64(b)
    if m == "fadd.d": return b64(fa + fb)
    if m == "fsub.d": return b64(fa - fb)
    if m == "fmul.d": return b64(fmul(fa, fb))
    if m == "fdiv.d": return b64(fdiv(fa, fb))
    if m == "feq.d": return int(fa == fb)
    if m == "flt.d": return int(fa < fb)
    if m == "fle.d": return int(fa <= fb)
    raise AssertionError(m)


def unary_op(m, a):
    """RR operations: a is 32 or 64 bits (per RS_PAIR); the result 32 or 64 (per RD_PAIR)."""
    if m == "fneg.s": return a ^ 0x80000000
    if m == "fabs.s": return a & 0x7FFFFFFF
    if m == "fneg.d": return a ^ (1 << 63)
    if m == "fabs.d": return a & ~(1 << 63)
    if m == "fmov.d": return a
    if m == "cvt.s.w": return b32(float(s32(a)))
    if m == "cvt.w.s": return cvt_w(f32(a))
    if m == "cvt.d.w": return b64(float(s32(a)))
    if m == "cvt.w.d": return cvt_w(f64(a))
    if m == "cvt.d.s": return b64(f32(a))
    if m == "cvt.s.d": return b32(f64(a))
    raise AssertionError(m)


@dataclass
class Result:
    status: str                 # "done" or "fault"
    regs: list
    mem: bytearray
    clock: int                  # the clock when the run ended (the halt's clock counted)
    fault_kind: str = ""
    fault_cycle: int = -1       # the clock the faulting bundle issued at
    bypass_stalls: int = 0
    instructions: int = 0
    trace: list = field(default_factory=list)  # (bundle index, issue clock) per issued bundle


class Cpu:
    def __init__(self, bundles, text_end, data_base, data, machine=None, args=()):
        """text_end: where the text ends (the fuzzer pads it to a fixed size, so that it is known while the
        program is still being generated)."""
        self.m = machine or Machine()
        self.bundles = bundles
        self.text_end = text_end
        self.regs = [0] * 128
        self.regs[2] = machine.mem_bytes  # sp: the top of memory
        for i, v in enumerate(args):
            self.regs[3 + i] = v & MASK
        self.mem = bytearray(machine.mem_bytes)
        self.mem[data_base:data_base + len(data)] = data
        self.crs = {0x20: 0, 0x21: 0, 0x22: 0, 0x23: 0, 0x24: 0, 0x26: 0}
        self.clock = 0
        # Registers the previous bundle wrote: reg -> (clock a computing unit may read it,
        # clock the memory unit may read it). docs/isa.md, "Bypass stalls".
        self.ready = {}
        self.stalls = self.count = 0
        self.trace = []

    # -- operand access ----------------------------------------------------------------------------------
    def get(self, r):
        return 0 if r == 0 else self.regs[r]

    def get2(self, r):
        return self.get(r) | (self.get(r + 1) << 32)

    def addr_of(self, k):
        addrs, end = layout(self.bundles, self.m.text_base)
        return addrs[k] if k < len(addrs) else (end if k == len(addrs) else 0xDEAD0000)

    def check_addr(self, addr, size):
        if addr % size:
            raise Fault("misaligned address", hex(addr))
        if addr < self.m.mem_guard or addr + size > self.m.mem_bytes:
            raise Fault("bad address", hex(addr))

    def cr_read(self, n):
        fixed = {0x00: 0, 0x01: 0, 0x02: 1, 0x03: 1, 0x04: self.clock & MASK, 0x05: self.clock >> 32,
                 0x06: self.m.mem_bytes, 0x07: 0, 0x08: 8, 0x09: 2, 0x0a: 2}  # docs/machine.md defaults
        if n in self.crs:
            return self.crs[n]
        if n in fixed and fixed[n] is not None:
            return fixed[n]
        raise Fault("bad control register", hex(n))

    # -- one bundle --------------------------------------------------------------------------------------
    def reads(self, op):
        """(register, read by the memory unit) pairs the operation reads."""
        fmt = OPS[op.mnem][0]
        mem = op.mnem in LOADS or op.mnem in STORES
        regs = []
        if fmt in ("RRX", "RRD", "RR", "LD", "ST", "BR", "JR"):
            regs.append(op.rs1)
            if op.mnem in RS_PAIR:
                regs.append(op.rs1 + 1)
        if fmt in ("RRX", "RRD", "LD", "ST", "BR") and op.imm is None:
            regs.append(op.rs2)
            if op.mnem in RS_PAIR and fmt == "RRD":
                regs.append(op.rs2 + 1)
        if fmt == "ST" or op.mnem == "loop":
            regs.append(op.rd)
            if op.mnem == "std":
                regs.append(op.rd + 1)
        return [(r, mem) for r in regs if r != 0]

    def execute(self, op, bidx, writes, stores, branch):
        m, fmt = op.mnem, OPS[op.mnem][0]
        a = self.get(op.rs1)
        b = op.imm & MASK if op.imm is not None else self.get(op.rs2)
        if op.target is not None and fmt == "RRX":  # `la rd, label`: the immediate is a bundle's address
            b = (self.addr_of(op.target) + op.target_offset) & MASK
        if m == "nop":
            return
        if m == "trap":
            raise Fault("trap", str(op.imm))
        if fmt == "RRX":
            writes.append((op.rd, int_op(m, a, b) & MASK))
        elif fmt == "RRD":
            r = dbl_op(m, self.get2(op.rs1), self.get2(op.rs2))
            if m in RD_PAIR:
                writes += [(op.rd, r & MASK), (op.rd + 1, r >> 32)]
            else:
                writes.append((op.rd, r))
        elif fmt == "RR":
            src = self.get2(op.rs1) if m in RS_PAIR else a
            r = unary_op(m, src)
            if m in RD_PAIR:
                writes += [(op.rd, r & MASK), (op.rd + 1, (r >> 32) & MASK)]
            else:
                writes.append((op.rd, r & MASK))
        elif m in LOADS:
            addr = (a + b) & MASK
            size = {"ldw": 4, "ldh": 2, "ldhu": 2, "ldb": 1, "ldbu": 1, "ldd": 8}[m]
            self.check_addr(addr, size)
            v = int.from_bytes(self.mem[addr:addr + size], "little")
            if m == "ldd":
                writes += [(op.rd, v & MASK), (op.rd + 1, v >> 32)]
            else:
                if m in ("ldh", "ldb") and v >> (8 * size - 1):
                    v -= 1 << (8 * size)
                writes.append((op.rd, v & MASK))
        elif m in STORES:
            addr = (a + b) & MASK
            size = {"stw": 4, "sth": 2, "stb": 1, "std": 8}[m]
            self.check_addr(addr, size)
            if addr < self.text_end and addr + size > self.m.text_base:
                raise Fault("store into the program text", hex(addr))
            v = self.get2(op.rd) if m == "std" else self.get(op.rd)
            stores.append((addr, (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little")))
        elif m == "rdcr":
            writes.append((op.rd, self.cr_read((a + b) & MASK)))
        elif m == "wrcr":
            n = (a + b) & MASK
            if n not in CR_WRITE_RW:
                raise Fault("bad control register (not modelled)", hex(n))
            stores.append((("cr", n), self.get(op.rd)))
        elif fmt == "BR":
            sa, sb = s32(a), s32(b)
            taken = {"beq": a == b, "bne": a != b, "blt": sa < sb, "bge": sa >= sb,
                     "bltu": a < b, "bgeu": a >= b}[m]
            if taken:
                branch.append(("idx", op.target))
        elif m == "loop":
            v = (self.get(op.rd) - 1) & MASK
            writes.append((op.rd, v))
            if v:
                branch.append(("idx", op.target))
        elif m in ("jmp", "call"):
            branch.append(("idx", op.target))
        elif m in ("jr", "callr"):
            branch.append(("addr", a))
        if m in ("call", "callr"):
            writes.append((1, self.addr_of(bidx + 1)))

    def bundle_clocks(self, bundle):
        accesses = sum(2 if o.mnem in ("ldd", "std") else 1 for o in bundle if o.mnem in LOADS | STORES)
        return max([self.m.clocks[OPS[o.mnem][2]] for o in bundle] + [accesses])

    def step(self, idx, jump_to=None):
        """Issue bundle idx. Returns the next bundle's index, or a Result when the cell stops.
        jump_to stands for the bundle a jr/callr reaches while the generator still lays out the program."""
        if idx >= len(self.bundles):
            return self.finish("fault", "bad program counter", self.clock)
        bundle = self.bundles[idx]
        # Bypass stalls: the bundle issues when the previous bundle's results reach its units.
        issue = self.clock
        for op in bundle:
            for r, mem in self.reads(op):
                if r in self.ready:
                    issue = max(issue, self.ready[r][1 if mem else 0])
        self.stalls += issue - self.clock
        self.clock = issue
        self.trace.append((idx, issue))
        if bundle[0].mnem == "halt":
            self.clock += 1
            self.count += 1
            return self.finish("done", "")
        self.addrs = layout(self.bundles, self.m.text_base)[0]
        self.by_addr = {a: i for i, a in enumerate(self.addrs)}
        writes, stores, branch = [], [], []
        try:
            for op in bundle:
                self.execute(op, idx, writes, stores, branch)
            nxt = idx + 1
            if branch:
                kind, where = branch[0]
                if kind == "idx":
                    nxt = where
                elif jump_to is not None:
                    nxt = jump_to
                elif where in self.by_addr:
                    nxt = self.by_addr[where]
                else:
                    raise Fault("bad program counter", hex(where))
        except Fault as f:
            return self.finish("fault", f.kind, issue)
        # Commit: every read happened above, now every write (docs/isa.md, "Bundles").
        for r, v in writes:
            if r:
                self.regs[r] = v & MASK
        for where, v in stores:
            if isinstance(where, tuple):
                self.crs[where[1]] = v
            else:
                self.mem[where:where + len(v)] = v
        self.ready = {}
        for op in bundle:
            end = issue + self.m.clocks[OPS[op.mnem][2]]
            load = op.mnem in LOADS
            comp = end + (self.m.bypass_load if load else 0)
            memr = end + (max(self.m.bypass_load, self.m.bypass_mem_operand) if load
                          else self.m.bypass_mem_operand)
            for r in writes_of(op):
                if r:
                    self.ready[r] = (comp, memr)
        self.clock = issue + self.bundle_clocks(bundle)
        self.count += 1
        return nxt

    def run(self, max_bundles=100000):
        idx = 0
        while not isinstance(idx, Result):
            if self.count > max_bundles:
                return self.finish("limit", "")
            idx = self.step(idx)
        return idx

    def finish(self, status, kind, fault_cycle=-1):
        return Result(status, list(self.regs), self.mem, self.clock, kind, fault_cycle, self.stalls,
                      self.count, self.trace)


def writes_of(op):
    """Registers an operation writes, for the bypass rule."""
    m, fmt = op.mnem, OPS[op.mnem][0]
    if fmt in ("RRX", "RRD", "RR") or m in LOADS or m == "rdcr" or m == "loop":
        regs = [op.rd, op.rd + 1] if m in RD_PAIR else [op.rd]
    elif m in ("call", "callr"):
        regs = [1]
    else:
        regs = []
    return regs
