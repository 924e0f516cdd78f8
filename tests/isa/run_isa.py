#!/usr/bin/env python3
"""Runs the per-operation programs of tests/isa on the emulator (docs/isa.md, "Reference model").

Each NAME.s must halt, once per `# run: OPTIONS` line (once with no options when it has none); a failed
check traps, and the report names its line. faults.s runs once per `# case N: KIND at cycle C` line with
-D CASE=N and must fault so. Every operation of isa/isa.def must appear in some program.
  run_isa.py IWARP
"""

import glob
import json
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(iwarp, path, options):
    cmd = [iwarp, "run", path, "--json", "-I", HERE] + options
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    try:
        return json.loads(out.stdout)
    except json.JSONDecodeError:
        return {"status": "no report", "fault": {"message": out.stderr.strip()}}


def operations_used(paths):
    """Mnemonics in operation position: at a line's start, after a label, `{` or `;`, and in macro calls'
    first argument (the programs pass the operation to a checking macro)."""
    used = set()
    for p in paths:
        with open(p) as f:
            for line in f:
                code = line.split("#")[0]
                for part in re.split(r"[{;}]|^\s*[\w.]+:", code):
                    words = re.findall(r"[a-z][a-z0-9._]*", part)
                    used.update(words[:2])
    return used


def main():
    iwarp = sys.argv[1]
    failures, runs = [], 0
    programs = sorted(glob.glob(os.path.join(HERE, "*.s")))
    with open(os.path.join(HERE, "..", "..", "isa", "isa.def")) as f:
        table = re.findall(r'^ISA_OP\(\w+,\s*0x[0-9a-f]+,\s*"([^"]+)"', f.read(), re.M)
    missing = sorted(set(table) - operations_used(programs + [os.path.join(HERE, "check.inc")]))
    if missing or not table:
        failures.append(f"operations of isa/isa.def that no tests/isa program checks: {missing or 'none read'}")
    for path in programs:
        name = os.path.basename(path)
        with open(path) as f:
            text = f.read()
        cases = re.findall(r"^# case (\d+): (.+) at cycle (\d+)$", text, re.M)
        if cases:
            for n, kind, cycle in cases:
                runs += 1
                rep = run(iwarp, path, ["-D", f"CASE={n}"])
                fault = rep.get("fault", {})
                if rep.get("status") != "fault" or fault.get("kind") != kind or fault.get("cycle") != int(cycle):
                    failures.append(f"{name} case {n}: expected {kind} at cycle {cycle}, got {rep.get('status')}: "
                                    f"{fault.get('message', '')}")
            continue
        for options in re.findall(r"^# run:(.*)$", text, re.M) or [""]:
            runs += 1
            rep = run(iwarp, path, shlex.split(options))
            if rep.get("status") != "done":
                failures.append(f"{name} {options.strip()}: {rep.get('status')}: "
                                f"{rep.get('fault', {}).get('message', '')}")
    for f in failures:
        print("FAIL", f)
    print(f"run_isa: {runs} runs of {len(programs)} programs, {len(table)} operations, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
