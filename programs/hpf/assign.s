# A task-parallel HPF array assignment D = S, repeated, as Dinda and O'Hallaron measured it ("The
# Performance Impact of Address Relation Caching", section 5): S is distributed over a source task of T
# cells (ids 0 .. T-1), D over a disjoint destination task (ids T .. 2T-1); other cells only join the
# barriers. Every iteration each source cell computes the address relation to every destination cell (or,
# cached, takes it from the cache it filled in the first iteration), assembles one deposit-model message
# per destination that gets anything, and sends it; each destination cell deposits what arrives until its
# whole local part has come (runtime/hpf.s, runtime/deposit.s; docs/deposit.md).
#
# The distributions are assembly-time symbols (iwarp bench caching and tests/e2e/test_hpf.c make them):
#   -D N0=.. -D N1=..            the global array (dimension 0 contiguous, column major)
#   -D T=..                      cells per task
#   -D SP0=.. -D SK0=.. -D SP1=.. -D SK1=..   S: processors and block size of each dimension (hpf.s)
#   -D DP0=.. -D DK0=.. -D DP1=.. -D DK1=..   D: the same (SP0 SP1 = DP0 DP1 = T)
# Arguments: a0 = 0 uncached, 1 cached; a1 = message format DEP_PAIRS (0) or DEP_BLOCKS (1); a2 = iterations
# (1..RESULTS_MAX); a3 = 1 to refill S and check D every iteration (else S is filled once and D checked
# after the last).
#
# Results, per iteration i at results + 16 i: source cells write the clock they start (after a barrier) and
# the clocks their assembly took (everything but waiting for the last message to leave) and, cached, the
# clocks of computing and storing the relation; destination cells write the clock at which their last word
# was deposited (+12). totals: words sent (source) or elements that differ (destination, summed over
# the checks), and blocks in the cache (source, cached). Every cell halts with a0 = iterations.
        .include "hpf.s"
        .include "sync.s"

        .equ GUARD, 0x5eedf00d         # destination: the words just around the local part
        .equ RESULTS_MAX, 64
        .equ STACK_KEEP, 4096          # bytes below sp that the message, scratch and cache may not reach
        .equ TRAP_HPF_MEMORY, 0x4850   # the local part, its messages and the cache do not fit the memory
        .equ TRAP_HPF_ITERATIONS, 0x4851

        .data
        .align 8
sdesc:  .word N0, N1, SP0, SK0, SP1, SK1, 0, 0   # BASE: local, set at start
ddesc:  .word N0, N1, DP0, DK0, DP1, DK1, 0, T

        .bss
        .align 8
handles: .space 4 * T
cachehdr: .space 8 * T                 # per destination rank: cache address, blocks
totals: .space 16                      # words sent or elements that differ; blocks cached
results: .space 16 * RESULTS_MAX
        .space 16                      # guard words before the local part
local:  .space 0                       # the local part, then (sources) scratch, the cache and the messages, up to
                                       # STACK_KEEP bytes below the stack

        .text
_start: mov  r60, a0                   # cached?
        mov  r61, a1                   # format
        mov  r62, a2                   # iterations
        mov  r63, a3                   # check every iteration?
        beqz r62, bad_iter
        li   r11, RESULTS_MAX
        bltu r11, r62, bad_iter
        li   r11, local
        li   r12, sdesc
        stw  r11, [r12 + HPF_BASE]
        li   r12, ddesc
        stw  r11, [r12 + HPF_BASE]
        call msg_init
        call sync_init
        rdcr r64, [CR_CELL_ID]
        li   r65, results
        li   r66, T
        bltu r64, r66, source
        sll  r66, r66, 1
        bltu r64, r66, destination
idle:   mov  r69, r62
1:      call sync_barrier              # two barriers per iteration, as the tasks
        call sync_barrier
        loop r69, 1b
        mov  a0, r62
        halt
bad_iter:
        trap TRAP_HPF_ITERATIONS
bad_memory:
        trap TRAP_HPF_MEMORY

# --- source task ----------------------------------------------------------------------------------------
source: # local extents and the memory after the local part: scratch, the messages, the cache
        li   a0, sdesc
        mov  a1, r64
        call hpf_local
        mov  r70, a0                   # L0
        mov  r71, a1                   # L1
        mul  r72, r70, r71             # E: local elements
        sll  r73, r72, 2
        li   r11, local
        add  r73, r73, r11             # scratch
        add  r11, r70, r71
        mul  r11, r11, 12
        add  r75, r73, r11             # the cache (cached), then the messages: as long as they need, checked
        mov  r74, r75                  # as they grow
        sub  r76, sp, STACK_KEEP       # the limit
        bltu r76, r75, bad_memory
        li   r66, 0                    # iteration
        li   r67, 0                    # words sent in all
        li   r68, 0                    # blocks cached
        li   a0, sdesc                 # S(g0, g1) = g1 N0 + g0 + salt
        mov  a1, r64
        li   a2, 0
        li   a3, 0
        call hpf_fill
.iter:  beqz r66, 1f
        beqz r63, 1f
        li   a0, sdesc                 # new values every iteration when checking
        mov  a1, r64
        mul  a2, r66, 0x9e3779b1
        li   a3, 0
        call hpf_fill
1:      call sync_barrier
        rdcr r50, [CR_CLOCK_LO]
        stw  r50, [r65]
        li   r52, 0
        beqz r60, .send
        bnez r66, .send
        # first cached iteration: the relation to every destination rank into the cache
        li   r80, 0                    # destination rank
        mov  r81, r75                  # cache write pointer
        li   r82, cachehdr
2:      li   a0, sdesc
        li   a1, ddesc
        mov  a2, r64
        mov  a3, r80
        li   a4, HPF_CACHE
        mov  a5, r81
        mov  a6, r73
        call hpf_relation
        stw  r81, [r82]
        li   r11, 3
        divu r11, a0, r11
        stw  r11, [r82 + 4]
        add  r68, r68, r11
        sll  a0, a0, 2
        add  r81, r81, a0
        add  r82, r82, 8
        add  r80, r80, 1
        li   r11, T
        bne  r80, r11, 2b
        bltu r76, r81, bad_memory
        mov  r74, r81                  # the messages after the cache
        rdcr r51, [CR_CLOCK_LO]
        sub  r52, r51, r50
.send:  li   r80, 0                    # destination rank
        mov  r81, r74                  # message write pointer
        li   r82, cachehdr
        li   r83, handles
        li   r84, HPF_PAIRS
        beqz r61, 3f
        li   r84, HPF_BLOCKS
3:      beqz r60, 4f
        ldw  a0, [r82]
        ldw  a1, [r82 + 4]
        mov  a2, r84
        mov  a3, r81
        call hpf_from_cache
        jmp  5f
4:      li   a0, sdesc
        li   a1, ddesc
        mov  a2, r64
        mov  a3, r80
        mov  a4, r84
        mov  a5, r81
        mov  a6, r73
        call hpf_relation
5:      li   r11, -1
        stw  r11, [r83]                # no message
        beqz a0, 6f
        mov  r85, a0
        add  r67, r67, a0
        add  a0, r80, T                # the destination's cell
        mov  a1, r81
        mov  a2, r85
        call msg_isend
        stw  a0, [r83]
        sll  r11, r85, 2
        add  r81, r81, r11
        bltu r76, r81, bad_memory
6:      add  r80, r80, 1
        add  r82, r82, 8
        add  r83, r83, 4
        li   r11, T
        bne  r80, r11, 3b
        rdcr r51, [CR_CLOCK_LO]
        sub  r51, r51, r50
        stw  r51, [r65 + 4]
        stw  r52, [r65 + 8]
        li   r80, T                    # every message gone before the buffer is used again
        li   r83, handles
7:      ldw  a0, [r83]
        li   r11, -1
        beq  a0, r11, 8f
        call msg_wait
8:      add  r83, r83, 4
        loop r80, 7b
        call sync_barrier
        add  r65, r65, 16
        add  r66, r66, 1
        bne  r66, r62, .iter
        li   r11, totals
        stw  r67, [r11]
        stw  r68, [r11 + 4]
        mov  a0, r62
        halt
# --- destination task -----------------------------------------------------------------------------------
destination:
        sub  r64, r64, T               # rank
        li   a0, ddesc
        mov  a1, r64
        call hpf_local
        mul  r72, a0, a1               # E
        sll  r73, r72, 2
        li   r11, local + 16
        add  r11, r11, r73
        add  r11, r11, STACK_KEEP
        bltu sp, r11, bad_memory
        # guard words: four before the local part, four after; D itself starts as guard words too
        li   r40, local - 16
        add  r43, r72, 8
        li   r45, GUARD
1:      stw  r45, [r40]
        add  r40, r40, 4
        loop r43, 1b
        li   r66, 0
        li   r67, 0                    # elements that differ
.iter:  call sync_barrier
        mov  r68, r72                  # elements still to come
        beqz r68, 3f
2:      mov  a0, r61
        call dep_receive
        sub  r68, r68, a1
        bnez r68, 2b
3:      rdcr r51, [CR_CLOCK_LO]
        stw  r51, [r65 + 12]
        add  r11, r66, 1
        beq  r11, r62, 4f              # the last iteration is always checked
        beqz r63, 5f
4:      li   a0, ddesc
        mov  a1, r64
        mul  a2, r66, 0x9e3779b1
        bnez r63, 6f
        li   a2, 0                     # S was filled once
6:      li   a3, 1
        call hpf_fill
        add  r67, r67, a0
5:      call sync_barrier
        add  r65, r65, 16
        add  r66, r66, 1
        bne  r66, r62, .iter
        li   r11, totals
        stw  r67, [r11]
        mov  a0, r62
        halt
