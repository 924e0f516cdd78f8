        add  gi0, r3, r4
