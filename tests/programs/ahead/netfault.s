# A network fault at a cell whose CA has run ahead (tests/e2e/test_slices.c): the victim routes channel 13 from
# -X to its gate and computes a long loop of stores and loads; the sender, after a1 iterations of its own,
# sends it a tagged word that is not a trailer, which the victim's agent faults on as it reaches the end of the
# pathway. The fault must leave the victim's CA as it was at that clock, not as it was at the end of its run.
#
# a0 = role: 0 victim, 1 sender; a1 = the sender's iterations before it sends.
        .include "coa.inc"

        .bss
        .align 16
buf:    .space 4 * 128

        .text
_start: bne  a0, zero, send
        lc_source 13, END_LINK, DIR_MX, 12
        lc_route  13, END_GATE, 0, 0
        li   r11, 3000
        li   r10, buf
        li   r12, 1
1:      stw  r12, [r10]
        ldw  r13, [r10]
        add  r12, r13, 3
        loop r11, 1b
        mov  a0, r12
        halt
send:   lc_source 12, END_GATE, 0, 0
        lc_route  12, END_LINK, DIR_PX, 13
        mov  r11, a1
1:      add  r12, r12, 1
        loop r11, 1b
        li   r21, 1
        wrcr r21, [COA_TAG_NEXT]
        mov  go0, r12
        halt
