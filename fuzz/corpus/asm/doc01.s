sum:    li   r3, 0
        li   r4, 8
.loop:  add  r3, r3, r4
        loop r4, .loop
        beqz r3, 1f
        li   r5, 1
1:      halt
other:  jmp  sum.loop       # a scoped label from outside its scope
