//===- xtile_ptx_host.cpp - the PTX path's instructions on the CPU --------===//
//
// The host implementations of what the PTX path's LLVM IR calls once
// `xtile-translate --mlir-to-host-ptx` has retargeted it to the CPU
// (lib/Target/PTX/TranslateToHostPTX.cpp): each NVVM intrinsic as
// `__xt_ptx_<name, dots as underscores>`, each inline-PTX string as the
// function that file names for it. Built with the emulation header and
// the host object of a module into one shared library, it is a CUDA driver
// (libcuda.so.1) whose GPU runs the PTX path's own code:
//
//   xtile-translate --mlir-to-host-ptx --host-ptx-object k.mlir -o k.o
//   c++ -std=c++17 -O1 -fPIC -shared -pthread -include xtile_emulation.h \
//       -DXTILE_EMULATION_DRIVER -DXTILE_EMULATION_PTX xtile_ptx_host.cpp \
//       k.o -o libcuda-k.so
//
// cuModuleLoadData takes only the PTX this library was built from (its
// hash, xt_ptx_image_hash); cuModuleGetFunction finds its `.entry`
// kernels; cuLaunchKernel runs them under the emulation (threads as
// fibers, blocks on the cores).
//
// Each function follows the PTX ISA's definition of its instruction, not
// the CUDA C emulation's helpers where the two could differ in what they
// take (shuffle clamps and segment masks, descriptor fields), so that a
// misencoded operand shows here.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_EMULATION_PTX
#error "build with -DXTILE_EMULATION_PTX -DXTILE_EMULATION_DRIVER and -include xtile_emulation.h"
#endif

#include <cinttypes>

// CUDA C's names for the special registers; here they are read directly.
#undef threadIdx
#undef blockIdx
#undef blockDim
#undef gridDim

namespace {
using xt_emu::self;

/// The thread's index in its block, and the block's shape.
unsigned tid(int d) { return xt_emu::ThreadIdx().get(d); }
unsigned ntid(int d) {
  const dim3 &b = self().blockDim;
  return d == 0 ? b.x : d == 1 ? b.y : b.z;
}
unsigned ctaid(int d) {
  const dim3 &b = self().block;
  return d == 0 ? b.x : d == 1 ? b.y : b.z;
}
unsigned nctaid(int d) {
  const dim3 &g = self().gridDim;
  return d == 0 ? g.x : d == 1 ? g.y : g.z;
}

/// shfl.sync.{bfly,down,idx}.b32 d, a, b, c, membermask, as the PTX ISA
/// defines it: c packs the clamp value (bits 0-4) and the segment mask
/// (bits 8-12); a source lane past the clamp, or past the warp's last
/// lane, leaves the value as it is.
uint32_t shuffle(uint32_t mask, uint32_t value, uint32_t b, uint32_t c,
                 int mode) {
  xt_emu::Worker &w = self();
  unsigned lanes = w.warpLanes();
  uint32_t present = lanes == 32 ? ~0u : (1u << lanes) - 1;
  if ((mask & present) != present || (mask & ~present))
    xt_emu::failf("shfl.sync: member mask 0x%08x, but the warp's threads "
                  "are 0x%08x",
                  mask, present);
  unsigned lane = w.self % 32;
  const std::atomic<uint32_t> *slots = w.exchange(&value, 1);
  uint32_t segmask = (c >> 8) & 0x1f, cval = c & 0x1f;
  uint32_t maxLane = (lane & segmask) | (cval & ~segmask);
  uint32_t minLane = lane & segmask;
  uint32_t j = lane;
  bool inRange = false;
  switch (mode) {
  case 0: // bfly
    j = lane ^ (b & 0x1f);
    inRange = j <= maxLane;
    break;
  case 1: // down
    j = lane + (b & 0x1f);
    inRange = j <= maxLane;
    break;
  default: // idx
    j = minLane | ((b & 0x1f) & ~segmask);
    inRange = j <= maxLane;
    break;
  }
  if (!inRange || j >= lanes)
    j = lane;
  return slots[j * xt_emu::Worker::kLaneWords];
}

/// The byte of the running block's shared-memory window that a 32-bit
/// shared address names (the PTX path takes shared addresses as 32-bit
/// integers in inline PTX): the window's dynamic and static bytes are one
/// region, so its addresses are the region's base plus an offset below
/// 2^32.
void *sharedPointer(uint32_t address) {
  xt_emu::Worker &w = self();
  unsigned char *base = w.sharedBase();
  uint32_t offset = address - uint32_t(reinterpret_cast<uintptr_t>(base));
  std::size_t window = w.staticOffset() + xt_ptx_static_shared_bytes;
  if (offset >= window)
    xt_emu::failf("shared address 0x%08x is outside the block's %zu bytes "
                  "of shared memory",
                  address, window);
  return base + offset;
}

float asFloat(uint32_t b) { return xt_emu::fromBits<float>(b); }
uint32_t asBits(float f) { return xt_emu::toBits(f); }

/// bar.sync / barrier.sync with a thread count: barrier 0 with the whole
/// block's count is __syncthreads.
void barrier(uint32_t id, uint32_t threads) {
  xt_emu::Worker &w = self();
  if (id == 0 && (threads == 0 || threads == w.threads)) {
    w.barrier();
    return;
  }
  if (id > 15 || threads == 0 || threads % 32 || threads > w.threads)
    xt_emu::failf("bar.sync %u, %u: expected barrier 0 to 15 and a thread "
                  "count in whole warps, at most the block's %u",
                  id, threads, w.threads);
  if (id == 0)
    xt_emu::failf("bar.sync 0, %u: barrier 0 (__syncthreads) with part of "
                  "the block's %u threads",
                  threads, w.threads);
  w.barrier(id, threads);
}

void copyAsync(void *dst, const void *src, unsigned bytes, unsigned valid) {
  if (reinterpret_cast<uintptr_t>(dst) % bytes ||
      reinterpret_cast<uintptr_t>(src) % bytes)
    xt_emu::failf("cp.async of %u bytes: addresses not %u-byte aligned",
                  bytes, bytes);
  if (valid > bytes)
    xt_emu::failf("cp.async of %u bytes with a source size of %u", bytes,
                  valid);
  if (valid)
    std::memcpy(dst, src, valid);
  if (valid < bytes)
    std::memset(static_cast<char *>(dst) + valid, 0, bytes - valid);
}

} // namespace

#define XT_SREG(name, fn)                                                      \
  extern "C" uint32_t __xt_ptx_llvm_nvvm_read_ptx_sreg_##name##_x() {          \
    return fn(0);                                                              \
  }                                                                            \
  extern "C" uint32_t __xt_ptx_llvm_nvvm_read_ptx_sreg_##name##_y() {          \
    return fn(1);                                                              \
  }                                                                            \
  extern "C" uint32_t __xt_ptx_llvm_nvvm_read_ptx_sreg_##name##_z() {          \
    return fn(2);                                                              \
  }
XT_SREG(tid, tid)
XT_SREG(ntid, ntid)
XT_SREG(ctaid, ctaid)
XT_SREG(nctaid, nctaid)
#undef XT_SREG

extern "C" {

uint32_t __xt_ptx_llvm_nvvm_read_ptx_sreg_laneid() { return self().self % 32; }
uint32_t __xt_ptx_llvm_nvvm_read_ptx_sreg_warpsize() { return 32; }

/// The running block's dynamic shared memory, and its static shared
/// variables after the launch's dynamic bytes.
void *__xt_ptx_dynamic_shared() { return self().sharedBase(); }
void *__xt_ptx_static_shared() {
  return self().sharedBase() + self().staticOffset();
}

/// xkernel.mbarrier_wait's inline PTX: mbarrier.try_wait.parity in a loop
/// until the phase of `parity` has completed.
void __xt_ptx_mbarrier_try_wait_parity_loop(uint64_t *bar, uint32_t parity) {
  xt_emu::mbarrierWait(bar, parity);
}
void __xt_ptx_mbarrier_try_wait_parity_loop_at(uint32_t bar,
                                               uint32_t parity) {
  xt_emu::mbarrierWait(static_cast<uint64_t *>(sharedPointer(bar)), parity);
}

/// wgmma.mma_async.sync.aligned.m64nNkK.f32.T.T d, descA, descB, p,
/// imm-scale-a, imm-scale-b[, imm-trans-a, imm-trans-b], p = scale-d != 0;
/// `type`: 0 bf16, 1 f16, 2 tf32, 3 e4m3, 4 e5m2. D = A B + (p ? d : 0).
void __xt_ptx_wgmma_mma_async(float *d, uint64_t descA, uint64_t descB,
                              uint32_t scaleD, int32_t scaleA, int32_t scaleB,
                              int32_t transA, int32_t transB, uint32_t n,
                              uint32_t k, uint32_t type) {
  if (n < 8 || n > 256 || n % 8)
    xt_emu::failf("wgmma.mma_async m64n%uk%u: N must be 8 to 256 in steps "
                  "of 8",
                  n, k);
  unsigned typeK = type == 2 ? 8u : type >= 3 ? 32u : 16u;
  if (k != typeK)
    xt_emu::failf("wgmma.mma_async m64n%uk%u: K must be %u for this type",
                  n, k, typeK);
  if (scaleA != 1 || scaleB != 1)
    xt_emu::failf("wgmma.mma_async: imm-scale-a %d, imm-scale-b %d: only 1 "
                  "(no negation) is emulated",
                  scaleA, scaleB);
  if (transA != 0)
    xt_emu::fail("wgmma.mma_async: imm-trans-a 1 (an M-major A) is not "
                 "emulated");
  if (transB != 0 && transB != 1)
    xt_emu::failf("wgmma.mma_async: imm-trans-b %d", transB);
  if (!scaleD)
    std::memset(d, 0, sizeof(float) * n / 2);
  bool nMajor = transB == 1;
  switch (type) {
  case 0:
    nMajor ? xt_emu::wgmma<__nv_bfloat16, true>(n, descA, descB, d)
           : xt_emu::wgmma<__nv_bfloat16, false>(n, descA, descB, d);
    break;
  case 1:
    nMajor ? xt_emu::wgmma<__half, true>(n, descA, descB, d)
           : xt_emu::wgmma<__half, false>(n, descA, descB, d);
    break;
  default:
    if (nMajor)
      xt_emu::fail("wgmma.mma_async on tf32 and fp8 takes B K-major only");
    if (type == 2)
      xt_emu::wgmma<float, false>(n, descA, descB, d);
    else if (type == 3)
      xt_emu::wgmma<xt_emu::WgmmaE4M3, false>(n, descA, descB, d);
    else
      xt_emu::wgmma<xt_emu::WgmmaE5M2, false>(n, descA, descB, d);
    break;
  }
}

// Barriers.
void __xt_ptx_llvm_nvvm_barrier0() { self().barrier(); }
void __xt_ptx_llvm_nvvm_barrier_cta_sync_aligned_all(uint32_t id) {
  barrier(id, 0);
}
void __xt_ptx_llvm_nvvm_barrier_cta_sync_all(uint32_t id) { barrier(id, 0); }
void __xt_ptx_llvm_nvvm_barrier_cta_sync_aligned_count(uint32_t id,
                                                       uint32_t n) {
  barrier(id, n);
}
void __xt_ptx_llvm_nvvm_barrier_cta_sync_count(uint32_t id, uint32_t n) {
  barrier(id, n);
}
void __xt_ptx_llvm_nvvm_barrier_sync(uint32_t id) { barrier(id, 0); }
void __xt_ptx_llvm_nvvm_barrier_sync_cnt(uint32_t id, uint32_t n) {
  barrier(id, n);
}
void __xt_ptx_llvm_nvvm_barrier(uint32_t id, uint32_t n) { barrier(id, n); }
void __xt_ptx_llvm_nvvm_barrier_n(uint32_t id) { barrier(id, 0); }

// Shuffles: mode 0 bfly, 1 down, 2 idx.
#define XT_SHFL(kind, mode)                                                    \
  uint32_t __xt_ptx_llvm_nvvm_shfl_sync_##kind##_i32(uint32_t m, uint32_t v,  \
                                                     uint32_t b, uint32_t c) { \
    return shuffle(m, v, b, c, mode);                                          \
  }                                                                            \
  float __xt_ptx_llvm_nvvm_shfl_sync_##kind##_f32(uint32_t m, float v,        \
                                                  uint32_t b, uint32_t c) {    \
    return asFloat(shuffle(m, asBits(v), b, c, mode));                         \
  }
XT_SHFL(bfly, 0)
XT_SHFL(down, 1)
XT_SHFL(idx, 2)
#undef XT_SHFL

// cp.async: the copy is made at once (it is complete by any wait_group).
#define XT_CP_ASYNC(kind, n)                                                   \
  void __xt_ptx_llvm_nvvm_cp_async_##kind##_shared_global_##n(                 \
      void *dst, const void *src) {                                            \
    copyAsync(dst, src, n, n);                                                 \
  }                                                                            \
  void __xt_ptx_llvm_nvvm_cp_async_##kind##_shared_global_##n##_s(             \
      void *dst, const void *src, uint32_t valid) {                            \
    copyAsync(dst, src, n, valid);                                             \
  }
XT_CP_ASYNC(ca, 4)
XT_CP_ASYNC(ca, 8)
XT_CP_ASYNC(ca, 16)
XT_CP_ASYNC(cg, 16)
#undef XT_CP_ASYNC
void __xt_ptx_llvm_nvvm_cp_async_commit_group() {}
void __xt_ptx_llvm_nvvm_cp_async_wait_group(uint32_t) {}

// ldmatrix: x1 returns its register, x2 and x4 write theirs.
uint32_t __xt_ptx_llvm_nvvm_ldmatrix_sync_aligned_m8n8_x1_b16(const void *p) {
  uint32_t r[1];
  xt_emu::ldmatrix<1, false>(p, r);
  return r[0];
}
uint32_t
__xt_ptx_llvm_nvvm_ldmatrix_sync_aligned_m8n8_x1_trans_b16(const void *p) {
  uint32_t r[1];
  xt_emu::ldmatrix<1, true>(p, r);
  return r[0];
}
void __xt_ptx_llvm_nvvm_ldmatrix_sync_aligned_m8n8_x2_b16(uint32_t *r,
                                                          const void *p) {
  xt_emu::ldmatrix<2, false>(p, r);
}
void __xt_ptx_llvm_nvvm_ldmatrix_sync_aligned_m8n8_x2_trans_b16(uint32_t *r,
                                                                const void *p) {
  xt_emu::ldmatrix<2, true>(p, r);
}
void __xt_ptx_llvm_nvvm_ldmatrix_sync_aligned_m8n8_x4_b16(uint32_t *r,
                                                          const void *p) {
  xt_emu::ldmatrix<4, false>(p, r);
}
void __xt_ptx_llvm_nvvm_ldmatrix_sync_aligned_m8n8_x4_trans_b16(uint32_t *r,
                                                                const void *p) {
  xt_emu::ldmatrix<4, true>(p, r);
}

// mma.sync: D = A B + C; the fragments as the intrinsics pass them.
#define XT_MMA(name, run)                                                      \
  void __xt_ptx_llvm_nvvm_mma_##name(float *d, uint32_t a0, uint32_t a1,      \
                                     uint32_t a2, uint32_t a3, uint32_t b0,   \
                                     uint32_t b1, float c0, float c1,         \
                                     float c2, float c3) {                    \
    const uint32_t a[4] = {a0, a1, a2, a3}, b[2] = {b0, b1};                  \
    float acc[4] = {c0, c1, c2, c3};                                          \
    run;                                                                       \
    std::memcpy(d, acc, sizeof acc);                                           \
  }
XT_MMA(m16n8k16_row_col_bf16, xt_emu::mma(a, b, acc, xt_emu::bf16Bits))
XT_MMA(m16n8k16_row_col_f32_f32, xt_emu::mma(a, b, acc, xt_emu::f16Bits))
XT_MMA(m16n8k8_row_col_tf32, xt_emu::mmaTf32(a, b, acc))
XT_MMA(m16n8k32_row_col_f32_e4m3_e4m3_f32,
       xt_emu::mma<4>(a, b, acc, xt_emu::e4m3Bits))
XT_MMA(m16n8k32_row_col_f32_e5m2_e5m2_f32,
       xt_emu::mma<4>(a, b, acc, xt_emu::e5m2Bits))
#undef XT_MMA
uint32_t __xt_ptx_llvm_nvvm_f2tf32_rna(float x) {
  return asBits(xt_emu::roundTf32(x));
}

// cvt.rn.satfinite.{e4m3,e5m2}x2.f32 d, a, b (a to the upper byte) and
// cvt.rn.f16x2.{e4m3,e5m2}x2 d, a (the upper byte to the upper half).
uint32_t __xt_ptx_llvm_nvvm_ff_to_e4m3x2_rn(float a, float b) {
  return xt_cvt_e4m3x2_f32(a, b);
}
uint32_t __xt_ptx_llvm_nvvm_ff_to_e5m2x2_rn(float a, float b) {
  return xt_cvt_e5m2x2_f32(a, b);
}
void __xt_ptx_llvm_nvvm_e4m3x2_to_f16x2_rn(uint32_t *d, uint32_t a) {
  *d = xt_cvt_f16x2_e4m3x2(uint16_t(a));
}
void __xt_ptx_llvm_nvvm_e5m2x2_to_f16x2_rn(uint32_t *d, uint32_t a) {
  *d = xt_cvt_f16x2_e5m2x2(uint16_t(a));
}

// wgmma groups, register reallocation.
void __xt_ptx_llvm_nvvm_wgmma_fence_sync_aligned() {}
void __xt_ptx_llvm_nvvm_wgmma_commit_group_sync_aligned() { xt_wgmma_commit(); }
void __xt_ptx_llvm_nvvm_wgmma_wait_group_sync_aligned(uint64_t pending) {
  xt_emu::Worker::retireWgmma(self(), pending);
}
void __xt_ptx_llvm_nvvm_setmaxnreg_inc_sync_aligned_u32(uint32_t n) {
  if (n < 24 || n > 256 || n % 8)
    xt_emu::failf("setmaxnreg.inc %u: expected 24 to 256, a multiple of 8", n);
}
void __xt_ptx_llvm_nvvm_setmaxnreg_dec_sync_aligned_u32(uint32_t n) {
  if (n < 24 || n > 256 || n % 8)
    xt_emu::failf("setmaxnreg.dec %u: expected 24 to 256, a multiple of 8", n);
}

// mbarriers and fences.
void __xt_ptx_llvm_nvvm_mbarrier_init_shared(uint64_t *bar, uint32_t count) {
  xt_emu::mbarrierInit(bar, count);
}
void __xt_ptx_llvm_nvvm_mbarrier_init(uint64_t *bar, uint32_t count) {
  xt_emu::mbarrierInit(bar, count);
}
uint64_t __xt_ptx_llvm_nvvm_mbarrier_arrive_shared(uint64_t *bar) {
  xt_emu::mbarrierArrive(bar);
  return 0;
}
uint64_t __xt_ptx_llvm_nvvm_mbarrier_arrive(uint64_t *bar) {
  xt_emu::mbarrierArrive(bar);
  return 0;
}
uint64_t __xt_ptx_llvm_nvvm_mbarrier_arrive_expect_tx_scope_cta_space_cta(
    uint64_t *bar, uint32_t bytes) {
  xt_emu::mbarrierArriveExpectTx(bar, bytes);
  return 0;
}
void __xt_ptx_llvm_nvvm_fence_mbarrier_init_release_cluster() {}
void __xt_ptx_llvm_nvvm_fence_proxy_async_shared_cta() {}

// 16-bit float conversions that LLVM's host backend calls (x86-64 has no
// instructions for them in its base ISA): rounded as the CUDA C emulation
// rounds, so both paths agree bit for bit. A 16-bit float travels in the
// low half of an SSE register, as the low bits of a float here. Hidden, so
// that the host object binds to these and not to libgcc's.
#define XT_HIDDEN __attribute__((visibility("hidden")))
XT_HIDDEN float __truncsfbf2(float x) {
  return __int_as_float(int32_t(__float2bfloat16_rn(x).bits));
}
XT_HIDDEN float __truncsfhf2(float x) {
  return __int_as_float(int32_t(__float2half_rn(x).bits));
}
XT_HIDDEN float __extendhfsf2(float h) {
  return __half2float(__ushort_as_half(
      (unsigned short)(uint32_t(__float_as_int(h)) & 0xffff)));
}
#undef XT_HIDDEN

// cp.async.bulk.tensor.<N>d.shared::cluster.global.tile.mbarrier::
// complete_tx::bytes [dst], [map, {c0, ...}], [bar]: the intrinsics' operands
// after the coordinates (multicast mask, cache hint, their two flags, the
// CTA group) select features the lowering does not use.
namespace {
void bulkTensorLoad(void *dst, uint64_t *bar, const void *map,
                    const int32_t *coords, unsigned rank, uint32_t useMulticast,
                    uint32_t useCacheHint, uint32_t ctaGroup) {
  if (useMulticast || useCacheHint || ctaGroup)
    xt_emu::failf("cp.async.bulk.tensor.%ud: multicast, cache hints and CTA "
                  "groups are not emulated",
                  rank);
  xt_emu::tmaLoad(dst, map, bar, coords, rank);
}
} // namespace
#define XT_TMA_TAIL                                                            \
  uint32_t, uint64_t, uint32_t useMulticast, uint32_t useCacheHint,            \
      uint32_t ctaGroup
void __xt_ptx_llvm_nvvm_cp_async_bulk_tensor_g2s_tile_1d(
    void *dst, uint64_t *bar, const void *map, int32_t c0, XT_TMA_TAIL) {
  const int32_t c[] = {c0};
  bulkTensorLoad(dst, bar, map, c, 1, useMulticast, useCacheHint, ctaGroup);
}
void __xt_ptx_llvm_nvvm_cp_async_bulk_tensor_g2s_tile_2d(
    void *dst, uint64_t *bar, const void *map, int32_t c0, int32_t c1,
    XT_TMA_TAIL) {
  const int32_t c[] = {c0, c1};
  bulkTensorLoad(dst, bar, map, c, 2, useMulticast, useCacheHint, ctaGroup);
}
void __xt_ptx_llvm_nvvm_cp_async_bulk_tensor_g2s_tile_3d(
    void *dst, uint64_t *bar, const void *map, int32_t c0, int32_t c1,
    int32_t c2, XT_TMA_TAIL) {
  const int32_t c[] = {c0, c1, c2};
  bulkTensorLoad(dst, bar, map, c, 3, useMulticast, useCacheHint, ctaGroup);
}
void __xt_ptx_llvm_nvvm_cp_async_bulk_tensor_g2s_tile_4d(
    void *dst, uint64_t *bar, const void *map, int32_t c0, int32_t c1,
    int32_t c2, int32_t c3, XT_TMA_TAIL) {
  const int32_t c[] = {c0, c1, c2, c3};
  bulkTensorLoad(dst, bar, map, c, 4, useMulticast, useCacheHint, ctaGroup);
}
void __xt_ptx_llvm_nvvm_cp_async_bulk_tensor_g2s_tile_5d(
    void *dst, uint64_t *bar, const void *map, int32_t c0, int32_t c1,
    int32_t c2, int32_t c3, int32_t c4, XT_TMA_TAIL) {
  const int32_t c[] = {c0, c1, c2, c3, c4};
  bulkTensorLoad(dst, bar, map, c, 5, useMulticast, useCacheHint, ctaGroup);
}
#undef XT_TMA_TAIL

// Special-function units: the emulation's error model of each.
float __xt_ptx_llvm_nvvm_ex2_approx_f32(float x) { return xt_ex2(x); }
float __xt_ptx_llvm_nvvm_ex2_approx_ftz_f32(float x) { return xt_ex2_ftz(x); }
float __xt_ptx_llvm_nvvm_ex2_approx_f(float x) { return xt_ex2(x); }
float __xt_ptx_llvm_nvvm_ex2_approx_ftz_f(float x) { return xt_ex2_ftz(x); }
float __xt_ptx_llvm_nvvm_lg2_approx_f(float x) { return xt_lg2(x); }
float __xt_ptx_llvm_nvvm_lg2_approx_ftz_f(float x) { return xt_lg2_ftz(x); }
float __xt_ptx_llvm_nvvm_rcp_approx_ftz_f(float x) { return xt_rcp_ftz(x); }
float __xt_ptx_llvm_nvvm_div_full(float x, float y) { return xt_div_full(x, y); }
float __xt_ptx_llvm_nvvm_rsqrt_approx_f(float x) { return xt_rsqrt(x); }
float __xt_ptx_llvm_nvvm_rsqrt_approx_ftz_f(float x) { return xt_rsqrt_ftz(x); }
float __xt_ptx_llvm_nvvm_sqrt_approx_f(float x) { return xt_sqrt(x); }
float __xt_ptx_llvm_nvvm_sqrt_approx_ftz_f(float x) { return xt_sqrt_ftz(x); }

} // extern "C"
