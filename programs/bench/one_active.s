# One cell computing while every other cell sleeps, for `iwarp bench speed`: cell (0,0) runs the loop of
# compute.s (compute.inc); the others sleep in wfe until their timer, at clock a1, and halt. What the
# sleepers cost the host is what this measures: ideally nothing beyond the one cell's work.
# a0 = outer iterations of cell (0,0); a1 = the clock the sleepers wake at.
        .include "coa.inc"
        .include "compute.inc"

        .text
_start: rdcr r5, [CR_CELL_ID]
        bnez r5, sleeper
        compute_loop
        halt

# Events stay off: a pending timer event in the mask wakes wfe all the same.
sleeper:
        wrcr a1, [CR_TIMER]
        li   r6, EV_TIMER
        wrcr r6, [CR_EVENT_MASK]
        wfe
        li   a0, 0
        halt
