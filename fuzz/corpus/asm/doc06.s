max:    mov  r3, a0
        ble  a1, a0, 1f
        mov  r3, a1
1:      ret
