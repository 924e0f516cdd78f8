# The deposit engine of deposit-model messages (docs/deposit.md; Dinda and O'Hallaron, "The Performance
# Impact of Address Relation Caching", section 2): a message carries, with its data, the receiver address of
# every word, and the receiver writes each word there as it comes off the network, with no staging buffer.
#
# Two formats, both sent as ordinary messages of runtime/msg.s (msg_isend of a buffer the sender assembled):
#   DEP_PAIRS   address-data pairs: r, d, r, d, ... (2 words a data word)
#   DEP_BLOCKS  address-data blocks: r, l, d_1 .. d_l, r, l, ... (l words at r, r + 4, ...; l >= 1)
# A block of DEP_SPOOL_MIN words or more is deposited by the receiving spool straight from the channel (the
# CA only sets it up and sleeps); shorter blocks and pairs go through gi0, one word per 2 clocks.

        .ifndef DEPOSIT_S
        .equ DEPOSIT_S, 1

        .include "msg.s"

        .equ DEP_PAIRS,  0
        .equ DEP_BLOCKS, 1
        .ifndef DEP_SPOOL_MIN
        .equ DEP_SPOOL_MIN, 16         # below this the spool's set-up costs more than the gate loop
        .endif
        .equ TRAP_DEP_FORMAT, 0x4445   # a block of length 0, a block running past the message, or a pair cut
                                       # in half: the message is not in the format asked for

        .text
# dep_receive(a0 = format) -> a0 = source id, a1 = data words deposited. Waits (wfe) for the oldest
# arriving message and deposits it. The program must not use gi0 or spool 7 meanwhile (msg.s's rule).
dep_receive:
        mov  r11, a0
        msg_take_arrival r12, r14, r13
        srl  r15, r14, 20                # source
        li   r16, MSG_MAX_LEN
        and  r16, r14, r16               # words left in the message
        li   r17, 0                      # data words deposited
        beqz r11, .pairs

.blocks:
        beqz r16, .done
        li   r18, 2
        bltu r16, r18, .bad
        mov  r19, gi0                    # r
        mov  r20, gi0                    # l
        sub  r16, r16, 2
        beqz r20, .bad
        bltu r16, r20, .bad
        sub  r16, r16, r20
        add  r17, r17, r20
        li   r18, DEP_SPOOL_MIN
        bgeu r20, r18, .spool
2:      { stw  gi0, [r19] ; add r19, r19, 4 ; loop r20, 2b }
        jmp  .blocks
.spool: li   r13, COA_NONE               # the spool takes the channel from the gate for l words
        wrcr r13, [COA_GATE_IN0]
        spool_in_wait r21, MSG_RECV_SPOOL, r12, r19, r20, r18
        beqz r16, .done                  # the last block: the trailer may have freed the channel already
        wrcr r12, [COA_GATE_IN0]
        jmp  .blocks

.pairs: and  r18, r16, 1
        bnez r18, .bad
        srl  r17, r16, 1
        beqz r17, .done
        mov  r20, r17
5:      mov  r19, gi0
        { stw  gi0, [r19] ; loop r20, 5b }

.done:  li   r13, COA_NONE               # the agent frees the channel at the trailer; the gate lets go of it
        wrcr r13, [COA_GATE_IN0]         # now, before another message can take it
        li   r18, MARK_MSG_RECEIVE
        or   r18, r18, r15
        wrcr r18, [CR_MARK]
        mov  a0, r15
        mov  a1, r17
        ret
.bad:   trap TRAP_DEP_FORMAT

        .endif
