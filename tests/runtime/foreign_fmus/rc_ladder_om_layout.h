/*
 * tests/runtime/foreign_fmus/rc_ladder_om_layout.h -- value references of
 * RcLadderOM, a hand-written FMU (not made with the kit) in OpenModelica's
 * fully implicit DAE form. Shared by its binary (rc_ladder_om.c) and by the
 * test code that writes its XML (rc_ladder_om_fmu.cpp), so both agree.
 *
 * The model: a source V0 feeds a ladder of RCL_N series resistors R with shunt
 * capacitors C, terminated by a load resistor RL. For k = 1..N, with
 * v_0 = V0 and i_{N+1} = iL:
 *   C der(v_k) = i_k - i_{k+1}       (residual C[k])
 *   vR_k       = v_{k-1} - v_k       (residual KVL[k])
 *   vR_k       = R i_k               (residual Ohm[k])
 *   RL iL      = v_N                 (residual load)
 * N states v_k, 2N + 1 algebraic variables (i_k, vR_k, iL), 3N + 1 residuals.
 *
 * Unlike the kit's FMUs: value references are sparse and odd (time is not 0),
 * ModelVariables lists residuals first and the states last, the state order
 * of fmi3GetContinuousStates is v_N .. v_1, and the manifest's algebraic
 * variables and residuals come in yet other orders.
 */
#ifndef LSDAE_TESTS_RUNTIME_FOREIGN_FMUS_RC_LADDER_OM_LAYOUT_H
#define LSDAE_TESTS_RUNTIME_FOREIGN_FMUS_RC_LADDER_OM_LAYOUT_H

#include <stdint.h>

#ifdef __cplusplus
#define RCL_U32(x) static_cast<uint32_t>(x)
#else
#define RCL_U32(x) ((uint32_t)(x))
#endif

#define RCL_N 200

#define RCL_VR_TIME 7u
#define RCL_VR_VLOAD 12u   /* output: v_N */
#define RCL_VR_SWITCH 55u  /* Boolean structural parameter: DAE mode */
#define RCL_VR_R 9001u
#define RCL_VR_C 9002u
#define RCL_VR_RL 9003u
#define RCL_VR_V0 9004u
#define RCL_VR_IL 499999u

/* k = 1..RCL_N */
static inline uint32_t rcl_vr_v(int k) { return 100003u + 10u * RCL_U32(k); }
static inline uint32_t rcl_vr_der(int k) { return 300001u + 7u * RCL_U32(RCL_N - k); }
static inline uint32_t rcl_vr_i(int k) { return 500000u + 2u * RCL_U32(k); }
static inline uint32_t rcl_vr_vr(int k) { return 500001u + 2u * RCL_U32(k); }

/* Residual j = 0..3N, its place in the manifest: j = 3(k-1) is C[k],
 * 3(k-1)+1 is KVL[k], 3(k-1)+2 is Ohm[k], 3N is the load. */
#define RCL_RESIDUALS (3 * RCL_N + 1)
static inline uint32_t rcl_vr_res(int j) { return 700000u + 3u * RCL_U32(j); }

/* Continuous state s (0-based, fmi3GetContinuousStates order) is v_{N-s}. */
static inline int rcl_k_of_state(int s) { return RCL_N - s; }

#endif
