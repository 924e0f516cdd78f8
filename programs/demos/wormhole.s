# Wormhole blocking (teaching demo, programs/demos/wormhole.txt). Message A goes from (0,0) to (3,0),
# whose CA is busy and reads nothing for a while: A's words stop where they are, spread over every hop,
# each hop holding its channel. Message B, from (1,0) to (2,0), has nothing to do with A, but its only
# hop needs the channel A holds on the link (1,0) -> (2,0): B's header waits at (1,0) until A's trailer
# has passed. Every cell here may take one pool-0 channel of its +X neighbour (the default is two), so
# one message is enough to block the link.
#
# Halts with a0 = the sum of the words received at (2,0) and (3,0); traps 1 on a wrong word.
        .include "demo.inc"

        .equ LEN_A, 48
        .equ LEN_B, 12
        .equ B_START, 60                 # clock at which (1,0) starts B
        .equ BUSY, 160                   # loop turns (3 clocks each) before (3,0) reads A

        .text
_start: li   r11, 1 << 8                 # +X hops: pool 0 is channel 8 of the neighbour, alone
        wrcr r11, [COA_LINK_POOL + DIR_PX * 8]
        rdcr r10, [CR_CELL_X]
        beqz r10, send_a
        li   r12, 1
        beq  r10, r12, send_b
        li   r12, 2
        beq  r10, r12, recv_b
        jmp  recv_a

send_a: gate_message SIGN_KIND | (DIR_PX << 15), SIGN_KIND | (3 << 23) | (SIGN_GATE << 15), LEN_A, 1000, 3
        halt

send_b: rdcr r5, [CR_CLOCK_LO]           # wait until B_START: A is on its way by then
        li   r6, B_START
        blt  r5, r6, send_b
        gate_message SIGN_KIND | (1 << 23) | (DIR_PX << 15), SIGN_KIND | (2 << 23) | (SIGN_GATE << 15), LEN_B, 2000, 2
        halt

recv_b: li   r5, COA_EXPECT
        wrcr r5, [COA_GATE_IN0]
        gate_receive LEN_B, 2000
        halt

recv_a: li   r5, COA_EXPECT
        wrcr r5, [COA_GATE_IN0]
        li   r3, BUSY                    # busy with something else: A waits in the network
3:      { add r9, r9, r3 ; loop r3, 3b }
        gate_receive LEN_A, 1000
        halt
bad:    trap 1
