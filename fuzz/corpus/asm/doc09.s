        { add r3, gi0, r4 ; sub r5, gi0, r6 }
