# Two cells that deadlock, for the console's tests and docs: on a 2x1 array each cell opens a pathway to the
# other's gi0 and streams N words into it before reading what the other sends. The queues on the way hold 16
# words, so with N = 100 both CAs end up waiting for room on go0 while nobody reads gi0.
#
# a0 = N (100 if zero). With N <= 16 both cells halt, a0 = the sum of what they received.
        .include "coa.inc"

        .text
_start: mov  r3, a0
        bnez r3, 1f
        li   r3, 100
1:      mov  r23, r3
        rdcr r10, [CR_CELL_X]
        rdcr r20, [COA_ALLOC]
        wrcr r20, [COA_GATE_OUT0]
        li   r5, COA_EXPECT
        wrcr r5, [COA_GATE_IN0]      # the pathway from the other cell ends at gi0
        li   r21, 1
        wrcr r21, [COA_TAG_NEXT]
        bnez r10, right
left:   sign_li r22, 0, 0, DIR_PX
        mov  go0, r22
        wrcr r21, [COA_TAG_NEXT]
        sign_li r22, 1, 0, SIGN_GATE, 0
        mov  go0, r22
        jmp  send
right:  sign_li r22, 1, 0, DIR_MX
        mov  go0, r22
        wrcr r21, [COA_TAG_NEXT]
        sign_li r22, 0, 0, SIGN_GATE, 0
        mov  go0, r22
send:   { mov go0, r3 ; loop r3, send }
        mov  r3, r23                 # only now read what the other cell sent
        li   r6, 0
receive: { add r6, r6, gi0 ; loop r3, receive }
        mov  a0, r6
        halt
