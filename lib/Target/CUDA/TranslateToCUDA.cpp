//===- TranslateToCUDA.cpp - Kernel IR to CUDA C --------------------------===//
//
// A read-only printer: one dispatch point (emitOperation), an indented
// stream, names scoped to a function, and a located error for anything it
// cannot print. Constants are printed inline where they are used; every
// other value is a local variable declared where it is defined, which C++
// block scoping makes valid for structured control flow.
//
//===----------------------------------------------------------------------===//

#include "xtile/Target/CUDA/CUDAEmitter.h"

#include "xtile/Support/SymbolicDims.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/IndentedOstream.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "xtile/Dialect/Kernel/IR/KernelOps.h"
#include "xtile/Dialect/Kernel/Transforms/Passes.h"
#include "xtile/Support/Storage.h"
#include "xtile/Support/KernelSignature.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include <set>

using namespace mlir;
namespace xk = xtile::kernel;

namespace {

/// Declarations every emitted file starts with: vectors of adjacent
/// elements, NaN-propagating min/max (arith.maximumf), floor division,
/// cp.async with a portable fallback, and the launch of a kernel. Under
/// XTILE_EMULATION (runtime/xtile_emulation.h, for the host compiler) the
/// CUDA headers, dynamic shared memory and launches come from the emulation.
constexpr const char *kPrelude = R"cuda(#ifndef XTILE_EMULATION
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#endif
#include <stdint.h>
#include <string.h>
#include <utility>

#ifndef XTILE_CUDA_PRELUDE
#define XTILE_CUDA_PRELUDE
#ifndef XTILE_EMULATION
#define XT_DYNAMIC_SHARED(name) extern __shared__ __align__(16) unsigned char name[]
// Kernels with wgmma operands: their swizzle atoms are 1024-byte aligned.
// (Another name: every extern __shared__ array is the same memory, but one
// name has one alignment in a translation unit.)
#define XT_DYNAMIC_SHARED_1024(name)                                           \
  extern __shared__ __align__(1024) unsigned char name##_1024[];              \
  unsigned char *name = name##_1024
// (The converted arguments are this function's parameters: a std::tuple
// of a kernel's hundred-odd parameters is instantiated recursively past
// nvcc's limit.)
template <typename... Params>
static cudaError_t xt_launch_values(void (*kernel)(Params...), dim3 grid,
                                    dim3 block, size_t shared,
                                    cudaStream_t stream, Params... values) {
  void *args[] = {(void *)&values...};
  return cudaLaunchKernel((const void *)kernel, grid, block, args, shared,
                          stream);
}
// Launches `kernel` with `args` converted to its parameter types.
template <typename... Params, typename... Args>
static cudaError_t xt_launch(void (*kernel)(Params...), dim3 grid, dim3 block,
                             size_t shared, cudaStream_t stream,
                             Args... args) {
  return xt_launch_values<Params...>(kernel, grid, block, shared, stream,
                                     static_cast<Params>(args)...);
}
#endif
// N adjacent elements, aligned so that one access moves them all.
template <typename T, int N> struct alignas(sizeof(T) * N) xt_vec {
  T v[N];
};
// One instruction from sm_80 on (max.NaN), as the PTX path emits it.
__device__ __forceinline__ float xt_maximumf(float a, float b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
#else
  return (a != a || b != b) ? __int_as_float(0x7fc00000) : fmaxf(a, b);
#endif
}
__device__ __forceinline__ float xt_minimumf(float a, float b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  float r;
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
#else
  return (a != a || b != b) ? __int_as_float(0x7fc00000) : fminf(a, b);
#endif
}
__device__ __forceinline__ double xt_maximum(double a, double b) {
  return (a != a || b != b) ? __longlong_as_double(0x7ff8000000000000LL)
                            : fmax(a, b);
}
__device__ __forceinline__ double xt_minimum(double a, double b) {
  return (a != a || b != b) ? __longlong_as_double(0x7ff8000000000000LL)
                            : fmin(a, b);
}
// fp8 elements (storage types): their bits. The PTX instructions
// (sm_89 and later; under XTILE_EMULATION the emulation's) convert pairs:
// `hi` into the upper byte or half, `lo` into the lower.
struct xt_e4m3 {
  unsigned char bits;
};
struct xt_e5m2 {
  unsigned char bits;
};
#ifndef XTILE_EMULATION
__device__ __forceinline__ unsigned short xt_cvt_e4m3x2_f32(float hi, float lo) {
  unsigned short r;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(hi), "f"(lo));
  return r;
}
__device__ __forceinline__ unsigned short xt_cvt_e5m2x2_f32(float hi, float lo) {
  unsigned short r;
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r) : "f"(hi), "f"(lo));
  return r;
}
__device__ __forceinline__ unsigned xt_cvt_f16x2_e4m3x2(unsigned short x) {
  unsigned r;
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"(x));
  return r;
}
__device__ __forceinline__ unsigned xt_cvt_f16x2_e5m2x2(unsigned short x) {
  unsigned r;
  asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(r) : "h"(x));
  return r;
}
#endif
// f32 to fp8 as PyTorch casts: to nearest even; e4m3 saturates to +-448
// (infinities too), e5m2 overflows to infinity from 61440 on; NaN keeps its
// sign (the instruction gives 0x7f).
__device__ __forceinline__ xt_e4m3 xt_float_to_e4m3(float x) {
  unsigned sign = ((unsigned)__float_as_int(x) >> 24) & 0x80;
  return {(unsigned char)((xt_cvt_e4m3x2_f32(0.0f, x) & 0xff) | sign)};
}
__device__ __forceinline__ xt_e5m2 xt_float_to_e5m2(float x) {
  unsigned sign = ((unsigned)__float_as_int(x) >> 24) & 0x80;
  unsigned r = fabsf(x) >= 61440.0f ? 0x7c : xt_cvt_e5m2x2_f32(0.0f, x) & 0xff;
  return {(unsigned char)(r | sign)};
}
// fp8 to f32: exact (through the f16 the instruction gives).
__device__ __forceinline__ float xt_e4m3_to_float(xt_e4m3 x) {
  return __half2float(
      __ushort_as_half((unsigned short)(xt_cvt_f16x2_e4m3x2(x.bits) & 0xffff)));
}
__device__ __forceinline__ float xt_e5m2_to_float(xt_e5m2 x) {
  return __half2float(
      __ushort_as_half((unsigned short)(xt_cvt_f16x2_e5m2x2(x.bits) & 0xffff)));
}
template <typename T> __device__ __forceinline__ T xt_floordiv(T a, T b) {
  T q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
template <typename T> __device__ __forceinline__ T xt_ceildiv(T a, T b) {
  T q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}
// Copies Bytes bytes from global to shared memory without registers; only
// the first `valid` bytes are read, the rest are zero.
template <int Bytes>
__device__ __forceinline__ void xt_cp_async(void *dst, const void *src,
                                            int valid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned s = (unsigned)__cvta_generic_to_shared(dst);
  if (Bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s),
                 "l"(src), "r"(valid)
                 : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(s),
                 "l"(src), "n"(Bytes), "r"(valid)
                 : "memory");
#else
  if (valid > 0)
    memcpy(dst, src, valid);
  if (valid < Bytes)
    memset((char *)dst + valid, 0, Bytes - valid);
#endif
}
__device__ __forceinline__ void xt_cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int N> __device__ __forceinline__ void xt_cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}
#ifndef XTILE_EMULATION
// Tensor cores (xkernel.ldmatrix, xkernel.mma; sm_80 on). The emulation
// header gathers the fragments from the lanes as the PTX ISA lays them out.
template <int N, bool Trans>
__device__ __forceinline__ void xt_ldmatrix_b16(const void *row, uint32_t *r) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned s = (unsigned)__cvta_generic_to_shared(row);
  if constexpr (N == 4 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s) : "memory");
  else if constexpr (N == 4)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s) : "memory");
  else if constexpr (N == 2 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(s) : "memory");
  else if constexpr (N == 2)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(s) : "memory");
  else if constexpr (Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n"
                 : "=r"(r[0]) : "r"(s) : "memory");
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n"
                 : "=r"(r[0]) : "r"(s) : "memory");
#elif defined(__CUDA_ARCH__)
  __trap(); // tensor-core kernels are built for sm_80 and later
#endif
}
#define XT_MMA(name, shape_types)                                              \
  __device__ __forceinline__ void name(const uint32_t *a, const uint32_t *b,  \
                                       float *d) {                             \
    XT_MMA_ASM(shape_types)                                                    \
  }
#define XT_MMA_INSTRUCTION(shape_types)                                        \
  asm("mma.sync.aligned." shape_types ".f32 {%0, %1, %2, %3}, "                \
      "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"                       \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                         \
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define XT_MMA_ASM(shape_types) XT_MMA_INSTRUCTION(shape_types)
#elif defined(__CUDA_ARCH__)
#define XT_MMA_ASM(shape_types) __trap();
#else
#define XT_MMA_ASM(shape_types)
#endif
XT_MMA(xt_mma_bf16, "m16n8k16.row.col.f32.bf16.bf16")
XT_MMA(xt_mma_f16, "m16n8k16.row.col.f32.f16.f16")
XT_MMA(xt_mma_tf32, "m16n8k8.row.col.f32.tf32.tf32")
#undef XT_MMA_ASM
// fp8 products: sm_89 and later (the kernel verifier requires it).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
#define XT_MMA_ASM(shape_types) XT_MMA_INSTRUCTION(shape_types)
#elif defined(__CUDA_ARCH__)
#define XT_MMA_ASM(shape_types) __trap();
#else
#define XT_MMA_ASM(shape_types)
#endif
XT_MMA(xt_mma_e4m3, "m16n8k32.row.col.f32.e4m3.e4m3")
XT_MMA(xt_mma_e5m2, "m16n8k32.row.col.f32.e5m2.e5m2")
#undef XT_MMA
#undef XT_MMA_ASM
#undef XT_MMA_INSTRUCTION
// xkernel.round_tf32: cvt.rna.tf32.f32 (sm_80 on).
__device__ __forceinline__ float xt_round_tf32(float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return __uint_as_float(r);
#elif defined(__CUDA_ARCH__)
  __trap();
  return x;
#else
  return x;
#endif
}
// The special-function instructions of xkernel.approx (the emulation
// header models them with their documented error).
#define XT_APPROX(name, ptx)                                                  \
  __device__ __forceinline__ float name(float x) {                            \
    float y;                                                                   \
    asm(ptx " %0, %1;" : "=f"(y) : "f"(x));                                    \
    return y;                                                                  \
  }
XT_APPROX(xt_ex2, "ex2.approx.f32")
XT_APPROX(xt_ex2_ftz, "ex2.approx.ftz.f32")
XT_APPROX(xt_lg2, "lg2.approx.f32")
XT_APPROX(xt_lg2_ftz, "lg2.approx.ftz.f32")
XT_APPROX(xt_rcp_ftz, "rcp.approx.ftz.f32")
XT_APPROX(xt_rsqrt, "rsqrt.approx.f32")
XT_APPROX(xt_rsqrt_ftz, "rsqrt.approx.ftz.f32")
XT_APPROX(xt_sqrt, "sqrt.approx.f32")
XT_APPROX(xt_sqrt_ftz, "sqrt.approx.ftz.f32")
#undef XT_APPROX
// xkernel.div_full.
__device__ __forceinline__ float xt_div_full(float x, float y) {
  float q;
  asm("div.full.f32 %0, %1, %2;" : "=f"(q) : "f"(x), "f"(y));
  return q;
}
// rcp without ftz: div.full.f32 of 1 by x (full range, subnormals kept).
__device__ __forceinline__ float xt_rcp(float x) {
  float y;
  asm("div.full.f32 %0, 0f3F800000, %1;" : "=f"(y) : "f"(x));
  return y;
}
#endif
#ifndef XTILE_EMULATION
// Warpgroup tensor cores (xkernel.wgmma and its fences; sm_90a). An
// operand in the 128-byte swizzle layout is described by its shared
// address / 16, a leading-dimension offset / 16 (the bytes between an
// N-major B's panels; 1, unused, for a K-major operand), a stride of 1024
// bytes between 8-row groups and the swizzle mode 1.
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define XT_WGMMA_ASM(...) asm volatile(__VA_ARGS__)
#elif defined(__CUDA_ARCH__)
#define XT_WGMMA_ASM(...) __trap() // wgmma kernels are built for sm_90a
#else
#define XT_WGMMA_ASM(...)
#endif
__device__ __forceinline__ uint64_t xt_wgmma_desc(const void *p,
                                                  uint32_t panel = 16) {
  uint64_t a = (uint32_t)__cvta_generic_to_shared(p);
  return (a & 0x3ffff) >> 4 | uint64_t(panel >> 4) << 16 |
         uint64_t(64) << 32 | uint64_t(1) << 62;
}
__device__ __forceinline__ void xt_wgmma_fence() {
  XT_WGMMA_ASM("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void xt_wgmma_commit() {
  XT_WGMMA_ASM("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N> __device__ __forceinline__ void xt_wgmma_wait() {
  XT_WGMMA_ASM("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// A wait that leaves N groups in flight whose accumulators the next
// wgmma takes (a pipelined K loop). ptxas serializes every wgmma of such
// a loop as nvcc emits it (C7514), so here it waits for every group; the
// PTX path (--mlir-to-ptx) keeps the group in flight.
template <int N> __device__ __forceinline__ void xt_wgmma_wait_in_flight() {
  XT_WGMMA_ASM("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
__device__ __forceinline__ void xt_fence_proxy_async() {
  XT_WGMMA_ASM("fence.proxy.async.shared::cta;\n" ::: "memory");
}
// Every thread of the warpgroup goes to N registers (setmaxnreg): fewer
// for a producer warpgroup, more for the consumers.
template <int N> __device__ __forceinline__ void xt_setmaxnreg_dec() {
  XT_WGMMA_ASM("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
}
template <int N> __device__ __forceinline__ void xt_setmaxnreg_inc() {
  XT_WGMMA_ASM("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
}
#endif
#ifndef XTILE_EMULATION
// bar.sync `id`, `threads`: the threads of a part of the block meet (a
// named barrier, 1 to 15).
__device__ __forceinline__ void xt_named_barrier(unsigned id,
                                                 unsigned threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}
#endif
#ifndef XTILE_EMULATION
// Bulk tensor copies (TMA) and mbarriers (xkernel.tma_load,
// xkernel.mbarrier_*; sm_90). An mbarrier is 8 bytes of shared memory,
// 8-byte aligned; a tensor map is the 128 bytes xt_tensor_map wrote to
// global memory. The emulation header models them (a copy lands when a
// thread waits on its mbarrier).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define XT_TMA_ASM(...) asm volatile(__VA_ARGS__)
#elif defined(__CUDA_ARCH__)
#define XT_TMA_ASM(...) __trap() // TMA kernels are built for sm_90 and later
#else
#define XT_TMA_ASM(...)
#endif
// Phase 0, `count` arrivals expected per phase, no bytes; the fence shows
// the initialization to the bulk copies (the async proxy).
__device__ __forceinline__ void xt_mbarrier_init(uint64_t *bar,
                                                 unsigned count) {
  XT_TMA_ASM("mbarrier.init.shared::cta.b64 [%0], %1;\n"
             "fence.mbarrier_init.release.cluster;\n"
             ::"r"((unsigned)__cvta_generic_to_shared(bar)), "r"(count)
             : "memory");
}
// The current phase also waits for `bytes` bytes of bulk copies; then this
// thread arrives.
__device__ __forceinline__ void xt_mbarrier_arrive_expect_tx(uint64_t *bar,
                                                             unsigned bytes) {
  XT_TMA_ASM("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
             ::"r"((unsigned)__cvta_generic_to_shared(bar)), "r"(bytes)
             : "memory");
}
// This thread arrives on the current phase (release).
__device__ __forceinline__ void xt_mbarrier_arrive(uint64_t *bar) {
  XT_TMA_ASM("mbarrier.arrive.shared::cta.b64 _, [%0];\n"
             ::"r"((unsigned)__cvta_generic_to_shared(bar))
             : "memory");
}
// Returns once the phase of `parity` (its number modulo 2) has completed;
// what the bulk copies of that phase wrote is then visible.
__device__ __forceinline__ void xt_mbarrier_wait(uint64_t *bar,
                                                 unsigned parity) {
  unsigned done = 0;
  while (!done)
    XT_TMA_ASM("{\n.reg .pred p;\n"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
               "selp.u32 %0, 1, 0, p;\n}\n"
               : "=r"(done)
               : "r"((unsigned)__cvta_generic_to_shared(bar)), "r"(parity)
               : "memory");
}
// Copies the box of the tensor map at `map` (a generic address of global
// memory) whose first element is at c0 (innermost), c1, ... into shared
// memory at `dst` (128-byte aligned); its bytes complete on `bar`.
#define XT_TMA_LOAD(rank, coords, ...)                                        \
  XT_TMA_ASM("cp.async.bulk.tensor." rank "d.shared::cluster.global."         \
             "mbarrier::complete_tx::bytes [%0], [%1, {" coords "}], [%2];\n" \
             ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(map),        \
             "r"((unsigned)__cvta_generic_to_shared(bar)), __VA_ARGS__        \
             : "memory")
__device__ __forceinline__ void xt_tma_load(void *dst, const void *map,
                                            uint64_t *bar, int c0) {
  XT_TMA_LOAD("1", "%3", "r"(c0));
}
__device__ __forceinline__ void xt_tma_load(void *dst, const void *map,
                                            uint64_t *bar, int c0, int c1) {
  XT_TMA_LOAD("2", "%3, %4", "r"(c0), "r"(c1));
}
__device__ __forceinline__ void xt_tma_load(void *dst, const void *map,
                                            uint64_t *bar, int c0, int c1,
                                            int c2) {
  XT_TMA_LOAD("3", "%3, %4, %5", "r"(c0), "r"(c1), "r"(c2));
}
__device__ __forceinline__ void xt_tma_load(void *dst, const void *map,
                                            uint64_t *bar, int c0, int c1,
                                            int c2, int c3) {
  XT_TMA_LOAD("4", "%3, %4, %5, %6", "r"(c0), "r"(c1), "r"(c2), "r"(c3));
}
__device__ __forceinline__ void xt_tma_load(void *dst, const void *map,
                                            uint64_t *bar, int c0, int c1,
                                            int c2, int c3, int c4) {
  XT_TMA_LOAD("5", "%3, %4, %5, %6, %7", "r"(c0), "r"(c1), "r"(c2), "r"(c3),
              "r"(c4));
}
#undef XT_TMA_LOAD
// The driver's cuTensorMapEncodeTiled (CUDA 12.0), found at run time (no
// libcuda at link time): writes into `encoded` (128 bytes, 64-byte aligned)
// the tensor map of `rank` dimensions `dims` with byte strides `strides`
// (of dimensions 1 to rank - 1) and box `box`, all innermost first, element
// strides 1, swizzle `swizzle` (the driver's enum), interleave none, L2
// promotion 128 bytes, elements outside the tensor read as zero. The
// emulation has its own.
inline cudaError_t xt_encode_tensor_map(void *encoded, int dtype,
                                        unsigned rank, const void *base,
                                        const uint64_t *dims,
                                        const uint64_t *strides,
                                        const uint32_t *box, int swizzle) {
  // Its enum arguments are ints.
  typedef int (*Encode)(void *, int, unsigned, void *, const uint64_t *,
                        const uint64_t *, const uint32_t *, const uint32_t *,
                        int, int, int, int);
  void *encode = nullptr;
  cudaDriverEntryPointQueryResult found;
#if CUDART_VERSION >= 12050
  cudaError_t err = cudaGetDriverEntryPointByVersion(
      "cuTensorMapEncodeTiled", &encode, 12000, cudaEnableDefault, &found);
#else
  cudaError_t err = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &encode,
                                            cudaEnableDefault, &found);
#endif
  if (err != cudaSuccess)
    return err;
  if (found != cudaDriverEntryPointSuccess || !encode)
    return cudaErrorNotSupported;
  const uint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  return ((Encode)encode)(encoded, dtype, rank, (void *)base, dims, strides,
                          box, elementStrides, 0, swizzle, 2, 0) != 0
             ? cudaErrorInvalidValue
             : cudaSuccess;
}
#endif
// xkernel.tensor_map: allocates 128 bytes of device memory on `stream` into
// *map and writes there the tensor map (CUtensorMap) of the row-major
// tensor at `base`: `rank` dimensions `dims` and a box `box` (both
// outermost first) of elements of `elementBytes` bytes and
// CUtensorMapDataType `dtype`, swizzled by `swizzleBytes` (0, 32, 64 or
// 128), elements outside the tensor read as zero.
inline cudaError_t xt_tensor_map(void **map, const void *base, int dtype,
                                 int rank, const uint64_t *dims,
                                 int elementBytes, const uint32_t *box,
                                 int swizzleBytes, cudaStream_t stream) {
  *map = nullptr;
  int swizzle = swizzleBytes == 0    ? 0
                : swizzleBytes == 32  ? 1
                : swizzleBytes == 64  ? 2
                : swizzleBytes == 128 ? 3
                                      : -1;
  if (rank < 1 || rank > 5 || swizzle < 0)
    return cudaErrorInvalidValue;
  // The driver takes dimensions innermost first, and the byte strides of
  // dimensions 1 to rank - 1.
  uint64_t globalDim[5], globalStrides[5] = {}, stride = (uint64_t)elementBytes;
  uint32_t boxDim[5];
  for (int i = 0; i < rank; ++i) {
    globalDim[i] = dims[rank - 1 - i];
    boxDim[i] = box[rank - 1 - i];
  }
  for (int i = 1; i < rank; ++i)
    globalStrides[i - 1] = stride *= globalDim[i - 1];
  struct alignas(64) {
    unsigned char bytes[128];
  } encoded;
  cudaError_t err =
      xt_encode_tensor_map(&encoded, dtype, (unsigned)rank, base, globalDim,
                           globalStrides, boxDim, swizzle);
  if (err != cudaSuccess)
    return err;
  if ((err = cudaMallocAsync(map, sizeof encoded, stream)) != cudaSuccess) {
    *map = nullptr;
    return err;
  }
  // From pageable memory: the call returns once it has staged the bytes.
  if ((err = cudaMemcpyAsync(*map, &encoded, sizeof encoded,
                             cudaMemcpyHostToDevice, stream)) != cudaSuccess) {
    cudaFreeAsync(*map, stream);
    *map = nullptr;
  }
  return err;
}
// A value that a wgmma wrote, read only after xkernel.wgmma_wait: the empty
// volatile asm keeps the reads after the wait.
template <int N>
__device__ __forceinline__ xt_vec<float, N> xt_wgmma_ready(xt_vec<float, N> v) {
#ifndef XTILE_EMULATION
  for (int i = 0; i < N; ++i)
    asm volatile("" : "+f"(v.v[i])::"memory");
#endif
  return v;
}
// xkernel.ldmatrix and xkernel.mma on xt_vec fragments (two 16-bit lanes,
// or one f32, per 32-bit register).
template <int N, bool Trans, typename T>
__device__ __forceinline__ xt_vec<T, N * 4 / sizeof(T)> xt_ldmatrix(const T *row) {
  uint32_t r[N];
  xt_ldmatrix_b16<N, Trans>(row, r);
  xt_vec<T, N * 4 / sizeof(T)> v;
  memcpy(v.v, r, sizeof r);
  return v;
}
#define XT_MMA_TYPED(T, name)                                                  \
  __device__ __forceinline__ xt_vec<float, 4> xt_mma(                          \
      xt_vec<T, 16 / sizeof(T)> a, xt_vec<T, 8 / sizeof(T)> b,                 \
      xt_vec<float, 4> c) {                                                    \
    uint32_t A[4], B[2];                                                       \
    memcpy(A, a.v, sizeof A);                                                  \
    memcpy(B, b.v, sizeof B);                                                  \
    name(A, B, c.v);                                                           \
    return c;                                                                  \
  }
XT_MMA_TYPED(__nv_bfloat16, xt_mma_bf16)
XT_MMA_TYPED(__half, xt_mma_f16)
XT_MMA_TYPED(float, xt_mma_tf32)
XT_MMA_TYPED(xt_e4m3, xt_mma_e4m3)
XT_MMA_TYPED(xt_e5m2, xt_mma_e5m2)
#undef XT_MMA_TYPED
#endif // XTILE_CUDA_PRELUDE
)cuda";

/// The operand type of wgmma on `element`, as PTX spells it.
static std::string wgmmaPtxType(Type element) {
  if (element.isBF16())
    return "bf16";
  if (element.isF16())
    return "f16";
  if (element.isF32())
    return "tf32";
  return isa<Float8E4M3FNType>(element) ? "e4m3" : "e5m2";
}

/// The name of the helper that issues wgmma m64nNkK on `element`, with B
/// K-major or N-major (`_tb`, transposed).
static std::string wgmmaHelper(int64_t n, Type element, bool nMajor) {
  std::string type = wgmmaPtxType(element);
  return "xt_wgmma_" + type + "_n" + std::to_string(n) +
         (nMajor ? "_tb" : "");
}

/// One function per wgmma shape, type and B orientation the module uses:
/// the instruction takes its N / 2 accumulators as separate registers. An
/// N-major B's helper takes the bytes between its panels. Under the
/// emulation, the header's model of the instruction. `type` is the
/// operands' CUDA C type (CUDAEmitter::typeName).
static void emitWgmmaHelper(raw_ostream &os, xk::WgmmaOp w,
                            const std::string &type) {
  int64_t n = w.getN(), k = w.getK();
  Type element = w.getA().getType().getElementType();
  bool nMajor = w.getBPanelBytes().has_value();
  // The emulation's model of the instruction takes fp8 as its own byte
  // types.
  std::string emulated = !xtile::isFp8(element) ? type
                         : isa<Float8E4M3FNType>(element)
                             ? "xt_emu::WgmmaE4M3"
                             : "xt_emu::WgmmaE5M2";
  std::string ptx = wgmmaPtxType(element);
  // Only 16-bit operands take the transpose immediates.
  bool transposes = element.getIntOrFloatBitWidth() == 16;
  std::string descB = nMajor ? "xt_wgmma_desc(b, panel)" : "xt_wgmma_desc(b)";
  int64_t regs = n / 2;
  // Each operand comes as its buffer and an offset in it: the buffer's
  // descriptor (the same for every wgmma of a loop) plus the offset in
  // 16-byte units (shared addresses stay below 2^18: no carry).
  os << "__device__ __forceinline__ xt_vec<float, " << regs << "> "
     << wgmmaHelper(n, element, nMajor) << "(const " << type
     << " *a, int64_t oa, const " << type << " *b, int64_t ob, "
     << (nMajor ? "uint32_t panel, " : "") << "xt_vec<float, " << regs
     << "> d) {\n"
     << "#ifdef XTILE_EMULATION\n"
     << "  a += oa;\n"
     << "  b += ob;\n"
     << "  xt_emu::wgmma<" << n << ", " << emulated << ", "
     << (nMajor ? "true" : "false") << ">(xt_wgmma_desc(a), " << descB
     << ", d.v);\n"
     << "#else\n"
     << "  uint64_t da = xt_wgmma_desc(a) + ((uint64_t)oa * sizeof(*a) >> 4), "
        "db = "
     << descB << " + ((uint64_t)ob * sizeof(*b) >> 4);\n"
     << "  XT_WGMMA_ASM(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, 1, 0;\\n\"\n"
     << "      \"wgmma.mma_async.sync.aligned.m64n" << n << "k" << k
     << ".f32." << ptx << "." << ptx << " {";
  for (int64_t i = 0; i < regs; ++i)
    os << (i ? ", " : "") << "%" << i;
  // tf32 and fp8 take no transpose operands (K-major only).
  os << "}, %" << regs << ", %" << regs + 1 << ", p, 1, 1"
     << (!transposes ? "" : nMajor ? ", 0, 1" : ", 0, 0")
     << ";\\n}\\n\"\n      : ";
  for (int64_t i = 0; i < regs; ++i)
    os << (i ? ", " : "") << "\"+f\"(d.v[" << i << "])";
  os << "\n      : \"l\"(da), \"l\"(db) : \"memory\");\n"
     << "#endif\n"
     << "  return d;\n"
     << "}\n";
}

class CUDAEmitter {
public:
  explicit CUDAEmitter(raw_ostream &os) : os(os) {}

  LogicalResult emitModule(Operation *module);

private:
  LogicalResult emitKernel(xk::FuncOp func);
  LogicalResult emitProgram(xk::ProgramOp program);
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOperation(Operation *op);
  LogicalResult emitFor(scf::ForOp op);
  LogicalResult emitIf(scf::IfOp op);
  LogicalResult emitArith(Operation *op);
  LogicalResult emitMath(Operation *op);
  LogicalResult emitKernelOp(Operation *op);
  LogicalResult emitVector(Operation *op);

  FailureOr<std::string> typeName(Type type, Operation *where);
  FailureOr<std::string> literal(Attribute attr, Operation *where);
  std::string name(Value v) { return names.lookup(v); }
  /// Declares a fresh variable for `v`: "T name = ".
  FailureOr<std::string> declare(Value v, Operation *where,
                                 StringRef hint = "v");
  LogicalResult assign(Value v, Operation *where, const Twine &expr,
                       StringRef hint = "v");
  /// `v` as a float expression (16-bit floats are widened).
  std::string asFloat(Value v);
  /// `expr`, of float type, converted to `type`.
  std::string fromFloat(const std::string &expr, Type type);

  raw_indented_ostream os;
  DenseMap<Value, std::string> names;
  llvm::StringMap<unsigned> counters;
  bool usesDynamicShared = false;
};

static bool isHalfLike(Type t) { return t.isF16() || t.isBF16(); }

/// Whether `name` is a function of the C standard library that every CUDA
/// translation unit declares (<math.h>, <stdlib.h>, <string.h>, <stdio.h>,
/// the float and long double variants of the math functions, and POSIX
/// functions their headers declare on Linux): an
/// `extern "C"` definition of that name does not compile.
static bool isCLibraryName(StringRef name) {
  static const llvm::StringSet<> math = {
      "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt",
      "ceil", "copysign", "cos", "cosh", "erf", "erfc", "exp", "exp2",
      "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod",
      "frexp", "hypot", "ilogb", "ldexp", "lgamma", "llrint", "llround",
      "log", "log10", "log1p", "log2", "logb", "lrint", "lround", "modf",
      "nan", "nearbyint", "nextafter", "nexttoward", "pow", "remainder",
      "remquo", "rint", "round", "scalbln", "scalbn", "sin", "sinh", "sqrt",
      "tan", "tanh", "tgamma", "trunc", "rsqrt", "sincos", "exp10", "erfinv",
      "erfcinv", "normcdf", "rcbrt", "sinpi", "cospi", "j0", "j1", "jn",
      "y0", "y1", "yn", "gamma", "significand", "signbit", "isnan", "isinf",
      "isfinite", "fpclassify", "finite", "drem"};
  static const llvm::StringSet<> other = {
      "abs", "labs", "llabs", "div", "ldiv", "lldiv", "abort", "exit",
      "_Exit", "quick_exit", "atexit", "at_quick_exit", "atof", "atoi",
      "atol", "atoll", "strtod", "strtof", "strtold", "strtol", "strtoll",
      "strtoul", "strtoull", "rand", "srand", "random", "srandom", "malloc",
      "calloc", "realloc", "free", "aligned_alloc", "posix_memalign",
      "getenv", "setenv", "unsetenv", "system", "bsearch", "qsort", "mblen",
      "mbtowc", "wctomb", "mbstowcs", "wcstombs", "memcpy", "memmove",
      "memset", "memcmp", "memchr", "strcpy", "strncpy", "strcat",
      "strncat", "strcmp", "strncmp", "strcoll", "strxfrm", "strchr",
      "strrchr", "strspn", "strcspn", "strpbrk", "strstr", "strtok",
      "strerror", "strlen", "strdup", "printf", "fprintf", "sprintf",
      "snprintf", "vprintf", "vfprintf", "vsprintf", "vsnprintf", "scanf",
      "fscanf", "sscanf", "puts", "fputs", "gets", "fgets", "putchar",
      "getchar", "fputc", "fgetc", "putc", "getc", "ungetc", "fopen",
      "freopen", "fclose", "fflush", "fread", "fwrite", "fseek", "ftell",
      "rewind", "fgetpos", "fsetpos", "feof", "ferror", "clearerr", "perror",
      "remove", "rename", "tmpfile", "tmpnam", "setbuf", "setvbuf", "time",
      "clock", "select", "read", "write", "open", "close", "signal",
      "raise", "sleep", "wait", "kill", "fork", "pipe", "dup", "sync"};
  if (math.contains(name) || other.contains(name))
    return true;
  if (name.size() > 1 && (name.back() == 'f' || name.back() == 'l'))
    return math.contains(name.drop_back());
  return false;
}

/// The C name of a kernel or program symbol: the symbol itself, with an
/// underscore appended when it is a C++ keyword (a function named `double`)
/// or a C library function (`exp`). Fails, with an error at `where`, for a
/// symbol that is not an identifier.
static FailureOr<std::string> cName(StringRef symbol, Operation *where) {
  static const llvm::StringSet<> keywords = {
      "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case",
      "catch", "char", "class", "const", "constexpr", "continue", "decltype",
      "default", "delete", "do", "double", "else", "enum", "explicit",
      "export", "extern", "false", "float", "for", "friend", "goto", "if",
      "inline", "int", "long", "mutable", "namespace", "new", "noexcept",
      "not", "nullptr", "operator", "or", "private", "protected", "public",
      "register", "return", "short", "signed", "sizeof", "static", "struct",
      "switch", "template", "this", "throw", "true", "try", "typedef",
      "typeid", "typename", "union", "unsigned", "using", "virtual", "void",
      "volatile", "while", "xor", "main", "dim3"};
  bool identifier =
      !symbol.empty() && !llvm::isDigit(symbol.front()) &&
      llvm::all_of(symbol, [](char c) { return llvm::isAlnum(c) || c == '_'; });
  if (!identifier)
    return where->emitError("cannot emit '")
           << symbol << "' as a CUDA C name: not an identifier";
  return keywords.contains(symbol) || isCLibraryName(symbol)
             ? (symbol + "_").str()
             : symbol.str();
}

FailureOr<std::string> CUDAEmitter::typeName(Type type, Operation *where) {
  if (type.isF32())
    return std::string("float");
  if (type.isF64())
    return std::string("double");
  if (type.isF16())
    return std::string("__half");
  if (type.isBF16())
    return std::string("__nv_bfloat16");
  if (isa<Float8E4M3FNType>(type))
    return std::string("xt_e4m3");
  if (isa<Float8E5M2Type>(type))
    return std::string("xt_e5m2");
  if (type.isIndex())
    return std::string("int64_t");
  if (type.isInteger(1))
    return std::string("bool");
  if (auto i = dyn_cast<IntegerType>(type)) {
    unsigned w = i.getWidth();
    if (w == 8 || w == 16 || w == 32 || w == 64)
      return "int" + std::to_string(w) + "_t";
  }
  if (auto vec = dyn_cast<VectorType>(type)) {
    if (vec.getRank() == 1) {
      FailureOr<std::string> element = typeName(vec.getElementType(), where);
      if (failed(element))
        return failure();
      return "xt_vec<" + *element + ", " + std::to_string(vec.getDimSize(0)) +
             ">";
    }
  }
  if (auto ptr = dyn_cast<xk::PtrType>(type)) {
    FailureOr<std::string> element = typeName(ptr.getElementType(), where);
    if (failed(element))
      return failure();
    return *element + "*";
  }
  return where->emitError("cannot emit type ") << type << " as CUDA C";
}

static std::string unsignedName(Type type) {
  if (type.isIndex())
    return "uint64_t";
  unsigned w = type.getIntOrFloatBitWidth();
  if (w == 1)
    return "bool";
  return "uint" + std::to_string(w) + "_t";
}

FailureOr<std::string> CUDAEmitter::literal(Attribute attr, Operation *where) {
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    APFloat v = f.getValue();
    Type t = f.getType();
    uint64_t bits = v.bitcastToAPInt().getZExtValue();
    if (isHalfLike(t))
      return std::string(t.isF16() ? "__ushort_as_half" : "__ushort_as_bfloat16") +
             "((unsigned short)0x" + llvm::utohexstr(bits) + "U)";
    if (xtile::isFp8(t))
      return *typeName(t, where) + "{(unsigned char)0x" + llvm::utohexstr(bits) +
             "U}";
    if (!v.isFinite())
      return t.isF32() ? "__int_as_float(0x" + llvm::utohexstr(bits) + ")"
                       : "__longlong_as_double(0x" + llvm::utohexstr(bits) +
                             "LL)";
    SmallString<32> text;
    v.toString(text, /*FormatPrecision=*/0, /*FormatMaxPadding=*/6);
    std::string s(text);
    if (s.find_first_of(".eE") == std::string::npos)
      s += ".0";
    if (t.isF32())
      s += "f";
    else if (!t.isF64())
      return where->emitError("cannot emit a constant of type ") << t;
    return s;
  }
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    Type t = i.getType();
    if (t.isInteger(1))
      return std::string(i.getValue().isZero() ? "false" : "true");
    int64_t v = t.isIndex() ? i.getInt() : i.getValue().getSExtValue();
    if (v == INT64_MIN)
      return std::string("(-9223372036854775807LL - 1)");
    std::string s = std::to_string(v);
    if (v > INT32_MAX || v < INT32_MIN)
      s += "LL";
    unsigned w = t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
    if (w < 32) {
      FailureOr<std::string> type = typeName(t, where);
      if (failed(type))
        return failure();
      return "(" + *type + ")" + s;
    }
    return s;
  }
  return where->emitError("cannot emit constant ") << attr << " as CUDA C";
}

FailureOr<std::string> CUDAEmitter::declare(Value v, Operation *where,
                                            StringRef hint) {
  FailureOr<std::string> type = typeName(v.getType(), where);
  if (failed(type))
    return failure();
  std::string n = hint.str() + std::to_string(counters[hint]++);
  names[v] = n;
  return *type + " " + n + " = ";
}

LogicalResult CUDAEmitter::assign(Value v, Operation *where, const Twine &expr,
                                  StringRef hint) {
  FailureOr<std::string> decl = declare(v, where, hint);
  if (failed(decl))
    return failure();
  os << *decl << expr << ";\n";
  return success();
}

std::string CUDAEmitter::asFloat(Value v) {
  Type t = v.getType();
  if (t.isF16())
    return "__half2float(" + name(v) + ")";
  if (t.isBF16())
    return "__bfloat162float(" + name(v) + ")";
  if (isa<Float8E4M3FNType>(t))
    return "xt_e4m3_to_float(" + name(v) + ")";
  if (isa<Float8E5M2Type>(t))
    return "xt_e5m2_to_float(" + name(v) + ")";
  return name(v);
}

std::string CUDAEmitter::fromFloat(const std::string &expr, Type type) {
  if (type.isF16())
    return "__float2half_rn(" + expr + ")";
  if (type.isBF16())
    return "__float2bfloat16_rn(" + expr + ")";
  if (isa<Float8E4M3FNType>(type))
    return "xt_float_to_e4m3(" + expr + ")";
  if (isa<Float8E5M2Type>(type))
    return "xt_float_to_e5m2(" + expr + ")";
  return expr;
}

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

LogicalResult CUDAEmitter::emitArith(Operation *op) {
  auto bin = [&](StringRef sym) {
    return assign(op->getResult(0), op,
                  name(op->getOperand(0)) + " " + sym + " " +
                      name(op->getOperand(1)));
  };
  auto ubin = [&](StringRef sym) -> LogicalResult {
    Type t = op->getResult(0).getType();
    FailureOr<std::string> type = typeName(t, op);
    if (failed(type))
      return failure();
    std::string u = unsignedName(t);
    return assign(op->getResult(0), op,
                  "(" + *type + ")((" + u + ")" + name(op->getOperand(0)) +
                      " " + sym + " (" + u + ")" + name(op->getOperand(1)) +
                      ")");
  };
  auto fbin = [&](StringRef sym) {
    Type t = op->getResult(0).getType();
    return assign(op->getResult(0), op,
                  fromFloat(asFloat(op->getOperand(0)) + " " + sym.str() +
                                " " + asFloat(op->getOperand(1)),
                            t));
  };
  auto fcall = [&](StringRef f32, StringRef f64) {
    Type t = op->getResult(0).getType();
    std::string args;
    for (Value v : op->getOperands())
      args += (args.empty() ? "" : ", ") + asFloat(v);
    return assign(op->getResult(0), op,
                  fromFloat((t.isF64() ? f64 : f32).str() + "(" + args + ")", t));
  };
  auto cast = [&](Value from, Type to) -> FailureOr<std::string> {
    FailureOr<std::string> type = typeName(to, op);
    if (failed(type))
      return failure();
    return "(" + *type + ")" + name(from);
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::ConstantOp>([&](arith::ConstantOp c) -> LogicalResult {
        if (auto vec = dyn_cast<VectorType>(c.getType())) {
          auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
          if (!dense || !dense.isSplat() || vec.getRank() != 1)
            return op->emitError("cannot emit a vector constant other than "
                                 "a splat as CUDA C");
          FailureOr<std::string> lane =
              literal(dense.getSplatValue<Attribute>(), op);
          if (failed(lane))
            return failure();
          std::string lanes;
          for (int64_t i = 0; i < vec.getDimSize(0); ++i)
            lanes += (i ? ", " : "") + *lane;
          return assign(c.getResult(), op, "{{" + lanes + "}}");
        }
        FailureOr<std::string> text = literal(c.getValue(), op);
        if (failed(text))
          return failure();
        names[c.getResult()] = *text;
        return success();
      })
      .Case<arith::AddIOp>([&](auto) { return bin("+"); })
      .Case<arith::SubIOp>([&](auto) { return bin("-"); })
      .Case<arith::MulIOp>([&](auto) { return bin("*"); })
      .Case<arith::DivSIOp>([&](auto) { return bin("/"); })
      .Case<arith::RemSIOp>([&](auto) { return bin("%"); })
      .Case<arith::AndIOp>([&](auto) { return bin("&"); })
      .Case<arith::OrIOp>([&](auto) { return bin("|"); })
      .Case<arith::XOrIOp>([&](auto) { return bin("^"); })
      .Case<arith::ShLIOp>([&](auto) { return bin("<<"); })
      .Case<arith::ShRSIOp>([&](auto) { return bin(">>"); })
      .Case<arith::DivUIOp>([&](auto) { return ubin("/"); })
      .Case<arith::RemUIOp>([&](auto) { return ubin("%"); })
      .Case<arith::ShRUIOp>([&](auto) { return ubin(">>"); })
      .Case<arith::FloorDivSIOp, arith::CeilDivSIOp>(
          [&](Operation *) -> LogicalResult {
            FailureOr<std::string> type =
                typeName(op->getResult(0).getType(), op);
            if (failed(type))
              return failure();
            const char *fn = isa<arith::FloorDivSIOp>(op) ? "xt_floordiv"
                                                          : "xt_ceildiv";
            return assign(op->getResult(0), op,
                          std::string(fn) + "<" + *type + ">(" +
                              name(op->getOperand(0)) + ", " +
                              name(op->getOperand(1)) + ")");
          })
      .Case<arith::MaxSIOp, arith::MinSIOp>([&](Operation *) {
        StringRef cmp = isa<arith::MaxSIOp>(op) ? " > " : " < ";
        std::string a = name(op->getOperand(0)), b = name(op->getOperand(1));
        return assign(op->getResult(0), op, a + cmp + b + " ? " + a + " : " + b);
      })
      .Case<arith::MaxUIOp, arith::MinUIOp>([&](Operation *) {
        StringRef cmp = isa<arith::MaxUIOp>(op) ? " > " : " < ";
        std::string u = "(" + unsignedName(op->getResult(0).getType()) + ")";
        std::string a = name(op->getOperand(0)), b = name(op->getOperand(1));
        return assign(op->getResult(0), op,
                      u + a + cmp + u + b + " ? " + a + " : " + b);
      })
      .Case<arith::AddFOp>([&](auto) { return fbin("+"); })
      .Case<arith::SubFOp>([&](auto) { return fbin("-"); })
      .Case<arith::MulFOp>([&](auto) { return fbin("*"); })
      .Case<arith::DivFOp>([&](auto) { return fbin("/"); })
      .Case<arith::RemFOp>([&](auto) { return fcall("fmodf", "fmod"); })
      .Case<arith::MaximumFOp>(
          [&](auto) { return fcall("xt_maximumf", "xt_maximum"); })
      .Case<arith::MinimumFOp>(
          [&](auto) { return fcall("xt_minimumf", "xt_minimum"); })
      .Case<arith::MaxNumFOp>([&](auto) { return fcall("fmaxf", "fmax"); })
      .Case<arith::MinNumFOp>([&](auto) { return fcall("fminf", "fmin"); })
      .Case<arith::NegFOp>([&](auto) {
        Type t = op->getResult(0).getType();
        return assign(op->getResult(0), op,
                      fromFloat("-" + asFloat(op->getOperand(0)), t));
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) -> LogicalResult {
        using P = arith::CmpIPredicate;
        std::string a = name(cmp.getLhs()), b = name(cmp.getRhs());
        std::string u = "(" + unsignedName(cmp.getLhs().getType()) + ")";
        std::string e;
        switch (cmp.getPredicate()) {
        case P::eq: e = a + " == " + b; break;
        case P::ne: e = a + " != " + b; break;
        case P::slt: e = a + " < " + b; break;
        case P::sle: e = a + " <= " + b; break;
        case P::sgt: e = a + " > " + b; break;
        case P::sge: e = a + " >= " + b; break;
        case P::ult: e = u + a + " < " + u + b; break;
        case P::ule: e = u + a + " <= " + u + b; break;
        case P::ugt: e = u + a + " > " + u + b; break;
        case P::uge: e = u + a + " >= " + u + b; break;
        }
        return assign(cmp.getResult(), op, e);
      })
      .Case<arith::CmpFOp>([&](arith::CmpFOp cmp) -> LogicalResult {
        using P = arith::CmpFPredicate;
        std::string a = asFloat(cmp.getLhs()), b = asFloat(cmp.getRhs());
        std::string e;
        switch (cmp.getPredicate()) {
        case P::AlwaysFalse: e = "false"; break;
        case P::OEQ: e = a + " == " + b; break;
        case P::OGT: e = a + " > " + b; break;
        case P::OGE: e = a + " >= " + b; break;
        case P::OLT: e = a + " < " + b; break;
        case P::OLE: e = a + " <= " + b; break;
        case P::ONE: e = "(" + a + " < " + b + " || " + a + " > " + b + ")"; break;
        case P::ORD: e = "(" + a + " == " + a + " && " + b + " == " + b + ")"; break;
        case P::UEQ: e = "!(" + a + " < " + b + " || " + a + " > " + b + ")"; break;
        case P::UGT: e = "!(" + a + " <= " + b + ")"; break;
        case P::UGE: e = "!(" + a + " < " + b + ")"; break;
        case P::ULT: e = "!(" + a + " >= " + b + ")"; break;
        case P::ULE: e = "!(" + a + " > " + b + ")"; break;
        case P::UNE: e = a + " != " + b; break;
        case P::UNO: e = "(" + a + " != " + a + " || " + b + " != " + b + ")"; break;
        case P::AlwaysTrue: e = "true"; break;
        }
        return assign(cmp.getResult(), op, e);
      })
      .Case<arith::SelectOp>([&](arith::SelectOp s) {
        return assign(s.getResult(), op,
                      name(s.getCondition()) + " ? " + name(s.getTrueValue()) +
                          " : " + name(s.getFalseValue()));
      })
      .Case<arith::ExtFOp, arith::TruncFOp>([&](Operation *) -> LogicalResult {
        Type to = op->getResult(0).getType();
        std::string f = asFloat(op->getOperand(0));
        if (to.isF64())
          return assign(op->getResult(0), op, "(double)" + f);
        if (op->getOperand(0).getType().isF64() && !to.isF32())
          f = "(float)" + f;
        return assign(op->getResult(0), op,
                      fromFloat(to.isF32() ? "(float)" + f : f, to));
      })
      .Case<arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp>(
          [&](Operation *) -> LogicalResult {
            Value in = op->getOperand(0);
            Type to = op->getResult(0).getType();
            if (isa<arith::ExtSIOp>(op) && in.getType().isInteger(1)) {
              FailureOr<std::string> type = typeName(to, op);
              if (failed(type))
                return failure();
              return assign(op->getResult(0), op,
                            "-(" + *type + ")" + name(in));
            }
            FailureOr<std::string> e = cast(in, to);
            if (failed(e))
              return failure();
            return assign(op->getResult(0), op, *e);
          })
      .Case<arith::ExtUIOp, arith::IndexCastUIOp>(
          [&](Operation *) -> LogicalResult {
            Value in = op->getOperand(0);
            FailureOr<std::string> type =
                typeName(op->getResult(0).getType(), op);
            if (failed(type))
              return failure();
            return assign(op->getResult(0), op,
                          "(" + *type + ")(" + unsignedName(in.getType()) +
                              ")" + name(in));
          })
      .Case<arith::SIToFPOp, arith::UIToFPOp>([&](Operation *) -> LogicalResult {
        Value in = op->getOperand(0);
        Type to = op->getResult(0).getType();
        std::string src = isa<arith::UIToFPOp>(op)
                              ? "(" + unsignedName(in.getType()) + ")" + name(in)
                              : name(in);
        if (to.isF64())
          return assign(op->getResult(0), op, "(double)" + src);
        return assign(op->getResult(0), op, fromFloat("(float)" + src, to));
      })
      .Case<arith::FPToSIOp, arith::FPToUIOp>([&](Operation *) -> LogicalResult {
        Type to = op->getResult(0).getType();
        FailureOr<std::string> type = typeName(to, op);
        if (failed(type))
          return failure();
        std::string f = asFloat(op->getOperand(0));
        if (isa<arith::FPToUIOp>(op))
          return assign(op->getResult(0), op,
                        "(" + *type + ")(" + unsignedName(to) + ")" + f);
        return assign(op->getResult(0), op, "(" + *type + ")" + f);
      })
      .Case<arith::BitcastOp>([&](arith::BitcastOp b) -> LogicalResult {
        Type from = b.getIn().getType(), to = b.getType();
        std::string f;
        if (from.isF32() && to.isInteger(32))
          f = "__float_as_int";
        else if (from.isInteger(32) && to.isF32())
          f = "__int_as_float";
        else if (from.isF64() && to.isInteger(64))
          f = "__double_as_longlong";
        else if (from.isInteger(64) && to.isF64())
          f = "__longlong_as_double";
        else if (from.isF16() && to.isInteger(16))
          f = "(int16_t)__half_as_ushort";
        else if (from.isInteger(16) && to.isF16())
          f = "__ushort_as_half";
        else if (from.isBF16() && to.isInteger(16))
          f = "(int16_t)__bfloat16_as_ushort";
        else if (from.isInteger(16) && to.isBF16())
          f = "__ushort_as_bfloat16";
        else
          return op->emitError("cannot emit a bitcast from ")
                 << from << " to " << to << " as CUDA C";
        return assign(b.getResult(), op, f + "(" + name(b.getIn()) + ")");
      })
      .Default([&](Operation *) {
        return op->emitError("cannot emit '")
               << op->getName() << "' as CUDA C";
      });
}

LogicalResult CUDAEmitter::emitMath(Operation *op) {
  static const llvm::StringMap<std::pair<const char *, const char *>> calls = {
      {"math.exp", {"expf", "exp"}},       {"math.exp2", {"exp2f", "exp2"}},
      {"math.expm1", {"expm1f", "expm1"}}, {"math.log", {"logf", "log"}},
      {"math.log2", {"log2f", "log2"}},    {"math.log10", {"log10f", "log10"}},
      {"math.log1p", {"log1pf", "log1p"}}, {"math.sqrt", {"sqrtf", "sqrt"}},
      {"math.rsqrt", {"rsqrtf", "rsqrt"}}, {"math.tanh", {"tanhf", "tanh"}},
      {"math.erf", {"erff", "erf"}},       {"math.absf", {"fabsf", "fabs"}},
      {"math.sin", {"sinf", "sin"}},       {"math.cos", {"cosf", "cos"}},
      {"math.tan", {"tanf", "tan"}},       {"math.atan", {"atanf", "atan"}},
      {"math.sinh", {"sinhf", "sinh"}},    {"math.cosh", {"coshf", "cosh"}},
      {"math.floor", {"floorf", "floor"}}, {"math.ceil", {"ceilf", "ceil"}},
      {"math.round", {"roundf", "round"}}, {"math.roundeven", {"rintf", "rint"}},
      {"math.trunc", {"truncf", "trunc"}}, {"math.powf", {"powf", "pow"}},
      {"math.atan2", {"atan2f", "atan2"}}, {"math.fma", {"fmaf", "fma"}},
      {"math.copysign", {"copysignf", "copysign"}},
      {"math.cbrt", {"cbrtf", "cbrt"}},    {"math.erfc", {"erfcf", "erfc"}},
  };
  if (auto abs = dyn_cast<math::AbsIOp>(op))
    return assign(abs.getResult(), op,
                  name(abs.getOperand()) + " < 0 ? -" + name(abs.getOperand()) +
                      " : " + name(abs.getOperand()));
  auto it = calls.find(op->getName().getStringRef());
  if (it == calls.end() || op->getNumResults() != 1)
    return op->emitError("cannot emit '") << op->getName() << "' as CUDA C";
  Type t = op->getResult(0).getType();
  if (!isa<FloatType>(t))
    return op->emitError("cannot emit '")
           << op->getName() << "' on " << t << " as CUDA C";
  std::string args;
  for (Value v : op->getOperands())
    args += (args.empty() ? "" : ", ") + asFloat(v);
  const char *fn = t.isF64() ? it->second.second : it->second.first;
  return assign(op->getResult(0), op,
                fromFloat(std::string(fn) + "(" + args + ")", t));
}

//===----------------------------------------------------------------------===//
// Vectors and Kernel IR
//===----------------------------------------------------------------------===//

LogicalResult CUDAEmitter::emitVector(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<vector::ExtractOp>([&](vector::ExtractOp e) -> LogicalResult {
        std::optional<int64_t> pos;
        if (e.getStaticPosition().size() == 1 &&
            e.getStaticPosition()[0] != ShapedType::kDynamic)
          pos = e.getStaticPosition()[0];
        if (!pos || e.getSourceVectorType().getRank() != 1)
          return op->emitError("cannot emit a vector.extract other than of "
                               "one static lane as CUDA C");
        return assign(e.getResult(), op,
                      name(e.getSource()) + ".v[" + std::to_string(*pos) + "]");
      })
      .Case<vector::FromElementsOp>([&](vector::FromElementsOp f) {
        std::string lanes;
        for (Value v : f.getElements())
          lanes += (lanes.empty() ? "" : ", ") + name(v);
        return assign(f.getResult(), op, "{{" + lanes + "}}");
      })
      .Case<vector::BroadcastOp>([&](vector::BroadcastOp bc) -> LogicalResult {
        auto type = dyn_cast<VectorType>(bc.getType());
        if (!type || type.getRank() != 1 || isa<VectorType>(bc.getSourceType()))
          return op->emitError("cannot emit a vector.broadcast other than of "
                               "a scalar to a 1-d vector as CUDA C");
        std::string lanes;
        for (int64_t i = 0; i < type.getDimSize(0); ++i)
          lanes += (i ? ", " : "") + name(bc.getSource());
        return assign(bc.getResult(), op, "{{" + lanes + "}}");
      })
      .Default([&](Operation *) {
        return op->emitError("cannot emit '")
               << op->getName() << "' as CUDA C";
      });
}

static const char *dimName(xk::Dim d) {
  switch (d) {
  case xk::Dim::x:
    return "x";
  case xk::Dim::y:
    return "y";
  case xk::Dim::z:
    return "z";
  }
  return "x";
}

LogicalResult CUDAEmitter::emitKernelOp(Operation *op) {
  auto access = [&](Value ptr, Value offset) {
    return name(ptr) + " + " + name(offset);
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<xk::ThreadIdOp>([&](xk::ThreadIdOp id) {
        return assign(id.getResult(), op,
                      Twine("(int64_t)threadIdx.") + dimName(id.getDim()),
                      "tid");
      })
      .Case<xk::BlockIdOp>([&](xk::BlockIdOp id) {
        return assign(id.getResult(), op,
                      Twine("(int64_t)blockIdx.") + dimName(id.getDim()),
                      "block");
      })
      .Case<xk::BlockDimOp>([&](xk::BlockDimOp id) {
        return assign(id.getResult(), op,
                      Twine("(int64_t)blockDim.") + dimName(id.getDim()),
                      "threads");
      })
      .Case<xk::GridDimOp>([&](xk::GridDimOp id) {
        return assign(id.getResult(), op,
                      Twine("(int64_t)gridDim.") + dimName(id.getDim()),
                      "blocks");
      })
      .Case<xk::DivFullOp>([&](xk::DivFullOp d) {
        return assign(d.getResult(), op,
                      "xt_div_full(" + name(d.getLhs()) + ", " +
                          name(d.getRhs()) + ")");
      })
      .Case<xk::ApproxOp>([&](xk::ApproxOp a) {
        std::string fn = ("xt_" + xk::stringifyApproxKind(a.getKind()) +
                          (a.getFtz() ? "_ftz" : ""))
                             .str();
        return assign(a.getResult(), op, fn + "(" + name(a.getValue()) + ")");
      })
      .Case<xk::SharedOp>([&](xk::SharedOp s) -> LogicalResult {
        FailureOr<std::string> element =
            typeName(s.getType().getElementType(), op);
        if (failed(element))
          return failure();
        std::string n = "shared" + std::to_string(counters["shared"]++);
        names[s.getResult()] = n;
        // 16-byte aligned, as vector accesses, cp.async and ldmatrix need.
        os << "__shared__ __align__(16) " << *element << " " << n << "["
           << s.getSize() << "];\n";
        return success();
      })
      .Case<xk::DynamicSharedOp>([&](xk::DynamicSharedOp s) -> LogicalResult {
        FailureOr<std::string> element =
            typeName(s.getType().getElementType(), op);
        if (failed(element))
          return failure();
        if (!usesDynamicShared) {
          bool wgmma = false;
          op->getParentOfType<xk::FuncOp>().walk(
              [&](xk::WgmmaOp) { wgmma = true; });
          os << (wgmma ? "XT_DYNAMIC_SHARED_1024" : "XT_DYNAMIC_SHARED")
             << "(xt_dynamic_shared);\n";
          usesDynamicShared = true;
        }
        return assign(s.getResult(), op,
                      "reinterpret_cast<" + *element +
                          "*>(xt_dynamic_shared + " +
                          std::to_string(s.getOffset()) + ")",
                      "stage");
      })
      .Case<xk::LoadOp>([&](xk::LoadOp l) -> LogicalResult {
        if (isa<VectorType>(l.getType())) {
          FailureOr<std::string> type = typeName(l.getType(), op);
          if (failed(type))
            return failure();
          return assign(l.getResult(), op,
                        "*reinterpret_cast<const " + *type + "*>(" +
                            access(l.getPtr(), l.getOffset()) + ")");
        }
        return assign(l.getResult(), op,
                      name(l.getPtr()) + "[" + name(l.getOffset()) + "]");
      })
      .Case<xk::StoreOp>([&](xk::StoreOp s) -> LogicalResult {
        if (isa<VectorType>(s.getValue().getType())) {
          FailureOr<std::string> type = typeName(s.getValue().getType(), op);
          if (failed(type))
            return failure();
          os << "*reinterpret_cast<" << *type << "*>("
             << access(s.getPtr(), s.getOffset()) << ") = "
             << name(s.getValue()) << ";\n";
          return success();
        }
        os << name(s.getPtr()) << "[" << name(s.getOffset())
           << "] = " << name(s.getValue()) << ";\n";
        return success();
      })
      .Case<xk::AtomicOp>([&](xk::AtomicOp a) -> LogicalResult {
        Type t = a.getValue().getType();
        bool isFloat = isa<FloatType>(t);
        const char *fn = nullptr;
        switch (a.getKind()) {
        case xk::AtomicKind::add:
          fn = "atomicAdd";
          break;
        case xk::AtomicKind::max:
          fn = isFloat ? nullptr : "atomicMax";
          break;
        case xk::AtomicKind::min:
          fn = isFloat ? nullptr : "atomicMin";
          break;
        }
        bool supported = fn && (t.isF32() || t.isF64() || t.isInteger(32) ||
                                (t.isInteger(64) &&
                                 a.getKind() == xk::AtomicKind::add));
        if (!supported)
          return op->emitError("cannot emit an atomic ")
                 << stringifyAtomicKind(a.getKind()) << " on " << t
                 << " as CUDA C";
        std::string ptr = access(a.getPtr(), a.getOffset());
        if (t.isInteger(64))
          return assign(a.getResult(), op,
                        "(int64_t)atomicAdd((unsigned long long*)(" + ptr +
                            "), (unsigned long long)" + name(a.getValue()) +
                            ")");
        return assign(a.getResult(), op,
                      std::string(fn) + "(" + ptr + ", " + name(a.getValue()) +
                          ")");
      })
      .Case<xk::AsyncCopyOp>([&](xk::AsyncCopyOp c) {
        std::string valid =
            c.getValid() ? name(c.getValid()) : std::to_string(c.getBytes());
        os << "xt_cp_async<" << c.getBytes() << ">("
           << access(c.getDst(), c.getDstOffset()) << ", "
           << access(c.getSrc(), c.getSrcOffset()) << ", " << valid << ");\n";
        return success();
      })
      .Case<xk::AsyncCommitOp>([&](auto) {
        os << "xt_cp_async_commit();\n";
        return success();
      })
      .Case<xk::MbarrierInitOp>([&](xk::MbarrierInitOp m) {
        os << "xt_mbarrier_init((uint64_t*)(" << access(m.getBar(), m.getOffset())
           << "), " << m.getCount() << ");\n";
        return success();
      })
      .Case<xk::MbarrierExpectTxOp>([&](xk::MbarrierExpectTxOp m) {
        os << "xt_mbarrier_arrive_expect_tx((uint64_t*)("
           << access(m.getBar(), m.getOffset()) << "), " << m.getBytes()
           << ");\n";
        return success();
      })
      .Case<xk::MbarrierWaitOp>([&](xk::MbarrierWaitOp m) {
        os << "xt_mbarrier_wait((uint64_t*)(" << access(m.getBar(), m.getOffset())
           << "), (unsigned)" << name(m.getParity()) << ");\n";
        return success();
      })
      .Case<xk::TmaLoadOp>([&](xk::TmaLoadOp t) {
        // The helpers take the coordinates innermost first, as PTX does.
        os << "xt_tma_load(" << access(t.getDst(), t.getDstOffset()) << ", "
           << name(t.getMap()) << ", (uint64_t*)("
           << access(t.getBar(), t.getBarOffset()) << ")";
        for (Value c : llvm::reverse(t.getCoords()))
          os << ", " << name(c);
        os << ");\n";
        return success();
      })
      .Case<xk::AsyncWaitOp>([&](xk::AsyncWaitOp w) {
        os << "xt_cp_async_wait<" << w.getPending() << ">();\n";
        return success();
      })
      .Case<xk::BarrierOp>([&](xk::BarrierOp bar) {
        if (bar.getId())
          os << "xt_named_barrier(" << *bar.getId() << ", "
             << *bar.getThreads() << ");\n";
        else
          os << "__syncthreads();\n";
        return success();
      })
      .Case<xk::MbarrierArriveOp>([&](xk::MbarrierArriveOp m) {
        os << "xt_mbarrier_arrive((uint64_t*)("
           << access(m.getBar(), m.getOffset()) << "));\n";
        return success();
      })
      .Case<xk::SetMaxRegistersOp>([&](xk::SetMaxRegistersOp r) {
        os << (r.getIncrease() ? "xt_setmaxnreg_inc<" : "xt_setmaxnreg_dec<")
           << r.getCount() << ">();\n";
        return success();
      })
      .Case<xk::LdMatrixOp>([&](xk::LdMatrixOp l) {
        return assign(l.getResult(), op,
                      "xt_ldmatrix<" + std::to_string(l.getNumMatrices()) +
                          ", " + (l.getTrans() ? "true" : "false") + ">(" +
                          access(l.getPtr(), l.getOffset()) + ")");
      })
      .Case<xk::WgmmaOp>([&](xk::WgmmaOp w) {
        std::optional<int64_t> panel = w.getBPanelBytes();
        return assign(
            w.getResult(), op,
            wgmmaHelper(w.getN(), w.getA().getType().getElementType(),
                        panel.has_value()) +
                "(" + name(w.getA()) + ", " + name(w.getAOffset()) + ", " +
                name(w.getB()) + ", " + name(w.getBOffset()) + ", " +
                (panel ? std::to_string(*panel) + ", " : "") +
                name(w.getAcc()) + ")");
      })
      .Case<xk::WgmmaFenceOp>([&](auto) {
        os << "xt_wgmma_fence();\n";
        return success();
      })
      .Case<xk::WgmmaCommitOp>([&](auto) {
        os << "xt_wgmma_commit();\n";
        return success();
      })
      .Case<xk::WgmmaWaitOp>([&](xk::WgmmaWaitOp w) -> LogicalResult {
        // A wait that passes nothing leaves groups in flight whose
        // accumulators only the next wgmma takes.
        os << (w.getPending() && w.getValues().empty()
                   ? "xt_wgmma_wait_in_flight<"
                   : "xt_wgmma_wait<")
           << w.getPending() << ">();\n";
        for (auto [from, to] : llvm::zip(w.getValues(), w.getResults()))
          if (failed(assign(to, op, "xt_wgmma_ready(" + name(from) + ")")))
            return failure();
        return success();
      })
      .Case<xk::FenceProxyAsyncOp>([&](auto) {
        os << "xt_fence_proxy_async();\n";
        return success();
      })
      .Case<xk::RoundTf32Op>([&](xk::RoundTf32Op r) {
        return assign(r.getResult(), op,
                      "xt_round_tf32(" + name(r.getValue()) + ")");
      })
      .Case<xk::MmaOp>([&](xk::MmaOp m) {
        return assign(m.getResult(), op,
                      "xt_mma(" + name(m.getA()) + ", " +
                          name(m.getB()) + ", " + name(m.getC()) + ")");
      })
      .Case<xk::ShuffleOp>([&](xk::ShuffleOp s) {
        const char *fn = s.getKind() == xk::ShuffleKind::Xor ? "__shfl_xor_sync"
                         : s.getKind() == xk::ShuffleKind::down
                             ? "__shfl_down_sync"
                             : "__shfl_sync";
        return assign(s.getResult(), op,
                      std::string(fn) + "(0xffffffffu, " + name(s.getValue()) +
                          ", " + name(s.getOffset()) + ", " +
                          std::to_string(s.getWidth()) + ")");
      })
      .Default([&](Operation *) {
        return op->emitError("cannot emit '")
               << op->getName() << "' as CUDA C";
      });
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

LogicalResult CUDAEmitter::emitFor(scf::ForOp op) {
  // Loop-carried values are variables declared before the loop; the loop's
  // results are their values after it.
  for (auto [arg, init, result] :
       llvm::zip(op.getRegionIterArgs(), op.getInitArgs(), op.getResults())) {
    if (failed(assign(arg, op, name(init), "acc")))
      return failure();
    std::string carried = names.lookup(arg);
    names[result] = carried;
  }
  FailureOr<std::string> ivType = typeName(op.getInductionVar().getType(), op);
  if (failed(ivType))
    return failure();
  std::string iv = "i" + std::to_string(counters["i"]++);
  names[op.getInductionVar()] = iv;
  if (op->getContext()
          ->getOrLoadDialect<xk::XKernelDialect>()
          ->getUnrollAttrHelper()
          .isAttrPresent(op))
    os << "#pragma unroll\n";
  os << "for (" << *ivType << " " << iv << " = " << name(op.getLowerBound())
     << "; " << iv << " < " << name(op.getUpperBound()) << "; " << iv
     << " += " << name(op.getStep()) << ") {\n";
  os.indent();
  if (failed(emitBlock(*op.getBody())))
    return failure();
  auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
  // All next values are read before any is written.
  SmallVector<std::string> temps;
  for (auto [arg, next] : llvm::zip(op.getRegionIterArgs(), yield.getOperands())) {
    if (name(next) == name(arg)) {
      temps.push_back("");
      continue;
    }
    FailureOr<std::string> type = typeName(arg.getType(), op);
    if (failed(type))
      return failure();
    std::string t = "next" + std::to_string(counters["next"]++);
    os << *type << " " << t << " = " << name(next) << ";\n";
    temps.push_back(t);
  }
  for (auto [arg, t] : llvm::zip(op.getRegionIterArgs(), temps))
    if (!t.empty())
      os << name(arg) << " = " << t << ";\n";
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult CUDAEmitter::emitIf(scf::IfOp op) {
  for (Value result : op.getResults()) {
    FailureOr<std::string> type = typeName(result.getType(), op);
    if (failed(type))
      return failure();
    std::string n = "r" + std::to_string(counters["r"]++);
    names[result] = n;
    os << *type << " " << n << ";\n";
  }
  auto branch = [&](Region &region) -> LogicalResult {
    os.indent();
    Block &block = region.front();
    if (failed(emitBlock(block)))
      return failure();
    auto yield = cast<scf::YieldOp>(block.getTerminator());
    for (auto [result, v] : llvm::zip(op.getResults(), yield.getOperands()))
      os << name(result) << " = " << name(v) << ";\n";
    os.unindent();
    return success();
  };
  os << "if (" << name(op.getCondition()) << ") {\n";
  if (failed(branch(op.getThenRegion())))
    return failure();
  if (!op.getElseRegion().empty()) {
    os << "} else {\n";
    if (failed(branch(op.getElseRegion())))
      return failure();
  }
  os << "}\n";
  return success();
}

LogicalResult CUDAEmitter::emitBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(emitOperation(&op)))
      return failure();
  return success();
}

LogicalResult CUDAEmitter::emitOperation(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return emitFor(loop);
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return emitIf(branch);
  Dialect *dialect = op->getDialect();
  if (isa_and_nonnull<arith::ArithDialect>(dialect))
    return emitArith(op);
  if (isa_and_nonnull<math::MathDialect>(dialect))
    return emitMath(op);
  if (isa_and_nonnull<vector::VectorDialect>(dialect))
    return emitVector(op);
  if (isa_and_nonnull<xk::XKernelDialect>(dialect))
    return emitKernelOp(op);
  return op->emitError("cannot emit '") << op->getName() << "' as CUDA C";
}

//===----------------------------------------------------------------------===//
// Kernels and programs
//===----------------------------------------------------------------------===//

LogicalResult CUDAEmitter::emitKernel(xk::FuncOp func) {
  names.clear();
  counters.clear();
  usesDynamicShared = false;
  FailureOr<std::string> kernelName = cName(func.getSymName(), func);
  if (failed(kernelName))
    return failure();
  os << "extern \"C\" __global__ void __launch_bounds__(" << func.getMaxThreads();
  if (std::optional<uint64_t> blocks = func.getMinBlocks())
    os << ", " << *blocks;
  os << ")\n" << *kernelName << "(";
  unsigned inputs = 0, outputs = 0;
  for (BlockArgument arg : func.getArguments()) {
    FailureOr<std::string> type = typeName(arg.getType(), func);
    if (failed(type))
      return failure();
    bool readonly =
        func.getArgAttr(arg.getArgNumber(), xk::FuncOp::getReadonlyAttrName()) !=
        nullptr;
    std::string n = isa<xk::PtrType>(arg.getType())
                        ? (readonly ? "in" + std::to_string(inputs++)
                                    : "out" + std::to_string(outputs++))
                        : "arg" + std::to_string(arg.getArgNumber());
    names[arg] = n;
    if (arg.getArgNumber())
      os << ", ";
    // Buffers that may alias (an output updating an input in place) are
    // not restrict-qualified.
    if (isa<xk::PtrType>(arg.getType()))
      os << (readonly ? "const " : "") << *type
         << (func->hasAttr(xtile::kMayAliasAttrName) ? " " : " __restrict__ ") << n;
    else
      os << *type << " " << n;
  }
  os << ") {\n";
  os.indent();
  if (failed(emitBlock(func.getBody().front())))
    return failure();
  os.unindent();
  os << "}\n\n";
  return success();
}

/// `e`, an affine expression of sizes (symbol i: `symbols[i]`, all
/// positive), as a C expression of type int64_t.
static std::string affineToC(AffineExpr e, ArrayRef<std::string> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return std::to_string(c.getValue()) + "LL";
  if (auto sym = dyn_cast<AffineSymbolExpr>(e))
    return symbols[sym.getPosition()];
  auto bin = cast<AffineBinaryOpExpr>(e);
  std::string l = affineToC(bin.getLHS(), symbols),
              r = affineToC(bin.getRHS(), symbols);
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return "(" + l + " + " + r + ")";
  case AffineExprKind::Mul:
    return "(" + l + " * " + r + ")";
  case AffineExprKind::FloorDiv:
    return "(" + l + " / " + r + ")";
  case AffineExprKind::CeilDiv:
    return "((" + l + " + " + r + " - 1) / " + r + ")";
  case AffineExprKind::Mod:
    return "(" + l + " % " + r + ")";
  default:
    llvm_unreachable("not an affine expression of sizes");
  }
}

LogicalResult CUDAEmitter::emitProgram(xk::ProgramOp program) {
  names.clear();
  counters.clear();
  Block &body = program.getBodyBlock();
  FailureOr<std::string> programName = cName(program.getSymName(), program);
  if (failed(programName))
    return failure();
  // The body is a function of internal linkage that both entry points
  // call: a global symbol of the same name elsewhere in the process (libc's
  // `step`, say) can then never be called in its place.
  std::string impl = "xt_program_" + *programName;
  std::string params, forwarded;
  // The bytes of a buffer: static, or its `?`s' sizes times the rest.
  auto bytesOf = [&](Value buffer) {
    std::string bytes =
        std::to_string(xtile::getStaticNumBytes(buffer.getType())) + "ULL";
    for (Value size : program.getBufferSizes(buffer))
      bytes = "(size_t)" + name(size) + " * " + bytes;
    return bytes;
  };
  ArrayRef<BlockArgument> sizes = program.getSizes();
  for (BlockArgument arg : program.getBuffers()) {
    auto memref = cast<MemRefType>(arg.getType());
    FailureOr<std::string> element = typeName(memref.getElementType(), program);
    if (failed(element))
      return failure();
    bool input = arg.getArgNumber() < program.getNumInputs();
    std::string n = input ? "in" + std::to_string(arg.getArgNumber())
                          : "out" + std::to_string(arg.getArgNumber() -
                                                   program.getNumInputs());
    names[arg] = n;
    params += (input ? "const " : "") + *element + "* " + n + ", ";
    forwarded += n + ", ";
  }
  // Dynamic sizes, after the buffers, by their names.
  auto sizeNames = program.getSizeNames().value_or(ArrayAttr());
  for (auto [i, size] : llvm::enumerate(sizes)) {
    StringRef symbol = cast<StringAttr>(sizeNames[i]).getValue();
    bool identifier = llvm::all_of(
        symbol, [](char c) { return llvm::isAlnum(c) || c == '_'; });
    std::string n = identifier ? "size_" + symbol.str()
                               : "size" + std::to_string(i);
    names[size] = n;
    params += "int64_t " + n + ", ";
    forwarded += n + ", ";
  }
  params += "cudaStream_t stream";
  forwarded += "stream";
  os << "static cudaError_t " << impl << "(" << params << ") {\n";
  os.indent();
  // A size outside its declared range would run kernels chosen and
  // checked for the range: an error, never a wrong result.
  for (auto [size, range] :
       llvm::zip(sizes, xtile::getKernelSizeRanges(program)))
    os << "if (" << name(size) << " < " << range.first << "LL || "
       << name(size) << " > " << range.second
       << "LL) return cudaErrorInvalidValue;\n";
  // A size that is an expression of the others (`T + 1`) must equal it.
  for (auto [i, size] : llvm::enumerate(sizes)) {
    StringRef symbol = cast<StringAttr>(sizeNames[i]).getValue();
    std::optional<xtile::SizeExpr> e = xtile::SizeExpr::parse(symbol);
    if (!e || e->isSymbol() || e->getConstant())
      continue;
    bool known = true;
    std::string text = e->str([&](StringRef s) -> std::string {
      for (auto [j, other] : llvm::enumerate(sizeNames))
        if (cast<StringAttr>(other).getValue() == s)
          return name(sizes[j]);
      known = false;
      return s.str();
    });
    if (known)
      os << "if (" << name(size) << " != " << text
         << ") return cudaErrorInvalidValue;\n";
  }
  os << "cudaError_t err = cudaSuccess;\n";
  SmallVector<std::string> temporaries;
  for (Operation &op : body)
    if (auto alloc = dyn_cast<xk::AllocOp>(op)) {
      FailureOr<std::string> element =
          typeName(alloc.getType().getElementType(), program);
      if (failed(element))
        return failure();
      std::string n = "tmp" + std::to_string(temporaries.size());
      names[alloc.getResult()] = n;
      temporaries.push_back(n);
      os << *element << "* " << n << " = nullptr;\n";
    } else if (auto map = dyn_cast<xk::TensorMapOp>(op)) {
      std::string n = "map" + std::to_string(temporaries.size());
      names[map.getResult()] = n;
      temporaries.push_back(n);
      os << "int8_t* " << n << " = nullptr;\n";
    }
  os << "do {\n";
  os.indent();
  for (Operation &op : body) {
    if (auto alloc = dyn_cast<xk::AllocOp>(op)) {
      os << "if ((err = cudaMallocAsync((void**)&" << name(alloc.getResult())
         << ", " << bytesOf(alloc.getResult())
         << ", stream)) != cudaSuccess) break;\n";
      continue;
    }
    if (auto map = dyn_cast<xk::TensorMapOp>(op)) {
      // The tensor map of the buffer at its sizes (xt_tensor_map in the
      // prelude: made on the host, copied to 128 bytes of device memory).
      auto type = cast<MemRefType>(map.getSource().getType());
      SmallVector<Value> dynamicSizes =
          program.getBufferSizes(map.getSource());
      std::string dims, box;
      for (int64_t d = 0, k = 0; d < type.getRank(); ++d) {
        dims += (d ? ", " : "") +
                (type.isDynamicDim(d)
                     ? "(uint64_t)" + name(dynamicSizes[k++])
                     : std::to_string(type.getDimSize(d)) + "ULL");
        box += (d ? ", " : "") + std::to_string(map.getBox()[d]) + "u";
      }
      os << "{\n";
      os.indent();
      os << "const uint64_t dims[] = {" << dims << "};\n";
      os << "const uint32_t box[] = {" << box << "};\n";
      os << "if ((err = xt_tensor_map((void**)&" << name(map.getResult())
         << ", " << name(map.getSource()) << ", " << map.getDataType() << ", "
         << type.getRank() << ", dims, "
         << xtile::getElementBytes(type.getElementType())
         << ", box, " << map.getSwizzle()
         << ", stream)) != cudaSuccess) break;\n";
      os.unindent();
      os << "}\n";
      continue;
    }
    if (auto copy = dyn_cast<xk::CopyOp>(op)) {
      os << "if ((err = cudaMemcpyAsync(" << name(copy.getTarget()) << ", "
         << name(copy.getSource()) << ", " << bytesOf(copy.getSource())
         << ", cudaMemcpyDeviceToDevice, stream)) != cudaSuccess) break;\n";
      continue;
    }
    auto launch = dyn_cast<xk::LaunchOp>(op);
    if (!launch)
      return op.emitError("cannot emit '") << op.getName() << "' as CUDA C";
    // A program input that a kernel writes (an output updating it in
    // place) or may write (`xtile.may_alias`) is cast from its `const`.
    auto callee = SymbolTable::lookupNearestSymbolFrom<xk::FuncOp>(
        launch, launch.getKernelAttr());
    std::string args;
    for (auto [i, buffer] : llvm::enumerate(launch.getBuffers())) {
      args += ", ";
      auto arg = dyn_cast<BlockArgument>(buffer);
      if (callee && arg && arg.getOwner() == &program.getBodyBlock() &&
          arg.getArgNumber() < program.getNumInputs() &&
          !callee.getArgAttr(i, xk::FuncOp::getReadonlyAttrName())) {
        FailureOr<std::string> element = typeName(
            cast<MemRefType>(buffer.getType()).getElementType(), launch);
        if (failed(element))
          return failure();
        args += "(" + *element + "*)";
      }
      args += name(buffer);
    }
    SmallVector<std::string> launchSizes;
    for (Value size : launch.getSizes()) {
      args += ", (int64_t)" + name(size);
      launchSizes.push_back(name(size));
    }
    FailureOr<std::string> kernel = cName(launch.getKernel(), launch);
    if (failed(kernel))
      return failure();
    if (launch.getShared() > 48 * 1024)
      os << "if ((err = cudaFuncSetAttribute((const void*)" << *kernel
         << ", cudaFuncAttributeMaxDynamicSharedMemorySize, "
         << launch.getShared() << ")) != cudaSuccess) break;\n";
    auto dims = [](ArrayRef<int64_t> d) {
      return "dim3(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) +
             ", " + std::to_string(d[2]) + ")";
    };
    std::string grid = dims(launch.getGrid());
    if (std::optional<AffineMap> map = launch.getGridMap()) {
      SmallVector<std::string> g(3, "1");
      for (auto [i, e] : llvm::enumerate(map->getResults()))
        g[i] = "(unsigned)" + affineToC(e, launchSizes);
      grid = "dim3(" + g[0] + ", " + g[1] + ", " + g[2] + ")";
    }
    // A bucket's launch runs where the sizes are within its ranges.
    std::string when;
    if (std::optional<ArrayRef<int64_t>> ranges = launch.getWhen())
      for (auto [i, size] : llvm::enumerate(launchSizes))
        when += (when.empty() ? "" : " && ") + size +
                " >= " + std::to_string((*ranges)[2 * i]) + " && " + size +
                " <= " + std::to_string((*ranges)[2 * i + 1]);
    if (!when.empty())
      os << "if (" << when << ")\n  ";
    os << "if ((err = xt_launch(" << *kernel << ", " << grid << ", "
       << dims(launch.getBlock()) << ", "
       << launch.getShared() << ", stream" << args
       << ")) != cudaSuccess) break;\n";
  }
  os.unindent();
  os << "} while (0);\n";
  for (const std::string &t : temporaries)
    os << "if (" << t << ") cudaFreeAsync(" << t << ", stream);\n";
  os << "return err;\n";
  os.unindent();
  os << "}\n";
  os << "// Runs " << program.getSymName()
     << " on `stream`; buffers are device pointers.\n";
  os << "extern \"C\" cudaError_t " << *programName << "(" << params
     << ") {\n";
  os << "  return " << impl << "(" << forwarded << ");\n";
  os << "}\n";
  // One signature for every program, for runtimes that load it by name:
  // `<name>_packed_sizes` takes the sizes (in size_names order), and a
  // program without sizes also has `<name>_packed`.
  std::string packed;
  for (BlockArgument arg : program.getBuffers()) {
    auto memref = cast<MemRefType>(arg.getType());
    FailureOr<std::string> element = typeName(memref.getElementType(), program);
    if (failed(element))
      return failure();
    packed += "(" +
              std::string(arg.getArgNumber() < program.getNumInputs()
                              ? "const "
                              : "") +
              *element + "*)buffers[" + std::to_string(arg.getArgNumber()) +
              "], ";
  }
  for (size_t i = 0; i < sizes.size(); ++i)
    packed += "sizes[" + std::to_string(i) + "], ";
  if (sizes.empty())
    os << "extern \"C\" cudaError_t " << program.getSymName()
       << "_packed(void** buffers, cudaStream_t stream) {\n"
       << "  return " << impl << "(" << packed << "stream);\n}\n";
  os << "extern \"C\" cudaError_t " << program.getSymName()
     << "_packed_sizes(void** buffers, const int64_t* sizes, cudaStream_t "
        "stream) {\n"
     << "  return " << impl << "(" << packed << "stream);\n}\n";
  // The names of the sizes `_packed_sizes` takes, in order, one per line.
  if (!sizes.empty()) {
    std::string names;
    for (Attribute n : sizeNames) {
      for (char c : cast<StringAttr>(n).getValue()) {
        if (c == '"' || c == '\\')
          names += '\\';
        names += c;
      }
      names += "\\n";
    }
    os << "extern \"C\" const char* " << program.getSymName()
       << "_size_names(void) { return \"" << names << "\"; }\n";
  }
  os << "\n";
  return success();
}

LogicalResult CUDAEmitter::emitModule(Operation *module) {
  os << "// CUDA C emitted by xtile-translate --mlir-to-cuda.\n" << kPrelude
     << "\n";
  // One helper per name: the name says the shape, type and B orientation.
  std::set<std::string> wgmmas;
  WalkResult helpers = module->walk([&](xk::WgmmaOp w) {
    Type element = w.getA().getType().getElementType();
    if (!wgmmas
             .insert(wgmmaHelper(w.getN(), element,
                                 w.getBPanelBytes().has_value()))
             .second)
      return WalkResult::advance();
    FailureOr<std::string> type = typeName(element, w);
    if (failed(type))
      return WalkResult::interrupt();
    emitWgmmaHelper(os, w, *type);
    return WalkResult::advance();
  });
  if (helpers.wasInterrupted())
    return failure();
  if (!wgmmas.empty())
    os << "\n";
  for (Region &region : module->getRegions())
    for (Block &block : region)
      for (Operation &op : block) {
        if (auto func = dyn_cast<xk::FuncOp>(op)) {
          if (failed(emitKernel(func)))
            return failure();
        } else if (!isa<xk::ProgramOp>(op)) {
          return op.emitError("cannot emit '")
                 << op.getName()
                 << "' as CUDA C: expected Kernel IR (xkernel.func, "
                    "xkernel.program); run --lower-to-kernel first";
        }
      }
  for (Region &region : module->getRegions())
    for (Block &block : region)
      for (auto program : block.getOps<xk::ProgramOp>())
        if (failed(emitProgram(program)))
          return failure();
  // Under the emulation, the kernels by their PTX names with launchers
  // that take cuLaunchKernel's parameter array: the emulation can then
  // stand in for the CUDA driver too (runtime/xtile_emulation.h).
  os << "#ifdef XTILE_EMULATION\n"
        "extern \"C\" const xt_emu::DriverKernel xt_emu_kernels[] = {\n";
  for (Region &region : module->getRegions())
    for (Block &block : region)
      for (auto func : block.getOps<xk::FuncOp>()) {
        FailureOr<std::string> kernelName = cName(func.getSymName(), func);
        if (failed(kernelName))
          return failure();
        os << "    {\"" << func.getSymName() << "\", &xt_emu::packed<&"
           << *kernelName << ">},\n";
      }
  os << "    {nullptr, nullptr}};\n#endif\n";
  return success();
}

} // namespace

LogicalResult xtile::translateToCUDA(Operation *module, raw_ostream &os) {
  // Print into a buffer so that a failure leaves no partial file.
  std::string text;
  llvm::raw_string_ostream buffer(text);
  CUDAEmitter emitter(buffer);
  // Math functions that --lower-to-kernel has not built yet (hand-written
  // Kernel IR) are built as the PTX path builds them.
  OwningOpRef<Operation *> copy(module->clone());
  xk::expandMath(copy.get(), /*fastMath=*/false);
  if (failed(emitter.emitModule(copy.get())))
    return failure();
  os << text;
  return success();
}

void xtile::registerToCUDATranslation() {
  TranslateFromMLIRRegistration registration(
      "mlir-to-cuda", "Translate Kernel IR to CUDA C",
      [](Operation *op, raw_ostream &output) {
        return translateToCUDA(op, output);
      },
      [](DialectRegistry &registry) {
        registry.insert<xk::XKernelDialect, func::FuncDialect,
                        arith::ArithDialect,
                        math::MathDialect, scf::SCFDialect,
                        vector::VectorDialect>();
      });
}
