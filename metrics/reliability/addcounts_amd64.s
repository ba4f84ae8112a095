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

// func sumTypes32AVX2(perT []float64, typ []uint16, s *[32]float64)
//
// s[b] = Σ_x perT[typ[x]*32 + b] for b < 32, each sum from +0 in entry
// order, the 32 sums in eight registers.
TEXT ·sumTypes32AVX2(SB), NOSPLIT, $0-56
	MOVQ   perT_base+0(FP), DI
	MOVQ   typ_base+24(FP), SI
	MOVQ   typ_len+32(FP), CX
	MOVQ   s+48(FP), DX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	TESTQ  CX, CX
	JZ     store

entry:
	MOVWQZX (SI), AX
	SHLQ    $8, AX
	ADDQ    DI, AX
	VADDPD  0(AX), Y0, Y0
	VADDPD  32(AX), Y1, Y1
	VADDPD  64(AX), Y2, Y2
	VADDPD  96(AX), Y3, Y3
	VADDPD  128(AX), Y4, Y4
	VADDPD  160(AX), Y5, Y5
	VADDPD  192(AX), Y6, Y6
	VADDPD  224(AX), Y7, Y7
	ADDQ    $2, SI
	DECQ    CX
	JNZ     entry

store:
	VMOVUPD Y0, 0(DX)
	VMOVUPD Y1, 32(DX)
	VMOVUPD Y2, 64(DX)
	VMOVUPD Y3, 96(DX)
	VMOVUPD Y4, 128(DX)
	VMOVUPD Y5, 160(DX)
	VMOVUPD Y6, 192(DX)
	VMOVUPD Y7, 224(DX)
	VZEROUPPER
	RET
