#include "textflag.h"

// func addCountsAVX2(acc []float64, nb int, cnt []int32, slots []int32, vals []float64)
//
// For each x: acc[slots[x]*nb + b] += float64(cnt[b]) * vals[x], b < nb,
// four replicates per step: VCVTDQ2PD converts four counts, VMULPD rounds
// the products, VADDPD adds them (no fused multiply-add).
TEXT ·addCountsAVX2(SB), NOSPLIT, $0-104
	MOVQ acc_base+0(FP), DI
	MOVQ nb+24(FP), BX
	MOVQ cnt_base+32(FP), SI
	MOVQ slots_base+56(FP), R8
	MOVQ slots_len+64(FP), R9
	MOVQ vals_base+80(FP), R10
	MOVQ BX, CX
	SHRQ $2, CX
	TESTQ R9, R9
	JZ   done
	TESTQ CX, CX
	JZ   done

slot:
	VBROADCASTSD (R10), Y0
	MOVLQSX (R8), AX
	IMULQ BX, AX
	LEAQ (DI)(AX*8), R11
	MOVQ SI, R12
	MOVQ CX, R13

chunk:
	VCVTDQ2PD (R12), Y1
	VMULPD    Y0, Y1, Y1
	VADDPD    (R11), Y1, Y1
	VMOVUPD   Y1, (R11)
	ADDQ      $16, R12
	ADDQ      $32, R11
	DECQ      R13
	JNZ       chunk

	ADDQ $4, R8
	ADDQ $8, R10
	DECQ R9
	JNZ  slot

done:
	VZEROUPPER
	RET
