        { ldw r3, [r4] ; stw r5, [r6] }
