# A compute-bound mix for `iwarp bench speed`: integer, memory, single-precision FP and branches,
# touching no gate, so it measures the core alone.
# a0 = outer iterations; each runs the inner loop over 256 words.
        .include "compute.inc"

        .text
_start: compute_loop
        halt
