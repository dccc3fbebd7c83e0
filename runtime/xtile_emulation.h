//===- xtile_emulation.h - run xtile's CUDA C on the CPU --------*- C++ -*-===//
//
// Included before a CUDA C file that xtile-translate --mlir-to-cuda emitted,
// this header lets the host C++ compiler build it unchanged:
//
//   c++ -std=c++17 -O2 -fPIC -shared -x c++ -include xtile_emulation.h k.cu
//
// The threads of a block run as fibers on one OS thread, switched
// cooperatively where CUDA threads wait for each other (__syncthreads, warp
// shuffles, mbarrier waits), so shared memory, barriers and shuffles keep
// their meaning. Blocks are spread over worker threads, one per CPU core. A
// barrier that not every thread of a block reaches, a shuffle that not every
// lane of a warp reaches, or an mbarrier phase that never completes, is
// reported (kernel, block) and fails the launch instead of hanging.
//
// Built with -fsanitize=thread, fibers are announced to ThreadSanitizer and
// each barrier is a release/acquire point (an mbarrier: its arrivals and
// landed copies release, its waits acquire), so a missing barrier shows up
// as a data race between the threads of a block.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_EMULATION_H
#define XTILE_EMULATION_H

#define XTILE_EMULATION 1

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <dlfcn.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>
#include <math.h>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__SANITIZE_THREAD__)
#define XTILE_EMULATION_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define XTILE_EMULATION_TSAN 1
#endif
#endif

#if defined(XTILE_EMULATION_TSAN) || !defined(__x86_64__)
#include <ucontext.h>
#define XTILE_EMULATION_UCONTEXT 1
#endif

#ifdef XTILE_EMULATION_TSAN
extern "C" {
void *__tsan_get_current_fiber(void);
void *__tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void *fiber);
void __tsan_switch_to_fiber(void *fiber, unsigned flags);
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
}
#endif

//===----------------------------------------------------------------------===//
// CUDA keywords and runtime types
//===----------------------------------------------------------------------===//

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
// One copy per worker thread, shared by the fibers (threads) of the block
// that worker runs.
#define __shared__ static thread_local

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1)
      : x(x), y(y), z(z) {}
};

typedef int cudaError_t;
enum : int {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorLaunchFailure = 719,
};
typedef struct xt_emu_stream *cudaStream_t;
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };

inline cudaError_t cudaMallocAsync(void **ptr, size_t bytes, cudaStream_t) {
  *ptr = std::aligned_alloc(256, (std::max<size_t>(bytes, 1) + 255) / 256 * 256);
  return *ptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaFreeAsync(void *ptr, cudaStream_t) {
  std::free(ptr);
  return cudaSuccess;
}
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToDevice = 3 };
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes,
                                   cudaMemcpyKind, cudaStream_t) {
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaFuncSetAttribute(const void *, cudaFuncAttribute, int) {
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Bit casts and 16-bit floats (round to nearest even)
//===----------------------------------------------------------------------===//

inline float __int_as_float(int32_t i) {
  float f;
  std::memcpy(&f, &i, 4);
  return f;
}
inline int32_t __float_as_int(float f) {
  int32_t i;
  std::memcpy(&i, &f, 4);
  return i;
}
inline double __longlong_as_double(long long i) {
  double d;
  std::memcpy(&d, &i, 8);
  return d;
}
inline long long __double_as_longlong(double d) {
  long long i;
  std::memcpy(&i, &d, 8);
  return i;
}
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }

struct __half {
  uint16_t bits;
};
struct __nv_bfloat16 {
  uint16_t bits;
};

inline float __half2float(__half h) {
  uint32_t sign = uint32_t(h.bits & 0x8000) << 16;
  uint32_t exp = (h.bits >> 10) & 0x1f, man = h.bits & 0x3ff;
  if (exp == 0x1f)
    return __int_as_float(int32_t(sign | 0x7f800000 | (man << 13)));
  if (exp == 0) {
    // Zero or subnormal: man * 2^-24, exact in float.
    float v = std::ldexp(float(man), -24);
    return sign ? -v : v;
  }
  return __int_as_float(int32_t(sign | ((exp + 112) << 23) | (man << 13)));
}

inline __half __float2half_rn(float f) {
  uint32_t x = uint32_t(__float_as_int(f));
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  uint32_t absx = x & 0x7fffffff;
  if (absx >= 0x7f800000) // inf or nan
    return {uint16_t(sign | 0x7c00 | (absx > 0x7f800000 ? 0x200 : 0))};
  if (absx >= 0x477ff000) // rounds to >= 65520: overflow to inf
    return {uint16_t(sign | 0x7c00)};
  if (absx < 0x38800000) { // below the smallest normal half: subnormal
    // Round |f| / 2^-24 to an integer, ties to even (exact in float).
    float scaled = std::fabs(f) * 16777216.0f;
    float r = std::nearbyint(scaled);
    return {uint16_t(sign | uint16_t(r))};
  }
  uint32_t exp = (absx >> 23) - 112, man = absx & 0x7fffff;
  uint32_t h = (exp << 10) | (man >> 13);
  uint32_t rest = man & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; // may carry into the exponent, which is right
  return {uint16_t(sign | h)};
}
inline __half __float2half(float f) { return __float2half_rn(f); }

inline float __bfloat162float(__nv_bfloat16 b) {
  return __int_as_float(int32_t(uint32_t(b.bits) << 16));
}
inline __nv_bfloat16 __float2bfloat16_rn(float f) {
  uint32_t x = uint32_t(__float_as_int(f));
  if ((x & 0x7fffffff) > 0x7f800000)
    return {uint16_t((x >> 16) | 0x40)};
  uint32_t lsb = (x >> 16) & 1;
  return {uint16_t((x + 0x7fff + lsb) >> 16)};
}
inline __nv_bfloat16 __float2bfloat16(float f) { return __float2bfloat16_rn(f); }
inline __half __ushort_as_half(unsigned short b) { return {b}; }
inline unsigned short __half_as_ushort(__half h) { return h.bits; }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short b) { return {b}; }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 b) { return b.bits; }

// fp8 conversions as the PTX ISA defines them (sm_89 and later), each from
// the values the formats define rather than from bit tricks: e4m3 (bias 7,
// no infinity, NaN 0x7f) and e5m2 (bias 15, IEEE-like).
namespace xt_emu {
struct Fp8Format {
  int mantissa, bias;
  double max; // largest finite value
  bool hasInf;
};
constexpr Fp8Format kE4M3 = {3, 7, 448.0, false};
constexpr Fp8Format kE5M2 = {2, 15, 57344.0, true};

// cvt.rn.satfinite.{e4m3,e5m2}x2.f32 on one value: round to nearest even;
// what lies beyond the largest finite value (infinities too) is that value
// with the sign; NaN is the canonical NaN 0x7f.
inline uint8_t cvtSatfinite(float x, const Fp8Format &f) {
  if (std::isnan(x))
    return 0x7f;
  uint8_t sign = std::signbit(x) ? 0x80 : 0;
  double a = std::min(std::fabs(double(x)), f.max); // satfinite
  int minNormal = 1 - f.bias;
  int e = a == 0 ? minNormal : std::ilogb(a);
  if (e < minNormal)
    e = minNormal;
  double quantum = std::ldexp(1.0, e - f.mantissa);
  // Exact, ties to even; at most max, which lies on the grid.
  double r = std::nearbyint(a / quantum) * quantum;
  if (r == 0)
    return sign;
  int re = std::ilogb(r);
  if (re < minNormal) // subnormal: the mantissa counts the smallest step
    return uint8_t(sign | int(r / std::ldexp(1.0, minNormal - f.mantissa)));
  int man = int(r / std::ldexp(1.0, re - f.mantissa)) - (1 << f.mantissa);
  return uint8_t(sign | ((re + f.bias) << f.mantissa) | man);
}

// The value of an fp8 encoding, exactly (as cvt.rn.f16x2.{e4m3,e5m2}x2
// gives it: every fp8 value is an f16 value).
inline float fp8Value(uint8_t bits, const Fp8Format &f) {
  bool negative = bits & 0x80;
  int exp = (bits & 0x7f) >> f.mantissa, man = bits & ((1 << f.mantissa) - 1);
  int maxExp = (1 << (7 - f.mantissa)) - 1;
  double v;
  if (f.hasInf && exp == maxExp)
    v = man ? NAN : INFINITY;
  else if (!f.hasInf && exp == maxExp && man == (1 << f.mantissa) - 1)
    v = NAN;
  else if (exp == 0)
    v = std::ldexp(double(man), 1 - f.bias - f.mantissa);
  else
    v = std::ldexp(double(man + (1 << f.mantissa)), exp - f.bias - f.mantissa);
  return float(negative ? -v : v);
}
} // namespace xt_emu

// The instructions, packed as PTX packs them: `hi` converts into the upper
// byte (or half) of the result, `lo` into the lower.
namespace xt_emu {
inline uint16_t cvtPairSatfinite(float hi, float lo, const Fp8Format &f) {
  return uint16_t(cvtSatfinite(hi, f) << 8 | cvtSatfinite(lo, f));
}
inline uint32_t halvesOf(uint16_t x, const Fp8Format &f) {
  return uint32_t(__float2half_rn(fp8Value(x >> 8, f)).bits) << 16 |
         __float2half_rn(fp8Value(x & 0xff, f)).bits;
}
} // namespace xt_emu
inline uint16_t xt_cvt_e4m3x2_f32(float hi, float lo) {
  return xt_emu::cvtPairSatfinite(hi, lo, xt_emu::kE4M3);
}
inline uint16_t xt_cvt_e5m2x2_f32(float hi, float lo) {
  return xt_emu::cvtPairSatfinite(hi, lo, xt_emu::kE5M2);
}
inline uint32_t xt_cvt_f16x2_e4m3x2(uint16_t x) {
  return xt_emu::halvesOf(x, xt_emu::kE4M3);
}
inline uint32_t xt_cvt_f16x2_e5m2x2(uint16_t x) {
  return xt_emu::halvesOf(x, xt_emu::kE5M2);
}

//===----------------------------------------------------------------------===//
// Atomics (blocks run concurrently on the workers)
//===----------------------------------------------------------------------===//

inline float atomicAdd(float *p, float v) {
  uint32_t *bits = reinterpret_cast<uint32_t *>(p);
  uint32_t old = __atomic_load_n(bits, __ATOMIC_RELAXED), next;
  do {
    next = uint32_t(__float_as_int(__int_as_float(int32_t(old)) + v));
  } while (!__atomic_compare_exchange_n(bits, &old, next, true,
                                        __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
  return __int_as_float(int32_t(old));
}
inline double atomicAdd(double *p, double v) {
  uint64_t *bits = reinterpret_cast<uint64_t *>(p);
  uint64_t old = __atomic_load_n(bits, __ATOMIC_RELAXED), next;
  do {
    next = uint64_t(__double_as_longlong(__longlong_as_double((long long)old) + v));
  } while (!__atomic_compare_exchange_n(bits, &old, next, true,
                                        __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
  return __longlong_as_double((long long)old);
}
inline int atomicAdd(int *p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) {
  return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}
inline int atomicMax(int *p, int v) {
  int old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (old < v && !__atomic_compare_exchange_n(p, &old, v, true,
                                                 __ATOMIC_SEQ_CST,
                                                 __ATOMIC_RELAXED)) {
  }
  return old;
}
inline int atomicMin(int *p, int v) {
  int old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (old > v && !__atomic_compare_exchange_n(p, &old, v, true,
                                                 __ATOMIC_SEQ_CST,
                                                 __ATOMIC_RELAXED)) {
  }
  return old;
}

//===----------------------------------------------------------------------===//
// Fibers and the block scheduler
//===----------------------------------------------------------------------===//

#ifdef XTILE_EMULATION_PTX
// The bytes of the PTX path's static shared variables (its host object).
extern "C" const uint64_t xt_ptx_static_shared_bytes;
#endif

namespace xt_emu {

#ifndef XTILE_EMULATION_UCONTEXT
// Saves the callee-saved registers on the current stack, stores the stack
// pointer in *from, and resumes the stack `to` (x86-64 System V).
extern "C" void xt_emu_switch(void **from, void *to);
extern "C" void xt_emu_start();
asm(R"(
  .text
  .p2align 4
  .type xt_emu_switch,@function
xt_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size xt_emu_switch, .-xt_emu_switch
  .p2align 4
  .type xt_emu_start,@function
xt_emu_start:
  movq %rbx, %rdi
  callq *%r12
  ud2
  .size xt_emu_start, .-xt_emu_start
)");
#endif

// `mbarrier`: polling an mbarrier phase that has not completed; resumed
// every round until it completes.
enum class Wait { running, barrier, shuffle, mbarrier, done, failed };

// What the scheduler and the fibers tell each other goes through relaxed
// atomics: ThreadSanitizer sees no race in that bookkeeping, and it creates
// no ordering between the threads of a block, so a race in a kernel stays
// visible. Barriers are the only release/acquire points.
/// A wgmma's reads of shared memory, checked when its group retires: the
/// tensor cores may read the operands at any time until
/// wgmma.wait_group retires the group, so they must not change before.
/// `rehash` reads them again; `hash` is what they held at the issue.
/// `atoms` are the byte ranges of dynamic shared memory it reads, in
/// whole 1024-byte swizzle atoms: a bulk copy into them while the group is
/// in flight is a fault when issued, as it may land at any time.
struct WgmmaReads {
  std::function<uint64_t()> rehash;
  uint64_t hash;
  std::vector<std::pair<uint64_t, uint64_t>> atoms;
};

struct TensorMap;

/// A bulk tensor copy (xt_tma_load) issued and not landed yet: the
/// mbarrier its bytes complete on (null: a free slot), its place in the
/// issue order, its destination, its tensor map and the box's first
/// element (innermost coordinate first). Relaxed atomics: one thread
/// issues it and another may land it, which must not order them for
/// ThreadSanitizer.
struct TmaCopy {
  std::atomic<uint64_t *> bar{nullptr};
  std::atomic<uint64_t> order{0};
  std::atomic<unsigned char *> dst{nullptr};
  std::atomic<const TensorMap *> map{nullptr};
  std::atomic<int32_t> coords[5]{};
};

struct Fiber {
  std::atomic<Wait> wait{Wait::running};
  bool fresh = true;
  // This thread's wgmma operations since its last commit, and its
  // committed groups not yet retired, oldest first.
  std::vector<WgmmaReads> wgmmaOpen;
  std::vector<std::vector<WgmmaReads>> wgmmaGroups;
  // In an mbarrier wait: `polling` when it yielded from a poll that
  // followed another of the same wait (nothing it can do has changed);
  // `land` when the scheduler lets it land the copies issued on the
  // barrier (no thread could proceed without); `stuck` when no thread can
  // complete the phase.
  std::atomic<bool> polling{false}, land{false}, stuck{false};
  // At a barrier: its id (0: __syncthreads) and the threads it counts.
  unsigned barrierId = 0, barrierThreads = 0;
  char *stack = nullptr;
#ifdef XTILE_EMULATION_UCONTEXT
  ucontext_t context;
#else
  void *sp = nullptr;
#endif
#ifdef XTILE_EMULATION_TSAN
  void *tsan = nullptr;
#endif
};

struct Worker;
inline thread_local Worker *current = nullptr;

constexpr size_t kStackBytes = 512 * 1024;

/// Runs the blocks given to it, one at a time, each block's threads as
/// fibers on this OS thread.
struct Worker {
  std::vector<Fiber> fibers;
  const std::function<void()> *body = nullptr;
  dim3 block, blockDim, gridDim;
  std::atomic<unsigned> self{0}; // the fiber running now
  unsigned threads = 0;
  std::vector<unsigned char> dynamicShared;
  /// The block's dynamic shared memory: 1024-byte aligned, as the swizzle
  /// atoms of wgmma operands need (and kernels using them declare).
  /// In the PTX path's code (XTILE_EMULATION_PTX) it is aligned to its
  /// window, 256 KiB: the code takes the shared address of a pointer as the
  /// GPU has it (wgmma descriptors keep its low 18 bits), and here that is
  /// the offset from this base.
#ifdef XTILE_EMULATION_PTX
  static constexpr uintptr_t kSharedAlign = uintptr_t(1) << 18;
#else
  static constexpr uintptr_t kSharedAlign = 1024;
#endif
  unsigned char *sharedBase() {
    return reinterpret_cast<unsigned char *>(
        (reinterpret_cast<uintptr_t>(dynamicShared.data()) + kSharedAlign -
         1) &
        ~(kSharedAlign - 1));
  }
  /// The bytes of dynamic shared memory the launch asked for.
  std::size_t dynamicBytes = 0;
  std::size_t sharedBytes() const { return dynamicBytes; }
  /// Where the PTX path's static shared variables start: after the
  /// dynamic bytes, in the same window (XTILE_EMULATION_PTX).
  std::size_t staticOffset() const { return (dynamicBytes + 1023) & ~std::size_t(1023); }
  // Warp shuffles and exchanges: per warp, two generations of kLaneWords
  // values per lane.
  static constexpr unsigned kLaneWords = 8;
  std::unique_ptr<std::atomic<uint32_t>[]> lanes;
  std::unique_ptr<std::atomic<uint64_t>[]> shuffleGenerations;
  // The block's bulk tensor copies in flight: slots below tmaSlots may be
  // in use; tmaIssued numbers them in issue order.
  static constexpr unsigned kTmaCopies = 256;
  std::unique_ptr<TmaCopy[]> tmaCopies;
  std::atomic<unsigned> tmaSlots{0};
  std::atomic<uint64_t> tmaIssued{0};
  // Addresses ThreadSanitizer synchronizes on: barriers, and the end of a
  // block (the next block on this worker reuses its shared memory).
  int barrierTokens[16] = {}, blockEndToken = 0;
#ifdef XTILE_EMULATION_UCONTEXT
  ucontext_t scheduler;
#else
  void *schedulerSp = nullptr;
#endif
#ifdef XTILE_EMULATION_TSAN
  void *schedulerFiber = nullptr;
#endif

  /// wgmma.wait_group `pending`: retires the running thread's oldest
  /// groups until at most `pending` remain, failing the launch if what one
  /// of their wgmma read has changed since it was issued.
  static void retireWgmma(Worker &w, std::size_t pending);

  ~Worker() {
    for (Fiber &f : fibers) {
      std::free(f.stack);
#ifdef XTILE_EMULATION_TSAN
      if (f.tsan)
        __tsan_destroy_fiber(f.tsan);
#endif
    }
  }

  static void entry(Worker *w) {
    (*w->body)();
    // Groups still in flight when the thread ends are retired here.
    retireWgmma(*w, 0);
    w->fibers[w->self].wgmmaOpen.clear();
#ifdef XTILE_EMULATION_TSAN
    __tsan_release(&w->blockEndToken);
#endif
    w->fibers[w->self].wait = Wait::done;
    w->yield();
  }

#ifdef XTILE_EMULATION_UCONTEXT
  static void entryUcontext(unsigned lo, unsigned hi) {
    entry(reinterpret_cast<Worker *>((uintptr_t(hi) << 32) | lo));
  }
#endif

  void start(Fiber &f) {
    if (!f.stack)
      f.stack = static_cast<char *>(std::malloc(kStackBytes));
#ifdef XTILE_EMULATION_TSAN
    if (!f.tsan)
      f.tsan = __tsan_create_fiber(0);
#endif
#ifdef XTILE_EMULATION_UCONTEXT
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = f.stack;
    f.context.uc_stack.ss_size = kStackBytes;
    f.context.uc_link = nullptr;
    uintptr_t p = reinterpret_cast<uintptr_t>(this);
    makecontext(&f.context, reinterpret_cast<void (*)()>(&entryUcontext), 2,
                unsigned(p & 0xffffffffu), unsigned(p >> 32));
#else
    // The initial frame xt_emu_switch pops: control words, r15..rbp (rbx =
    // this worker, r12 = entry), then the return address xt_emu_start.
    uintptr_t top = (reinterpret_cast<uintptr_t>(f.stack) + kStackBytes) & ~uintptr_t(15);
    uint64_t *sp = reinterpret_cast<uint64_t *>(top) - 10;
    uint32_t mxcsr = 0x1f80;
    uint16_t fpucw = 0x37f;
    std::memset(sp, 0, 10 * sizeof(uint64_t));
    std::memcpy(sp, &mxcsr, 4);
    std::memcpy(reinterpret_cast<char *>(sp) + 4, &fpucw, 2);
    sp[1] = 0;                                          // r15
    sp[2] = 0;                                          // r14
    sp[3] = 0;                                          // r13
    sp[4] = reinterpret_cast<uint64_t>(&Worker::entry); // r12
    sp[5] = reinterpret_cast<uint64_t>(this);           // rbx
    sp[6] = 0;                                          // rbp
    sp[7] = reinterpret_cast<uint64_t>(&xt_emu_start);  // return address
    f.sp = sp;
#endif
  }

  /// Back to the scheduler.
  void yield() {
    Fiber &f = fibers[self];
#ifdef XTILE_EMULATION_TSAN
    __tsan_switch_to_fiber(schedulerFiber, 1);
#endif
#ifdef XTILE_EMULATION_UCONTEXT
    swapcontext(&f.context, &scheduler);
#else
    xt_emu_switch(&f.sp, schedulerSp);
#endif
  }

  void resume(unsigned i) {
    self = i;
    bool fresh = fibers[i].fresh;
    fibers[i].fresh = false;
#ifdef XTILE_EMULATION_TSAN
    // The first switch into a fiber orders the block's setup before it.
    __tsan_switch_to_fiber(fibers[i].tsan, fresh ? 0 : 1);
#endif
    (void)fresh;
#ifdef XTILE_EMULATION_UCONTEXT
    swapcontext(&scheduler, &fibers[i].context);
#else
    xt_emu_switch(&schedulerSp, fibers[i].sp);
#endif
  }

  /// Runs one block to completion; false (with a report) when its threads
  /// cannot all proceed.
  const char *kernel = nullptr; // the launch's, for messages

  bool runBlock(const char *kernel) {
    this->kernel = kernel;
    for (unsigned i = 0; i < threads; ++i) {
      fibers[i].wait = Wait::running;
      fibers[i].fresh = true;
      fibers[i].polling.store(false, std::memory_order_relaxed);
      fibers[i].land.store(false, std::memory_order_relaxed);
      fibers[i].stuck.store(false, std::memory_order_relaxed);
      start(fibers[i]);
    }
    unsigned warps = (threads + 31) / 32;
    for (unsigned w = 0; w < warps; ++w)
      shuffleGenerations[w] = 0;
    // Copies a block issued and never waited for end with it.
    for (unsigned i = 0, n = tmaSlots.load(std::memory_order_relaxed); i < n;
         ++i)
      tmaCopies[i].bar.store(nullptr, std::memory_order_relaxed);
    tmaSlots.store(0, std::memory_order_relaxed);
    // Whether the threads polling an mbarrier may land its copies: once no
    // thread can proceed otherwise, so that copies land as late as they
    // may and a read of a destination before its wait sees stale data.
    bool landing = false;
    for (;;) {
      // Whether a thread did more this round than poll again an mbarrier
      // phase it had found incomplete.
      bool progress = false;
      for (unsigned i = 0; i < threads; ++i) {
        Wait wait = fibers[i].wait.load(std::memory_order_relaxed);
        if (wait != Wait::running && wait != Wait::mbarrier)
          continue;
        resume(i);
        // Relaxed: an acquire here would order this fiber before the
        // next one's first switch, hiding races from ThreadSanitizer.
        wait = fibers[i].wait.load(std::memory_order_relaxed);
        if (wait == Wait::failed)
          return false;
        progress |= wait != Wait::mbarrier ||
                    !fibers[i].polling.load(std::memory_order_relaxed);
      }
      // Every fiber now waits at a barrier, a shuffle or an mbarrier, or
      // is done, or has failed (fail(): the launch fails).
      // A barrier completes once as many threads as it counts wait at it
      // (every thread of the block for __syncthreads); threads that wait
      // at one id with different counts, or more threads than counted,
      // are a fault, as bar.sync's behaviour is then undefined.
      unsigned done = 0, atBarrier = 0;
      unsigned waiting[16] = {}, counted[16] = {};
      for (unsigned i = 0; i < threads; ++i) {
        if (fibers[i].wait.load(std::memory_order_relaxed) == Wait::failed)
          return false;
        done += fibers[i].wait == Wait::done;
        if (fibers[i].wait != Wait::barrier)
          continue;
        ++atBarrier;
        unsigned id = fibers[i].barrierId, count = fibers[i].barrierThreads;
        if (counted[id] && counted[id] != count) {
          std::fprintf(stderr,
                       "xtile emulation: kernel %s, block (%u, %u, %u): "
                       "threads wait at barrier %u for %u and for %u "
                       "threads\n",
                       kernel, block.x, block.y, block.z, id, counted[id],
                       count);
          return false;
        }
        counted[id] = count;
        ++waiting[id];
      }
      if (done == threads) {
#ifdef XTILE_EMULATION_TSAN
        __tsan_acquire(&blockEndToken);
#endif
        return true;
      }
      for (unsigned id = 0; id < 16; ++id) {
        if (!waiting[id] || waiting[id] < counted[id])
          continue;
        if (waiting[id] > counted[id]) {
          std::fprintf(stderr,
                       "xtile emulation: kernel %s, block (%u, %u, %u): %u "
                       "threads wait at barrier %u, which counts %u\n",
                       kernel, block.x, block.y, block.z, waiting[id], id,
                       counted[id]);
          return false;
        }
        for (unsigned i = 0; i < threads; ++i)
          if (fibers[i].wait == Wait::barrier && fibers[i].barrierId == id)
            fibers[i].wait = Wait::running;
        progress = true;
      }
      for (unsigned w = 0; w < warps; ++w) {
        unsigned first = w * 32, last = std::min(threads, first + 32);
        bool all = true;
        for (unsigned i = first; i < last; ++i)
          all &= fibers[i].wait == Wait::shuffle;
        if (!all)
          continue;
        ++shuffleGenerations[w];
        for (unsigned i = first; i < last; ++i)
          fibers[i].wait = Wait::running;
        progress = true;
      }
      if (progress) {
        landing = false;
        continue;
      }
      if (!landing) {
        for (unsigned i = 0; i < threads; ++i)
          if (fibers[i].wait.load(std::memory_order_relaxed) == Wait::mbarrier) {
            fibers[i].land.store(true, std::memory_order_relaxed);
            landing = true;
          }
        if (landing)
          continue;
      }
      // A thread polling an mbarrier reports the phase it waits for.
      for (unsigned i = 0; i < threads; ++i)
        if (fibers[i].wait.load(std::memory_order_relaxed) == Wait::mbarrier) {
          fibers[i].stuck.store(true, std::memory_order_relaxed);
          resume(i);
          return false;
        }
      std::fprintf(stderr,
                   "xtile emulation: kernel %s, block (%u, %u, %u): %u of "
                   "%u threads wait at a barrier (__syncthreads or a named "
                   "one), %u have exited and the others wait at a warp "
                   "shuffle: not every thread the barrier counts reaches "
                   "it\n",
                   kernel, block.x, block.y, block.z, atBarrier, threads,
                   done);
      return false;
    }
  }

  /// bar.sync `id`, `count` (0: every thread of the block).
  /// (xt_named_barrier checks `id` and `count`.)
  void barrier(unsigned id = 0, unsigned count = 0) {
#ifdef XTILE_EMULATION_TSAN
    __tsan_release(&barrierTokens[id]);
#endif
    fibers[self].barrierId = id;
    fibers[self].barrierThreads = id ? count : threads;
    fibers[self].wait = Wait::barrier;
    yield();
#ifdef XTILE_EMULATION_TSAN
    __tsan_acquire(&barrierTokens[id]);
#endif
  }

  /// Every lane of the warp gives `words` (at most kLaneWords) 32-bit
  /// values; once all have, returns the warp's, kLaneWords per lane in lane
  /// order. Valid until this lane's next exchange.
  const std::atomic<uint32_t> *exchange(const uint32_t *mine, unsigned words) {
    unsigned lane = self % 32, warp = self / 32;
    uint64_t gen = shuffleGenerations[warp];
    std::atomic<uint32_t> *slots =
        &lanes[(warp * 2 + (gen & 1)) * 32 * kLaneWords];
    for (unsigned i = 0; i < words; ++i)
      slots[lane * kLaneWords + i] = mine[i];
    fibers[self].wait = Wait::shuffle;
    yield();
    return slots;
  }

  /// The lanes of this warp that exist (a block's last warp may be partial).
  unsigned warpLanes() const {
    return std::min(32u, threads - self / 32 * 32);
  }

  uint32_t shuffle(uint32_t value, int kind, int arg, int width) {
    unsigned lane = self % 32;
    const std::atomic<uint32_t> *slots = exchange(&value, 1);
    unsigned base = lane & ~unsigned(width - 1), src = lane;
    if (kind == 0)
      src = base + ((lane - base) ^ unsigned(arg));
    else if (kind == 1)
      src = (lane - base) + unsigned(arg) < unsigned(width) ? lane + arg : lane;
    else
      src = base + (unsigned(arg) & unsigned(width - 1));
    if (src >= warpLanes())
      src = lane;
    return slots[src * kLaneWords];
  }
};

struct Launch {
  const char *kernel;
  dim3 grid, block;
  size_t shared;
  const std::function<void()> *body;
};

inline unsigned workers() {
  if (const char *env = std::getenv("XTILE_EMULATION_THREADS"))
    return std::max(1, std::atoi(env));
  return std::max(1u, std::thread::hardware_concurrency());
}

inline cudaError_t run(const Launch &launch) {
  unsigned threads = launch.block.x * launch.block.y * launch.block.z;
  uint64_t blocks = uint64_t(launch.grid.x) * launch.grid.y * launch.grid.z;
  if (threads == 0 || threads > 1024 || blocks == 0)
    return cudaErrorInvalidValue;
  std::atomic<uint64_t> next{0};
  std::atomic<bool> failed{false};
  auto work = [&] {
    Worker w;
    current = &w;
    w.threads = threads;
    w.fibers = std::vector<Fiber>(threads);
    w.lanes.reset(new std::atomic<uint32_t>[((threads + 31) / 32) * 2 * 32 *
                                            Worker::kLaneWords]);
    w.shuffleGenerations.reset(new std::atomic<uint64_t>[(threads + 31) / 32]);
    w.tmaCopies.reset(new TmaCopy[Worker::kTmaCopies]);
    w.dynamicBytes = launch.shared;
    std::size_t window = launch.shared;
#ifdef XTILE_EMULATION_PTX
    window = w.staticOffset() + xt_ptx_static_shared_bytes;
#endif
    w.dynamicShared.assign(window + Worker::kSharedAlign, 0);
    w.body = launch.body;
    w.blockDim = launch.block;
    w.gridDim = launch.grid;
#ifdef XTILE_EMULATION_TSAN
    w.schedulerFiber = __tsan_get_current_fiber();
#endif
    for (uint64_t b; !failed && (b = next++) < blocks;) {
      w.block = dim3(unsigned(b % launch.grid.x),
                     unsigned(b / launch.grid.x % launch.grid.y),
                     unsigned(b / launch.grid.x / launch.grid.y));
      if (!w.runBlock(launch.kernel))
        failed = true;
    }
    current = nullptr;
  };
  unsigned n = unsigned(std::min<uint64_t>(workers(), blocks));
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < n; ++i)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();
  return failed ? cudaErrorLaunchFailure : cudaSuccess;
}

inline Worker &self() { return *current; }

struct ThreadIdx {
  unsigned get(int d) const {
    Worker &w = self();
    unsigned i = w.self;
    return d == 0 ? i % w.blockDim.x
                  : d == 1 ? i / w.blockDim.x % w.blockDim.y
                           : i / w.blockDim.x / w.blockDim.y;
  }
};

template <typename T> inline uint32_t toBits(T v) {
  static_assert(sizeof(T) == 4, "shuffles move 32-bit values");
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}
template <typename T> inline T fromBits(uint32_t b) {
  T v;
  std::memcpy(&v, &b, 4);
  return v;
}

} // namespace xt_emu

#define threadIdx                                                              \
  (dim3(xt_emu::ThreadIdx().get(0), xt_emu::ThreadIdx().get(1),               \
        xt_emu::ThreadIdx().get(2)))
#define blockIdx (xt_emu::self().block)
#define blockDim (xt_emu::self().blockDim)
#define gridDim (xt_emu::self().gridDim)
#define XT_DYNAMIC_SHARED(name)                                                \
  unsigned char *name = xt_emu::self().sharedBase()
#define XT_DYNAMIC_SHARED_1024(name) XT_DYNAMIC_SHARED(name)

inline void __syncthreads() { xt_emu::self().barrier(); }

template <typename T>
inline T __shfl_xor_sync(unsigned, T v, int laneMask, int width = 32) {
  return xt_emu::fromBits<T>(
      xt_emu::self().shuffle(xt_emu::toBits(v), 0, laneMask, width));
}
template <typename T>
inline T __shfl_down_sync(unsigned, T v, unsigned delta, int width = 32) {
  return xt_emu::fromBits<T>(
      xt_emu::self().shuffle(xt_emu::toBits(v), 1, int(delta), width));
}
template <typename T>
inline T __shfl_sync(unsigned, T v, int srcLane, int width = 32) {
  return xt_emu::fromBits<T>(
      xt_emu::self().shuffle(xt_emu::toBits(v), 2, srcLane, width));
}

//===----------------------------------------------------------------------===//
// Tensor-core instructions (xkernel.ldmatrix, xkernel.mma): warp-wide, their
// operands gathered from every lane by an exchange, as the PTX ISA lays out
// their fragments (g = lane / 4, t = lane % 4; a 32-bit register holds two
// 16-bit elements, the lower-indexed in its low half).
//===----------------------------------------------------------------------===//

namespace xt_emu {

/// A kernel did what the GPU does not allow (or what the emulation cannot
/// model): the thread stops and its launch fails with
/// cudaErrorLaunchFailure. Outside a kernel's threads, the process stops.
[[noreturn]] inline void fail(const char *what) {
  if (Worker *w = current) {
    std::fprintf(stderr,
                 "xtile emulation: kernel %s, block (%u, %u, %u), thread "
                 "%u: %s\n",
                 w->kernel ? w->kernel : "?", w->block.x, w->block.y,
                 w->block.z, unsigned(w->self), what);
    w->fibers[w->self].wait = Wait::failed;
    w->yield(); // the block ends here; the fiber is never resumed
  }
  std::fprintf(stderr, "xtile emulation: %s\n", what);
  std::abort();
}

/// fail() with a printf message.
[[noreturn]] inline void failf(const char *format, ...) {
  char what[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(what, sizeof what, format, args);
  va_end(args);
  fail(what);
}

inline void requireFullWarp(const char *what) {
  if (self().warpLanes() != 32)
    fail(what);
}

inline float bf16Bits(uint32_t r, unsigned half) {
  return __int_as_float(int32_t((r >> (16 * half)) & 0xffff) << 16);
}
inline float f16Bits(uint32_t r, unsigned half) {
  return __half2float(__ushort_as_half((unsigned short)(r >> (16 * half))));
}

/// ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16: lane 8q + j gives the
/// address of row j of matrix q (16 bytes, 16-byte aligned); register q of
/// lane l receives row g, columns 2t and 2t+1 of matrix q, or with Trans
/// rows 2t and 2t+1 of column g.
template <int N, bool Trans> inline void ldmatrix(const void *row, uint32_t *r) {
  static_assert(N == 1 || N == 2 || N == 4, "ldmatrix loads 1, 2 or 4 matrices");
  requireFullWarp("ldmatrix needs all 32 lanes of a warp");
  uint64_t address = reinterpret_cast<uintptr_t>(row);
  uint32_t words[2] = {uint32_t(address), uint32_t(address >> 32)};
  const std::atomic<uint32_t> *slots = self().exchange(words, 2);
  unsigned lane = self().self % 32, g = lane / 4, t = lane % 4;
  for (int q = 0; q < N; ++q) {
    uint16_t e[2];
    for (unsigned j = 0; j < 2; ++j) {
      unsigned src = 8 * q + (Trans ? 2 * t + j : g);
      uint64_t a = uint64_t(slots[src * Worker::kLaneWords]) |
                   uint64_t(slots[src * Worker::kLaneWords + 1]) << 32;
      if (a % 16)
        fail("ldmatrix row address not 16-byte aligned");
      std::memcpy(&e[j], reinterpret_cast<const char *>(a) +
                             2 * (Trans ? g : 2 * t + j), 2);
    }
    r[q] = uint32_t(e[0]) | uint32_t(e[1]) << 16;
  }
}

/// The C/D fragment of a 16x8 mma.sync for lane 4 g + t: d[i] (row
/// g + 8 (i / 2), column 2 t + i % 2) plus the products A(row, k) B(k, n)
/// for k = 0 .. K-1 in sequence, each one fused multiply-add.
template <unsigned K, typename AF, typename BF>
inline void accumulate16x8(AF A, BF B, float *d, unsigned g, unsigned t) {
  for (unsigned i = 0; i < 4; ++i) {
    unsigned row = g + 8 * (i / 2), n = 2 * t + i % 2;
    float acc = d[i];
    for (unsigned k = 0; k < K; ++k)
      acc = std::fma(A(row, k), B(k, n), acc);
    d[i] = acc;
  }
}

/// mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}: D = C + A B with A
/// 16x16 (a0..a7: row g + 8((i/2)%2), column 2t + i%2 + 8(i/4)), B 16x8
/// (b0..b3: row 2t + i%2 + 8(i/2), column g) and C, D 16x8 (c0..c3: row
/// g + 8(i/2), column 2t + i%2). The products of 16-bit values are exact
/// in f32; PTX leaves the order of the sum open: here, k = 0..15 in
/// sequence from C, each step one fused multiply-add (what the FMA
/// lowering of a dot does too).
///
/// mma.sync.aligned.m16n8k32.row.col.f32.{e4m3,e5m2}.{e4m3,e5m2}.f32
/// (`PerRegister` = 4): the same layout with four 8-bit lanes per register
/// and K = 32 (a0..a15: row g + 8((i/4)%2), column 4t + i%4 + 16(i/8); B
/// 32x8: b0..b7: row 4t + i%4 + 16(i/4), column g); fp8 products are
/// exact in f32 too.
template <unsigned PerRegister = 2, typename Decode>
inline void mma(const uint32_t *a, const uint32_t *b, float *d, Decode decode) {
  requireFullWarp("mma.sync needs all 32 lanes of a warp");
  uint32_t words[6] = {a[0], a[1], a[2], a[3], b[0], b[1]};
  const std::atomic<uint32_t> *slots = self().exchange(words, 6);
  unsigned lane = self().self % 32, g = lane / 4, t = lane % 4;
  constexpr unsigned half = 4 * PerRegister; // K of one register pair
  auto A = [&](unsigned row, unsigned k) {
    unsigned src = 4 * (row % 8) + (k % half) / PerRegister;
    unsigned reg = (row >= 8) + 2 * (k >= half);
    return decode(slots[src * Worker::kLaneWords + reg], k % PerRegister);
  };
  auto B = [&](unsigned k, unsigned n) {
    unsigned src = 4 * n + (k % half) / PerRegister;
    return decode(slots[src * Worker::kLaneWords + 4 + (k >= half)],
                  k % PerRegister);
  };
  accumulate16x8<2 * half>(A, B, d, g, t);
}

/// Lane `i` of an fp8 register (the low byte first).
inline float e4m3Bits(uint32_t r, unsigned i) {
  return fp8Value(uint8_t(r >> (8 * i)), kE4M3);
}
inline float e5m2Bits(uint32_t r, unsigned i) {
  return fp8Value(uint8_t(r >> (8 * i)), kE5M2);
}

/// cvt.rna.tf32.f32: the nearest value with 10 mantissa bits, ties away
/// from zero (half of the dropped 13 bits added to the magnitude, then
/// truncated); infinities stay, a NaN becomes the canonical one.
inline float roundTf32(float x) {
  uint32_t u = toBits(x);
  if ((u & 0x7f800000u) == 0x7f800000u)
    return (u & 0x7fffffu) ? __int_as_float(0x7fffffff) : x;
  return __int_as_float(int32_t((u + 0x1000u) & 0xffffe000u));
}

/// A tf32 operand of mma.sync: an f32 whose low 13 mantissa bits are zero
/// (what cvt.rna.tf32.f32 gives). The instruction's result on other bits
/// is not something to rely on: the emulation stops.
inline float tf32Bits(uint32_t r, unsigned) {
  float v = __int_as_float(int32_t(r));
  if ((r & 0x1fffu) && !std::isnan(v))
    fail("mma.sync tf32 operand not rounded to tf32 (cvt.rna.tf32.f32)");
  return v;
}

/// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32: D = C + A B with A
/// 16x8 (a0..a3: row g + 8(i%2), column t + 4(i/2)), B 8x8 (b0, b1: row
/// t + 4i, column g), C and D as for m16n8k16. Products of tf32 values are
/// exact in f32; added in k order with fused multiply-adds.
inline void mmaTf32(const uint32_t *a, const uint32_t *b, float *d) {
  requireFullWarp("mma.sync needs all 32 lanes of a warp");
  uint32_t words[6] = {a[0], a[1], a[2], a[3], b[0], b[1]};
  const std::atomic<uint32_t> *slots = self().exchange(words, 6);
  unsigned lane = self().self % 32, g = lane / 4, t = lane % 4;
  auto A = [&](unsigned row, unsigned k) {
    unsigned src = 4 * (row % 8) + k % 4;
    unsigned reg = (row >= 8) + 2 * (k >= 4);
    return tf32Bits(slots[src * Worker::kLaneWords + reg], 0);
  };
  auto B = [&](unsigned k, unsigned n) {
    unsigned src = 4 * n + k % 4;
    return tf32Bits(slots[src * Worker::kLaneWords + 4 + (k >= 4)], 0);
  };
  accumulate16x8<8>(A, B, d, g, t);
}

/// The shared-memory matrix descriptor of wgmma for an operand in the
/// 128-byte swizzle layout at `p` (dynamic shared memory): the shared
/// address / 16 (bits 0-13), the leading-dimension byte offset / 16 (bits
/// 16-29: `panel`, the bytes between an N-major B's 64-column panels; 1,
/// unused, for a K-major operand), the stride between 8-row core-matrix
/// groups / 16 (1024 bytes: 64), the swizzle mode (bits 62-63: 1, 128
/// bytes). Shared addresses here are offsets from the block's dynamic
/// shared memory, which is 1024-byte aligned as on the GPU.
inline uint64_t wgmmaDescriptor(const void *p, uint32_t panel = 16) {
  std::ptrdiff_t offset =
      static_cast<const unsigned char *>(p) - self().sharedBase();
  if (offset < 0 || std::size_t(offset) >= self().sharedBytes())
    fail("wgmma operand not in dynamic shared memory");
  if (offset % 16)
    fail("wgmma operand not 16-byte aligned");
  return (uint64_t(offset) & 0x3ffff) >> 4 | uint64_t(panel >> 4) << 16 |
         uint64_t(64) << 32 | uint64_t(1) << 62;
}

/// Shared offset `o` in the swizzle of `bytes` bytes (32, 64 or 128; 0
/// for none), as the tensor cores and the copy engine lay it out: the bits
/// 4 to 4 + log2(bytes / 16) - 1 XORed with as many bits from 7 on.
inline uint64_t swizzled(uint64_t o, uint32_t bytes) {
  uint64_t mask = bytes ? bytes / 16 - 1 : 0;
  return o ^ (o >> 7 & mask) << 4;
}

/// The fp8 operand types of wgmma (a byte each), as the instruction's
/// models take them.
struct WgmmaE4M3 {
  uint8_t bits;
};
struct WgmmaE5M2 {
  uint8_t bits;
};

/// The element of type T at byte `address` from the start a descriptor
/// gives, as the tensor cores read it: the 128-byte swizzle XORs bits 4-6
/// of the shared address with bits 7-9.
template <typename T> inline float wgmmaRead(uint64_t desc, uint64_t address) {
  if (desc >> 62 != 1)
    fail("wgmma descriptor: only the 128-byte swizzle is emulated");
  address = swizzled(address + ((desc & 0x3fff) << 4), 128);
  if (address + sizeof(T) > self().sharedBytes())
    fail("wgmma reads past the dynamic shared memory");
  T v;
  std::memcpy(&v, self().sharedBase() + address, sizeof v);
  if constexpr (std::is_same_v<T, __half>)
    return __half2float(v);
  else if constexpr (std::is_same_v<T, float>) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    if ((bits & 0x1fffu) && !std::isnan(v))
      fail("wgmma tf32 operand not rounded to tf32 (cvt.rna.tf32.f32)");
    return v;
  } else if constexpr (std::is_same_v<T, WgmmaE4M3>)
    return fp8Value(v.bits, kE4M3);
  else if constexpr (std::is_same_v<T, WgmmaE5M2>)
    return fp8Value(v.bits, kE5M2);
  else
    return __bfloat162float(v);
}

/// Element (row, k) of a K-major operand described by `desc`: the core
/// matrices' rows are 128 bytes apart, groups of 8 rows `stride` bytes
/// apart (the descriptor's bits 32-45).
template <typename T>
inline float wgmmaElement(uint64_t desc, unsigned row, unsigned k) {
  uint64_t stride = ((desc >> 32) & 0x3fff) << 4;
  return wgmmaRead<T>(desc,
                      (row / 8) * stride + (row % 8) * 128 + sizeof(T) * k);
}

/// Element (k, n) of an N-major B (the transposed layout, imm-trans-b 1)
/// described by `desc`: 64 columns of a row of k in 128 bytes, rows 128
/// bytes apart, groups of 8 rows `stride` bytes apart (bits 32-45),
/// panels of 64 columns `leading` bytes apart (bits 16-29).
template <typename T>
inline float wgmmaElementNMajor(uint64_t desc, unsigned k, unsigned n) {
  uint64_t leading = ((desc >> 16) & 0x3fff) << 4;
  uint64_t stride = ((desc >> 32) & 0x3fff) << 4;
  return wgmmaRead<T>(desc, (n / 64) * leading + (k / 8) * stride +
                                (k % 8) * 128 + 2 * (n % 64));
}

inline void Worker::retireWgmma(Worker &w, std::size_t pending) {
  auto &groups = w.fibers[w.self].wgmmaGroups;
  while (groups.size() > pending) {
    for (const WgmmaReads &r : groups.front())
      if (r.rehash() != r.hash)
        fail("wgmma: shared memory that an in-flight wgmma reads was "
             "written before wgmma.wait_group retired its group");
    groups.erase(groups.begin());
  }
}

/// Folds the element just read into a running hash of an operand's reads.
inline void hashRead(uint64_t &h, float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  h = (h ^ bits) * 0x100000001b3ull;
}

/// Calls f(i, a, b) for each product a b that this thread's wgmma adds to
/// its accumulator d[i], in k order for each i: thread 4g + t of warp w of
/// its warpgroup holds d[4i + 2h + j] = D[16w + g + 8h][8i + 2t + j].
template <typename T, bool NMajorB, typename F>
inline void wgmmaProducts(unsigned N, uint64_t descA, uint64_t descB, F &&f) {
  unsigned tid = self().self, w = tid / 32 % 4, lane = tid % 32;
  unsigned g = lane / 4, t = lane % 4;
  for (unsigned i = 0; i < N / 8; ++i)
    for (unsigned h = 0; h < 2; ++h)
      for (unsigned j = 0; j < 2; ++j) {
        unsigned row = 16 * w + g + 8 * h, n = 8 * i + 2 * t + j;
        for (unsigned k = 0; k < 32 / sizeof(T); ++k)
          f(4 * i + 2 * h + j, wgmmaElement<T>(descA, row, k),
            NMajorB ? wgmmaElementNMajor<T>(descB, k, n)
                    : wgmmaElement<T>(descB, n, k));
      }
}

/// The hash of the operand elements this thread's wgmma reads.
template <typename T, bool NMajorB>
inline uint64_t wgmmaReadsHash(unsigned N, uint64_t descA, uint64_t descB) {
  uint64_t h = 0xcbf29ce484222325ull;
  wgmmaProducts<T, NMajorB>(N, descA, descB,
                               [&](unsigned, float a, float b) {
                                 hashRead(h, a);
                                 hashRead(h, b);
                               });
  return h;
}

/// wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16}, m64nNk8 on
/// tf32 (T = float: operands must be rounded to tf32), or m64nNk32 on
/// fp8 (T = WgmmaE4M3, WgmmaE5M2; K-major only), both operands from
/// descriptors, A K-major and B K-major or N-major (`NMajorB`): D = d + A B
/// with A 64xK and B KxN (K = 32 bytes of a row), d in the layout of
/// wgmmaProducts. As for mma.sync, the K products are added in k order
/// with fused multiply-adds. Computed when issued; what it read is checked
/// again when its group retires (Worker::retireWgmma).
template <typename T, bool NMajorB>
inline void wgmma(unsigned N, uint64_t descA, uint64_t descB, float *d) {
  static_assert(sizeof(T) > 1 || !NMajorB,
                "wgmma reads fp8 operands K-major only");
  if (self().threads % 128)
    fail("wgmma needs whole warpgroups (blocks of a multiple of 128 threads)");
  uint64_t hash = 0xcbf29ce484222325ull;
  wgmmaProducts<T, NMajorB>(N, descA, descB,
                            [&](unsigned i, float a, float b) {
                              hashRead(hash, a);
                              hashRead(hash, b);
                              d[i] = std::fma(a, b, d[i]);
                            });
  // The atoms it reads: A's 64 rows are 8; a K-major B's N rows N / 8;
  // an N-major B's K rows (16 or 8) one or two in each 64-column panel.
  auto atom = [](uint64_t desc) { return ((desc & 0x3fff) << 4) & ~1023ull; };
  std::vector<std::pair<uint64_t, uint64_t>> atoms{
      {atom(descA), atom(descA) + 8 * 1024}};
  if (NMajorB) {
    uint64_t leading = ((descB >> 16) & 0x3fff) << 4;
    for (unsigned p = 0; p < (N + 63) / 64; ++p)
      atoms.push_back({atom(descB) + p * leading,
                       atom(descB) + p * leading + 2048});
  } else {
    atoms.push_back({atom(descB), atom(descB) + (N + 7) / 8 * 1024});
  }
  self().fibers[self().self].wgmmaOpen.push_back(
      {[=] { return wgmmaReadsHash<T, NMajorB>(N, descA, descB); }, hash,
       std::move(atoms)});
}

template <int N, typename T, bool NMajorB = false>
inline void wgmma(uint64_t descA, uint64_t descB, float *d) {
  wgmma<T, NMajorB>(N, descA, descB, d);
}

} // namespace xt_emu

inline uint64_t xt_wgmma_desc(const void *p, uint32_t panel = 16) {
  return xt_emu::wgmmaDescriptor(p, panel);
}
inline void xt_wgmma_fence() {}
inline void xt_wgmma_commit() {
  xt_emu::Fiber &f = xt_emu::self().fibers[xt_emu::self().self];
  f.wgmmaGroups.push_back(std::move(f.wgmmaOpen));
  f.wgmmaOpen.clear();
}
template <int N> inline void xt_wgmma_wait() {
  xt_emu::Worker::retireWgmma(xt_emu::self(), N);
}
template <int N> inline void xt_wgmma_wait_in_flight() {
  xt_emu::Worker::retireWgmma(xt_emu::self(), N);
}
inline void xt_fence_proxy_async() {}
// Registers are not modelled: the warpgroup goes on as it was.
template <int N> inline void xt_setmaxnreg_dec() {
  static_assert(N >= 24 && N <= 256 && N % 8 == 0, "setmaxnreg: 24 to 256");
}
template <int N> inline void xt_setmaxnreg_inc() {
  static_assert(N >= 24 && N <= 256 && N % 8 == 0, "setmaxnreg: 24 to 256");
}

template <int N, bool Trans>
inline void xt_ldmatrix_b16(const void *row, uint32_t *r) {
  xt_emu::ldmatrix<N, Trans>(row, r);
}
inline void xt_mma_bf16(const uint32_t *a, const uint32_t *b, float *d) {
  xt_emu::mma(a, b, d, xt_emu::bf16Bits);
}
inline void xt_mma_f16(const uint32_t *a, const uint32_t *b, float *d) {
  xt_emu::mma(a, b, d, xt_emu::f16Bits);
}
inline void xt_mma_tf32(const uint32_t *a, const uint32_t *b, float *d) {
  xt_emu::mmaTf32(a, b, d);
}
inline void xt_mma_e4m3(const uint32_t *a, const uint32_t *b, float *d) {
  xt_emu::mma<4>(a, b, d, xt_emu::e4m3Bits);
}
inline void xt_mma_e5m2(const uint32_t *a, const uint32_t *b, float *d) {
  xt_emu::mma<4>(a, b, d, xt_emu::e5m2Bits);
}
inline float xt_round_tf32(float x) { return xt_emu::roundTf32(x); }

//===----------------------------------------------------------------------===//
// Bulk tensor copies (TMA) and mbarriers (xkernel.tma_load,
// xkernel.mbarrier_*). A copy lands in shared memory as late as it may: in
// a wait on its mbarrier, once no thread can proceed otherwise. A thread
// that reads the destination before its wait sees what was there before.
//===----------------------------------------------------------------------===//

namespace xt_emu {

/// The emulation's CUtensorMap (the driver's is 128 opaque bytes): what
/// cuTensorMapEncodeTiled accepted, dimensions innermost first.
struct TensorMap {
  uint32_t magic;        // kTensorMapMagic
  uint32_t rank;         // 1 to 5
  uint32_t elementBytes; // of the data type
  uint32_t swizzleBytes; // 0, 32, 64 or 128
  const unsigned char *base;
  uint64_t dims[5];
  uint64_t strides[5]; // bytes between neighbours in each dimension
  uint32_t box[5];
};
static_assert(sizeof(TensorMap) <= 128, "a tensor map is 128 bytes");
constexpr uint32_t kTensorMapMagic = 0x584d4150;

/// The element bytes of a CUtensorMapDataType: UINT8 0, UINT16 1, UINT32
/// 2, INT32 3, UINT64 4, INT64 5, FLOAT16 6, FLOAT32 7, FLOAT64 8,
/// BFLOAT16 9; 0 for the others (not emulated).
inline uint32_t tensorMapElementBytes(int dataType) {
  static const uint32_t bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2};
  return dataType >= 0 && dataType < 10 ? bytes[dataType] : 0;
}

/// The bytes of one box of `m`, what a copy of it completes on its
/// mbarrier (elements outside the tensor included).
inline uint64_t tensorMapBoxBytes(const TensorMap &m) {
  uint64_t bytes = m.elementBytes;
  for (unsigned d = 0; d < m.rank; ++d)
    bytes *= m.box[d];
  return bytes;
}

/// cuTensorMapEncodeTiled: writes at `map` (128 bytes, 64-byte aligned)
/// the tensor map of the `rank` dimensions `dims` (innermost first) at
/// `base`, `strides` the bytes between neighbours in dimensions 1 to
/// rank - 1, boxes of `box` elements, `swizzle` a CUtensorMapSwizzle (0
/// none, 1, 2, 3: 32, 64, 128 bytes). Returns 0 (CUDA_SUCCESS), or 1
/// (CUDA_ERROR_INVALID_VALUE) for what the driver rejects: a rank outside
/// 1 to 5, `base` not 16-byte aligned, a dimension outside 1 to 2^32, a
/// stride not a multiple of 16 or not below 2^40, a box dimension outside
/// 1 to 256, a box row (box[0] elements) not a multiple of 16 bytes or,
/// swizzled, wider than the swizzle; and for what the emulation does not
/// model: interleaved layouts, element strides other than 1, the NaN fill
/// of out-of-bounds elements, data types after BFLOAT16.
inline int encodeTensorMap(void *map, int dataType, unsigned rank,
                           const void *base, const uint64_t *dims,
                           const uint64_t *strides, const uint32_t *box,
                           const uint32_t *elementStrides, int interleave,
                           int swizzle, int l2Promotion, int oobFill) {
  constexpr int kInvalidValue = 1;
  uint32_t elementBytes = tensorMapElementBytes(dataType);
  if (!map || reinterpret_cast<uintptr_t>(map) % 64 || !elementBytes ||
      rank < 1 || rank > 5 || reinterpret_cast<uintptr_t>(base) % 16 ||
      interleave != 0 || swizzle < 0 || swizzle > 3 || l2Promotion < 0 ||
      l2Promotion > 3 || oobFill != 0)
    return kInvalidValue;
  TensorMap m{};
  m.magic = kTensorMapMagic;
  m.rank = rank;
  m.elementBytes = elementBytes;
  m.swizzleBytes = swizzle ? 16u << swizzle : 0;
  m.base = static_cast<const unsigned char *>(base);
  for (unsigned d = 0; d < rank; ++d) {
    if (dims[d] < 1 || dims[d] > (uint64_t(1) << 32) || box[d] < 1 ||
        box[d] > 256 || elementStrides[d] != 1)
      return kInvalidValue;
    if (d > 0 && (strides[d - 1] % 16 || strides[d - 1] >= uint64_t(1) << 40))
      return kInvalidValue;
    m.dims[d] = dims[d];
    m.strides[d] = d > 0 ? strides[d - 1] : elementBytes;
    m.box[d] = box[d];
  }
  uint64_t row = uint64_t(box[0]) * elementBytes;
  if (row % 16 || (m.swizzleBytes && row > m.swizzleBytes))
    return kInvalidValue;
  std::memset(map, 0, 128);
  std::memcpy(map, &m, sizeof m);
  return 0;
}

/// An mbarrier's state, in its 8 bytes of shared memory as on the GPU (the
/// layout is the emulation's): the arrivals the current phase still waits
/// for (bits 0-19), the arrivals each phase expects (bits 20-39; 0 before
/// mbarrier.init), the bytes of bulk copies the phase still waits for (the
/// tx-count, bits 40-59) and the current phase's parity (bit 63). A phase
/// completes once neither arrivals nor bytes are pending: the parity flips
/// and the next phase waits for the expected arrivals.
struct Mbarrier {
  uint32_t pending, expected, tx, phase;
  static constexpr uint32_t kMax = (1u << 20) - 1;
  static Mbarrier decode(uint64_t s) {
    return {uint32_t(s & kMax), uint32_t(s >> 20 & kMax),
            uint32_t(s >> 40 & kMax), uint32_t(s >> 63)};
  }
  uint64_t encode() const {
    return uint64_t(pending) | uint64_t(expected) << 20 |
           uint64_t(tx) << 40 | uint64_t(phase) << 63;
  }
};

/// The state of the mbarrier at `bar`, read with `order` by the
/// instruction `what`, which fails unless the mbarrier is 8-byte aligned
/// and initialized.
inline Mbarrier mbarrierState(uint64_t *bar, const char *what, int order) {
  if (reinterpret_cast<uintptr_t>(bar) % 8)
    failf("%s: the mbarrier is not 8-byte aligned", what);
  Mbarrier m = Mbarrier::decode(__atomic_load_n(bar, order));
  if (m.expected == 0)
    failf("%s: the mbarrier was not initialized (mbarrier.init)", what);
  return m;
}

/// Applies `change` to the state of the mbarrier at `bar` for `what`, then
/// completes the phase if nothing is pending. A release: what this thread
/// wrote before is seen by the threads that see the phase complete.
template <typename F>
inline void mbarrierUpdate(uint64_t *bar, const char *what, F change) {
  Mbarrier m = mbarrierState(bar, what, __ATOMIC_RELAXED);
  change(m);
  if (m.pending == 0 && m.tx == 0) {
    m.phase ^= 1;
    m.pending = m.expected;
  }
  // The block's threads share one OS thread: the state is as it was read.
  __atomic_exchange_n(bar, m.encode(), __ATOMIC_RELEASE);
}

/// mbarrier.init: phase 0, `count` arrivals expected per phase (1 to
/// 2^20 - 1), no bytes.
inline void mbarrierInit(uint64_t *bar, unsigned count) {
  if (reinterpret_cast<uintptr_t>(bar) % 8)
    fail("mbarrier.init: the mbarrier is not 8-byte aligned");
  if (count < 1 || count > Mbarrier::kMax)
    failf("mbarrier.init: %u arrivals: expected 1 to %u", count,
          Mbarrier::kMax);
  __atomic_store_n(bar, Mbarrier{count, count, 0, 0}.encode(),
                   __ATOMIC_RELEASE);
}

/// mbarrier.arrive.expect_tx: the current phase also waits for `bytes`
/// bytes of bulk copies, then this thread arrives.
inline void mbarrierArriveExpectTx(uint64_t *bar, unsigned bytes) {
  const char *what = "mbarrier.arrive.expect_tx";
  mbarrierUpdate(bar, what, [&](Mbarrier &m) {
    if (m.pending == 0)
      failf("%s: an arrival beyond the %u the phase expects", what,
            m.expected);
    if (bytes > Mbarrier::kMax - m.tx)
      failf("%s: %u more bytes overflow the tx-count (%u pending, at most "
            "%u)", what, bytes, m.tx, Mbarrier::kMax);
    m.tx += bytes;
    --m.pending;
  });
}

/// mbarrier.arrive: this thread arrives on the current phase.
inline void mbarrierArrive(uint64_t *bar) {
  const char *what = "mbarrier.arrive";
  mbarrierUpdate(bar, what, [&](Mbarrier &m) {
    if (m.pending == 0)
      failf("%s: an arrival beyond the %u the phase expects", what,
            m.expected);
    --m.pending;
  });
}

/// cp.async.bulk.tensor.<rank>d...mbarrier::complete_tx::bytes: the box of
/// the tensor map at `map` whose first element is at `coords` (innermost
/// first) is copied to `dst` (dynamic shared memory, 128-byte aligned) when
/// a thread waits on `bar` (tmaLand), not before.
inline void tmaLoad(void *dst, const void *map, uint64_t *bar,
                    const int32_t *coords, unsigned rank) {
  const char *what = "cp.async.bulk.tensor";
  Worker &w = self();
  const auto *m = static_cast<const TensorMap *>(map);
  if (!m || reinterpret_cast<uintptr_t>(m) % 64 ||
      m->magic != kTensorMapMagic)
    failf("%s: %p is not a tensor map (xt_tensor_map, "
          "cuTensorMapEncodeTiled)", what, map);
  if (m->rank != rank)
    failf("%s.%ud: the tensor map has rank %u", what, rank, m->rank);
  std::ptrdiff_t offset = static_cast<unsigned char *>(dst) - w.sharedBase();
  uint64_t limit = w.sharedBytes(), bytes = tensorMapBoxBytes(*m);
  if (offset < 0 || uint64_t(offset) >= limit)
    failf("%s: the destination is not in dynamic shared memory", what);
  if (offset % 128)
    failf("%s: the destination (shared offset %lld) is not 128-byte aligned",
          what, (long long)offset);
  // A swizzle moves chunks within the 128 bytes around them.
  uint64_t end = uint64_t(offset) + (m->swizzleBytes ? (bytes + 127) / 128 * 128
                                                    : bytes);
  if (end > limit)
    failf("%s: the box's %llu bytes at shared offset %lld run past the %llu "
          "bytes of dynamic shared memory", what, (unsigned long long)bytes,
          (long long)offset, (unsigned long long)limit);
  mbarrierState(bar, what, __ATOMIC_RELAXED); // initialized
  // The copy may land at any time until its phase completes: never into
  // what a wgmma of the block still in flight reads.
  for (const Fiber &f : w.fibers) {
    auto overlaps = [&](const WgmmaReads &r) {
      for (auto [lo, hi] : r.atoms)
        if (lo < end && uint64_t(offset) < hi)
          return true;
      return false;
    };
    bool hazard = std::any_of(f.wgmmaOpen.begin(), f.wgmmaOpen.end(), overlaps);
    for (const std::vector<WgmmaReads> &group : f.wgmmaGroups)
      hazard = hazard || std::any_of(group.begin(), group.end(), overlaps);
    if (hazard)
      failf("%s: writes shared memory that an in-flight wgmma reads "
            "(before wgmma.wait_group retired its group)", what);
  }
  unsigned used = w.tmaSlots.load(std::memory_order_relaxed), i = 0;
  while (i < used && w.tmaCopies[i].bar.load(std::memory_order_relaxed))
    ++i;
  if (i == Worker::kTmaCopies)
    failf("%s: more than %u bulk tensor copies in flight in a block", what,
          Worker::kTmaCopies);
  if (i == used)
    w.tmaSlots.store(used + 1, std::memory_order_relaxed);
  TmaCopy &c = w.tmaCopies[i];
  c.order.store(w.tmaIssued.fetch_add(1, std::memory_order_relaxed),
                std::memory_order_relaxed);
  c.dst.store(static_cast<unsigned char *>(dst), std::memory_order_relaxed);
  c.map.store(m, std::memory_order_relaxed);
  for (unsigned d = 0; d < rank; ++d)
    c.coords[d].store(coords[d], std::memory_order_relaxed);
  c.bar.store(bar, std::memory_order_relaxed);
}

/// Writes the box of `m` whose first element is at `start` (innermost
/// first) to dynamic shared memory from byte `offset` as the copy engine
/// does: its rows (box[0] elements each) one after another, dimension 1
/// varying fastest, elements outside the tensor zero; then each 16-byte
/// chunk moves to its offset in the map's swizzle (swizzled).
inline void tmaWrite(const TensorMap &m, uint64_t offset,
                     const int32_t *start) {
  unsigned char *shared = self().sharedBase();
  uint64_t rows = 1;
  for (unsigned d = 1; d < m.rank; ++d)
    rows *= m.box[d];
  for (uint64_t r = 0; r < rows; ++r) {
    // The row's start in global memory, if it is inside the tensor.
    const unsigned char *row = m.base;
    bool inside = true;
    uint64_t rest = r;
    for (unsigned d = 1; d < m.rank; ++d) {
      int64_t c = int64_t(start[d]) + int64_t(rest % m.box[d]);
      rest /= m.box[d];
      inside = inside && c >= 0 && uint64_t(c) < m.dims[d];
      if (inside)
        row += uint64_t(c) * m.strides[d];
    }
    for (uint32_t i = 0; i < m.box[0]; ++i) {
      uint64_t o = swizzled(offset + (r * m.box[0] + i) * m.elementBytes,
                            m.swizzleBytes);
      int64_t c = int64_t(start[0]) + i;
      if (inside && c >= 0 && uint64_t(c) < m.dims[0])
        std::memcpy(shared + o, row + uint64_t(c) * m.elementBytes,
                    m.elementBytes);
      else
        std::memset(shared + o, 0, m.elementBytes);
    }
  }
}

/// Lands the copies issued on the mbarrier at `bar`, in issue order: each
/// writes its box, then its bytes complete on the barrier's phase, which
/// must expect them.
inline void tmaLand(uint64_t *bar) {
  const char *what = "cp.async.bulk.tensor";
  Worker &w = self();
  std::vector<TmaCopy *> copies;
  for (unsigned i = 0, n = w.tmaSlots.load(std::memory_order_relaxed); i < n;
       ++i)
    if (w.tmaCopies[i].bar.load(std::memory_order_relaxed) == bar)
      copies.push_back(&w.tmaCopies[i]);
  std::sort(copies.begin(), copies.end(), [](TmaCopy *a, TmaCopy *b) {
    return a->order.load(std::memory_order_relaxed) <
           b->order.load(std::memory_order_relaxed);
  });
  for (TmaCopy *c : copies) {
    const TensorMap &m = *c->map.load(std::memory_order_relaxed);
    int32_t start[5];
    for (unsigned d = 0; d < m.rank; ++d)
      start[d] = c->coords[d].load(std::memory_order_relaxed);
    tmaWrite(m, uint64_t(c->dst.load(std::memory_order_relaxed) -
                         w.sharedBase()),
             start);
    c->bar.store(nullptr, std::memory_order_relaxed);
    uint64_t bytes = tensorMapBoxBytes(m);
    mbarrierUpdate(bar, what, [&](Mbarrier &s) {
      if (bytes > s.tx)
        failf("%s: a copy's %llu bytes complete on an mbarrier phase that "
              "expects %u more (mbarrier.arrive.expect_tx)", what,
              (unsigned long long)bytes, s.tx);
      s.tx -= uint32_t(bytes);
    });
  }
}

/// mbarrier.try_wait.parity in a loop: returns once the phase of `parity`
/// (the phase's number modulo 2) has completed, i.e. the current phase has
/// the other parity. Until then, lets the other threads run, and lands the
/// copies issued on the barrier when the scheduler says none of them can
/// proceed; fails when none of them can complete the phase.
inline void mbarrierWait(uint64_t *bar, unsigned parity) {
  const char *what = "mbarrier.try_wait.parity";
  if (parity > 1)
    failf("%s: parity %u: expected 0 or 1", what, parity);
  Worker &w = self();
  Fiber &f = w.fibers[w.self];
  for (bool again = false;; again = true) {
    bool land = f.land.exchange(false, std::memory_order_relaxed);
    Mbarrier m = mbarrierState(bar, what, __ATOMIC_ACQUIRE);
    if (m.phase != parity)
      return;
    if (land) {
      tmaLand(bar);
      m = mbarrierState(bar, what, __ATOMIC_ACQUIRE);
      if (m.phase != parity)
        return;
    }
    if (f.stuck.load(std::memory_order_relaxed))
      failf("mbarrier wait (parity %u): the phase never completes: %u of "
            "its %u arrivals and %u bytes are missing, and no other thread "
            "can arrive (each has exited or waits)",
            parity, m.pending, m.expected, m.tx);
    f.polling.store(again, std::memory_order_relaxed);
    f.wait.store(Wait::mbarrier, std::memory_order_relaxed);
    w.yield();
    f.wait.store(Wait::running, std::memory_order_relaxed);
  }
}

} // namespace xt_emu

inline void xt_mbarrier_init(uint64_t *bar, unsigned count) {
  xt_emu::mbarrierInit(bar, count);
}
inline void xt_mbarrier_arrive_expect_tx(uint64_t *bar, unsigned bytes) {
  xt_emu::mbarrierArriveExpectTx(bar, bytes);
}
inline void xt_mbarrier_arrive(uint64_t *bar) { xt_emu::mbarrierArrive(bar); }
// bar.sync id, threads: a named barrier of part of the block.
inline void xt_named_barrier(unsigned id, unsigned threads) {
  xt_emu::Worker &w = xt_emu::self();
  if (id < 1 || id > 15 || threads == 0 || threads % 32 || threads > w.threads)
    xt_emu::failf("bar.sync %u, %u: expected barrier 1 to 15 and a thread "
                  "count in whole warps, at most the block's %u",
                  id, threads, w.threads);
  w.barrier(id, threads);
}
inline void xt_mbarrier_wait(uint64_t *bar, unsigned parity) {
  xt_emu::mbarrierWait(bar, parity);
}
inline void xt_tma_load(void *dst, const void *map, uint64_t *bar, int c0) {
  const int32_t c[] = {c0};
  xt_emu::tmaLoad(dst, map, bar, c, 1);
}
inline void xt_tma_load(void *dst, const void *map, uint64_t *bar, int c0,
                        int c1) {
  const int32_t c[] = {c0, c1};
  xt_emu::tmaLoad(dst, map, bar, c, 2);
}
inline void xt_tma_load(void *dst, const void *map, uint64_t *bar, int c0,
                        int c1, int c2) {
  const int32_t c[] = {c0, c1, c2};
  xt_emu::tmaLoad(dst, map, bar, c, 3);
}
inline void xt_tma_load(void *dst, const void *map, uint64_t *bar, int c0,
                        int c1, int c2, int c3) {
  const int32_t c[] = {c0, c1, c2, c3};
  xt_emu::tmaLoad(dst, map, bar, c, 4);
}
inline void xt_tma_load(void *dst, const void *map, uint64_t *bar, int c0,
                        int c1, int c2, int c3, int c4) {
  const int32_t c[] = {c0, c1, c2, c3, c4};
  xt_emu::tmaLoad(dst, map, bar, c, 5);
}

/// The encoder of the prelude's xt_tensor_map (xkernel.tensor_map's host
/// side): the emulation's tensor map, as cuTensorMapEncodeTiled makes it
/// here, with element strides 1, interleave none, L2 promotion 128 bytes
/// and zero fill.
inline cudaError_t xt_encode_tensor_map(void *encoded, int dtype,
                                        unsigned rank, const void *base,
                                        const uint64_t *dims,
                                        const uint64_t *strides,
                                        const uint32_t *box, int swizzle) {
  const uint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  return xt_emu::encodeTensorMap(encoded, dtype, rank, base, dims, strides,
                                 box, elementStrides, 0, swizzle, 2, 0)
             ? cudaErrorInvalidValue
             : cudaSuccess;
}

//===----------------------------------------------------------------------===//
// The special-function instructions of xkernel.approx, each with the full
// error the PTX ISA allows it, in a direction fixed by the input: what runs
// here is no more accurate than the GPU may be.
//===----------------------------------------------------------------------===//

namespace xt_emu {
/// +1 or -1 for the input `x` of instruction `salt`.
inline int errorSign(float x, uint32_t salt) {
  uint32_t h = (toBits(x) ^ salt) * 0x9e3779b1u;
  h ^= h >> 15;
  h *= 0x85ebca77u;
  h ^= h >> 13;
  return (h & 1) ? 1 : -1;
}
inline float flush(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}
/// `y` moved by `ulps` units in the last place, stopping short of zero and
/// infinity.
inline float stepUlps(float y, int ulps) {
  if (!std::isfinite(y) || y == 0)
    return y;
  for (int i = 0; i < std::abs(ulps); ++i) {
    float next = std::nextafter(y, ulps > 0 ? INFINITY : -INFINITY);
    if (!std::isfinite(next) || next == 0 || std::signbit(next) != std::signbit(y))
      break;
    y = next;
  }
  return y;
}
/// `exact` with a relative error of `bound`, rounded to f32.
inline float relative(double exact, double bound, int sign) {
  return float(exact * (1.0 + sign * bound));
}
} // namespace xt_emu

// ex2.approx: 2 ulp (of the correctly rounded result's binade) from the
// correctly rounded result; exact at integers.
inline float xt_ex2(float x) {
  float r = float(std::exp2(double(x)));
  if (x == std::nearbyint(x) || !std::isfinite(r) || r == 0)
    return r;
  int e;
  std::frexp(r, &e);
  double ulp = std::ldexp(1.0, std::max(e - 24, -149));
  double target = double(r) + 2 * xt_emu::errorSign(x, 1) * ulp;
  float d = float(target);
  // The representable value nearest `target` on r's side.
  if (std::fabs(double(d) - double(r)) > 2 * ulp)
    d = std::nextafter(d, r);
  return std::isfinite(d) ? d : r;
}
inline float xt_ex2_ftz(float x) {
  return xt_emu::flush(xt_ex2(xt_emu::flush(x)));
}
// lg2.approx: 2^-22 absolute in (0.5, 2), else 2^-22 relative.
inline float xt_lg2(float x) {
  double exact = std::log2(double(x));
  if (!std::isfinite(exact))
    return float(exact);
  double bound = x > 0.5f && x < 2.0f ? 0x1p-22 : std::fabs(exact) * 0x1p-22;
  return float(exact + xt_emu::errorSign(x, 2) * bound);
}
inline float xt_lg2_ftz(float x) { return xt_lg2(xt_emu::flush(x)); }
// rcp.approx.ftz: 1 ulp.
inline float xt_rcp_ftz(float x) {
  x = xt_emu::flush(x);
  return xt_emu::flush(
      xt_emu::stepUlps(float(1.0 / double(x)), xt_emu::errorSign(x, 3)));
}
// div.full.f32: 2 ulp over the full range, subnormals kept.
inline float xt_div_full(float x, float y) {
  int sign = xt_emu::errorSign(x, 6) * xt_emu::errorSign(y, 7);
  return xt_emu::stepUlps(float(double(x) / double(y)), 2 * sign);
}
// rcp without ftz, as xtile prints it: div.full.f32 of 1 by x.
inline float xt_rcp(float x) { return xt_div_full(1.0f, x); }
// rsqrt.approx: 2^-22.9 relative.
inline float xt_rsqrt(float x) {
  return xt_emu::relative(1.0 / std::sqrt(double(x)), 0x1.0p-22 / 1.8660659830736148,
                          xt_emu::errorSign(x, 4));
}
inline float xt_rsqrt_ftz(float x) {
  return xt_emu::flush(xt_rsqrt(xt_emu::flush(x)));
}
// sqrt.approx: 2^-23 relative.
inline float xt_sqrt(float x) {
  return xt_emu::relative(std::sqrt(double(x)), 0x1p-23, xt_emu::errorSign(x, 5));
}
inline float xt_sqrt_ftz(float x) {
  return xt_emu::flush(xt_sqrt(xt_emu::flush(x)));
}

/// Launches `kernel`: every block, every thread.
template <typename... Params, typename... Args>
inline cudaError_t xt_launch(void (*kernel)(Params...), dim3 grid, dim3 block,
                             size_t shared, cudaStream_t, Args... args) {
  std::function<void()> body = [=] { kernel(Params(args)...); };
  Dl_info info;
  const char *name = dladdr(reinterpret_cast<void *>(kernel), &info) &&
                             info.dli_sname
                         ? info.dli_sname
                         : "(unnamed)";
  xt_emu::Launch launch{name, grid, block, shared, &body};
  return xt_emu::run(launch);
}

//===----------------------------------------------------------------------===//
// Kernels launched as the CUDA driver launches them
//===----------------------------------------------------------------------===//

namespace xt_emu {

/// Launches a kernel from an array of pointers to its parameters, as
/// cuLaunchKernel takes them.
using DriverLauncher = cudaError_t (*)(dim3 grid, dim3 block, size_t shared,
                                       void **params);

/// A kernel by its PTX name. xtile-translate --mlir-to-cuda ends its output
/// with the table `xt_emu_kernels` of them, ended by a null name.
struct DriverKernel {
  const char *name;
  DriverLauncher launch;
};

template <typename... P, size_t... I>
inline cudaError_t launchPacked(void (*kernel)(P...), dim3 grid, dim3 block,
                                size_t shared, void **params,
                                std::index_sequence<I...>) {
  return xt_launch(kernel, grid, block, shared, nullptr,
                   *static_cast<P *>(params[I])...);
}

template <typename... P>
constexpr std::index_sequence_for<P...> parameterIndices(void (*)(P...)) {
  return {};
}

template <auto Kernel>
cudaError_t packed(dim3 grid, dim3 block, size_t shared, void **params) {
  return launchPacked(Kernel, grid, block, shared, params,
                      parameterIndices(Kernel));
}

} // namespace xt_emu

//===----------------------------------------------------------------------===//
// The CUDA driver API
//===----------------------------------------------------------------------===//
//
// Built with -DXTILE_EMULATION_DRIVER into a shared library, the emitted
// CUDA C of a module is also a CUDA driver (libcuda.so.1) with one emulated
// GPU whose "PTX" runs the module's kernels: cuModuleGetFunction finds a
// kernel when the loaded PTX has its `.entry` and the emulation has it.
// Memory is host memory. Hosts that load PTX through the driver API
// (xtile-run --backend=cuda, python/xtile without nvcc) then run on the CPU
// with XTILE_LIBCUDA naming the library.

#ifdef XTILE_EMULATION_DRIVER
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

namespace xt_emu {
#ifdef XTILE_EMULATION_PTX
/// Built with -DXTILE_EMULATION_PTX, the GPU runs the PTX path's own code
/// instead (runtime/xtile_ptx_host.cpp): the kernels of a host object
/// from `xtile-translate --mlir-to-host-ptx --host-ptx-object`, each
/// through its entry point, which takes cuLaunchKernel's parameters.
struct PtxKernel {
  const char *name;
  void (*entry)(void **params);
};
#endif
} // namespace xt_emu

#ifdef XTILE_EMULATION_PTX
extern "C" const xt_emu::PtxKernel xt_ptx_kernels[];
extern "C" const uint64_t xt_ptx_image_hash;
#else
extern "C" const xt_emu::DriverKernel xt_emu_kernels[];
#endif

namespace xt_emu {
struct DriverModule {
  std::string image;
};
/// The PTX path's image hash (lib/Target/PTX, hashPTX): 64-bit FNV-1a.
inline uint64_t hashImage(const std::string &text) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}
using DriverClock = std::chrono::steady_clock;
inline void *currentContext = nullptr;
inline int primaryContext;

/// A kernel as cuModuleGetFunction gives it: the emulation's kernel and
/// the bytes of each parameter, read from the `.entry`'s parameter list in
/// the loaded PTX (as the driver knows them), so that a launch captured
/// into a graph keeps its parameters by value.
struct DriverFunction {
  const void *kernel;
  std::vector<size_t> paramBytes;
};

/// The bytes of each parameter of `.entry name(...)` in `ptx`: `.param
/// .u64 x` is 8, `.param .align A .b8 x[N]` is N.
inline std::vector<size_t> entryParamBytes(const std::string &ptx,
                                           const std::string &name) {
  std::vector<size_t> bytes;
  size_t at = ptx.find(".entry " + name + "(");
  if (at == std::string::npos)
    return bytes;
  size_t end = ptx.find(')', at);
  std::string list = ptx.substr(at, end - at);
  for (size_t p = list.find(".param"); p != std::string::npos;
       p = list.find(".param", p + 6)) {
    size_t next = list.find(".param", p + 6);
    std::string one = list.substr(p, next == std::string::npos ? std::string::npos
                                                               : next - p);
    size_t bracket = one.find('[');
    if (bracket != std::string::npos) {
      bytes.push_back(std::strtoull(one.c_str() + bracket + 1, nullptr, 10));
      continue;
    }
    // The type is the token after `.param` (and `.align N`): .u64,
    // .b32, .f32, ...
    size_t size = 8;
    for (auto [type, n] : {std::pair{".b8 ", 1}, {".u8 ", 1}, {".s8 ", 1},
                           {".b16 ", 2}, {".u16 ", 2}, {".s16 ", 2},
                           {".f16 ", 2}, {".b32 ", 4}, {".u32 ", 4},
                           {".s32 ", 4}, {".f32 ", 4}})
      if (one.find(type) != std::string::npos)
        size = n;
    bytes.push_back(size);
  }
  return bytes;
}

/// One node of a captured graph: a kernel launch with its parameters'
/// bytes, or a device-to-device copy.
struct GraphNode {
  const DriverFunction *function = nullptr;
  dim3 grid, block;
  unsigned shared = 0;
  std::vector<std::vector<char>> params;
  unsigned long long to = 0, from = 0;
  size_t bytes = 0;
};
/// A graph, and an instantiated one: its nodes in the order the stream
/// captured them (one stream: each depends on the one before).
struct Graph {
  std::vector<GraphNode> nodes;
};
/// A stream made by cuStreamCreate; a capturing one records what is
/// issued on it instead of running it.
struct Stream {
  Graph *capturing = nullptr;
};
inline Graph *capturingOn(void *stream) {
  return stream ? static_cast<Stream *>(stream)->capturing : nullptr;
}
} // namespace xt_emu

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

extern "C" {
CUresult cuInit(unsigned) { return 0; }
CUresult cuDriverGetVersion(int *version) {
  *version = 12000;
  return 0;
}
CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return 0;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  if (ordinal != 0)
    return 101; // CUDA_ERROR_INVALID_DEVICE
  *device = 0;
  return 0;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int) {
  // Compute capability 9.0; every other attribute reads as 0.
  *value = attribute == 75 ? 9 : 0;
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **context, int) {
  *context = &xt_emu::primaryContext;
  return 0;
}
CUresult cuDevicePrimaryCtxRelease_v2(int) { return 0; }
CUresult cuCtxSetCurrent(void *context) {
  xt_emu::currentContext = context;
  return 0;
}
CUresult cuCtxGetCurrent(void **context) {
  *context = xt_emu::currentContext;
  return 0;
}
CUresult cuCtxSynchronize() { return 0; }
CUresult cuStreamSynchronize(void *stream);
CUresult cuModuleLoadData(void **module, const void *image) {
  std::string text = static_cast<const char *>(image);
  if (text.find(".version") == std::string::npos ||
      text.find(".target") == std::string::npos)
    return 218; // CUDA_ERROR_INVALID_PTX
#ifdef XTILE_EMULATION_PTX
  // The PTX path's code runs here: only the PTX it was compiled with may
  // be loaded, or the kernels would not be the ones the image names.
  if (xt_emu::hashImage(text) != xt_ptx_image_hash) {
    std::fprintf(stderr,
                 "xtile emulation: cuModuleLoadData: the PTX (hash %016llx) "
                 "is not the one this emulated GPU's code was compiled with "
                 "(hash %016llx)\n",
                 (unsigned long long)xt_emu::hashImage(text),
                 (unsigned long long)xt_ptx_image_hash);
    return 218; // CUDA_ERROR_INVALID_PTX
  }
#endif
  *module = new xt_emu::DriverModule{text};
  return 0;
}
CUresult cuModuleUnload(void *module) {
  delete static_cast<xt_emu::DriverModule *>(module);
  return 0;
}
CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  const std::string &ptx = static_cast<xt_emu::DriverModule *>(module)->image;
  if (ptx.find(".entry " + std::string(name) + "(") == std::string::npos)
    return 500; // CUDA_ERROR_NOT_FOUND
  const void *kernel = nullptr;
#ifdef XTILE_EMULATION_PTX
  for (const xt_emu::PtxKernel *k = xt_ptx_kernels; k->name; ++k)
    if (std::strcmp(k->name, name) == 0)
      kernel = k;
#else
  for (const xt_emu::DriverKernel *k = xt_emu_kernels; k->name; ++k)
    if (std::strcmp(k->name, name) == 0)
      kernel = k;
#endif
  if (!kernel)
    return 500;
  *function = new xt_emu::DriverFunction{kernel,
                                         xt_emu::entryParamBytes(ptx, name)};
  return 0;
}
CUresult cuFuncSetAttribute(void *, int, int) { return 0; }
CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        void *stream, void **params, void **extra) {
  if (!function || extra)
    return 1; // CUDA_ERROR_INVALID_VALUE
  auto *f = static_cast<const xt_emu::DriverFunction *>(function);
  if (xt_emu::Graph *graph = xt_emu::capturingOn(stream)) {
    // Captured: the parameters are copied now, as the driver does.
    xt_emu::GraphNode node;
    node.function = f;
    node.grid = dim3(gx, gy, gz);
    node.block = dim3(bx, by, bz);
    node.shared = shared;
    for (size_t i = 0; i < f->paramBytes.size(); ++i) {
      const char *p = static_cast<const char *>(params[i]);
      node.params.emplace_back(p, p + f->paramBytes[i]);
    }
    graph->nodes.push_back(std::move(node));
    return 0;
  }
#ifdef XTILE_EMULATION_PTX
  auto *k = static_cast<const xt_emu::PtxKernel *>(f->kernel);
  std::function<void()> body = [=] { k->entry(params); };
  cudaError_t err = xt_emu::run(xt_emu::Launch{
      k->name, dim3(gx, gy, gz), dim3(bx, by, bz), shared, &body});
#else
  auto *k = static_cast<const xt_emu::DriverKernel *>(f->kernel);
  cudaError_t err = k->launch(dim3(gx, gy, gz), dim3(bx, by, bz), shared, params);
#endif
  return err == cudaSuccess ? 0 : err == cudaErrorInvalidValue ? 1 : 719;
}
CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  void *p = nullptr;
  if (cudaMallocAsync(&p, bytes, nullptr) != cudaSuccess)
    return 2; // CUDA_ERROR_OUT_OF_MEMORY
  *pointer = reinterpret_cast<CUdeviceptr>(p);
  return 0;
}
CUresult cuMemFree_v2(CUdeviceptr pointer) {
  std::free(reinterpret_cast<void *>(pointer));
  return 0;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr to, const void *from, size_t bytes) {
  std::memmove(reinterpret_cast<void *>(to), from, bytes);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *to, CUdeviceptr from, size_t bytes) {
  std::memmove(to, reinterpret_cast<const void *>(from), bytes);
  return 0;
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr to, CUdeviceptr from, size_t bytes) {
  std::memmove(reinterpret_cast<void *>(to), reinterpret_cast<void *>(from),
               bytes);
  return 0;
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr to, CUdeviceptr from, size_t bytes,
                              void *stream) {
  if (xt_emu::Graph *graph = xt_emu::capturingOn(stream)) {
    xt_emu::GraphNode node;
    node.to = to;
    node.from = from;
    node.bytes = bytes;
    graph->nodes.push_back(std::move(node));
    return 0;
  }
  return cuMemcpyDtoD_v2(to, from, bytes);
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr to, const void *from, size_t bytes,
                              void *stream) {
  // A copy from pageable host memory is not captured (the driver refuses
  // it too): CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED.
  if (xt_emu::capturingOn(stream))
    return 900;
  return cuMemcpyHtoD_v2(to, from, bytes);
}

CUresult cuStreamSynchronize(void *stream) {
  return xt_emu::capturingOn(stream) ? 900 : 0;
}

// Streams and CUDA graphs: a capturing stream records its launches and
// device copies (parameters by value) into a graph, which
// cuGraphInstantiateWithFlags copies and cuGraphLaunch replays in order.
CUresult cuStreamCreate(void **stream, unsigned) {
  *stream = new xt_emu::Stream;
  return 0;
}
CUresult cuStreamDestroy_v2(void *stream) {
  if (!stream)
    return 400; // CUDA_ERROR_INVALID_HANDLE
  delete static_cast<xt_emu::Stream *>(stream);
  return 0;
}
CUresult cuStreamBeginCapture_v2(void *stream, int) {
  if (!stream)
    return 900; // CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED (the legacy stream)
  auto *s = static_cast<xt_emu::Stream *>(stream);
  if (s->capturing)
    return 401; // CUDA_ERROR_ILLEGAL_STATE
  s->capturing = new xt_emu::Graph;
  return 0;
}
CUresult cuStreamEndCapture(void *stream, void **graph) {
  auto *s = static_cast<xt_emu::Stream *>(stream);
  if (!s || !s->capturing)
    return 401; // CUDA_ERROR_ILLEGAL_STATE
  *graph = s->capturing;
  s->capturing = nullptr;
  return 0;
}
CUresult cuStreamIsCapturing(void *stream, int *status) {
  *status = xt_emu::capturingOn(stream) ? 1 : 0; // ACTIVE : NONE
  return 0;
}
CUresult cuGraphInstantiateWithFlags(void **exec, void *graph,
                                     unsigned long long) {
  if (!graph)
    return 1;
  *exec = new xt_emu::Graph(*static_cast<xt_emu::Graph *>(graph));
  return 0;
}
CUresult cuGraphGetNodes(void *graph, void **nodes, size_t *count) {
  if (!graph || nodes)
    return 1; // only the count is implemented
  *count = static_cast<xt_emu::Graph *>(graph)->nodes.size();
  return 0;
}
CUresult cuGraphDestroy(void *graph) {
  delete static_cast<xt_emu::Graph *>(graph);
  return 0;
}
CUresult cuGraphExecDestroy(void *exec) {
  delete static_cast<xt_emu::Graph *>(exec);
  return 0;
}
CUresult cuGraphLaunch(void *exec, void *stream) {
  if (!exec)
    return 1;
  if (xt_emu::capturingOn(stream))
    return 900;
  for (const xt_emu::GraphNode &node :
       static_cast<xt_emu::Graph *>(exec)->nodes) {
    if (!node.function) {
      if (CUresult rc = cuMemcpyDtoD_v2(node.to, node.from, node.bytes))
        return rc;
      continue;
    }
    std::vector<void *> params;
    for (const std::vector<char> &p : node.params)
      params.push_back(const_cast<char *>(p.data()));
    if (CUresult rc = cuLaunchKernel(
            const_cast<xt_emu::DriverFunction *>(node.function), node.grid.x,
            node.grid.y, node.grid.z, node.block.x, node.block.y,
            node.block.z, node.shared, nullptr, params.data(), nullptr))
      return rc;
  }
  return 0;
}
// Maps in the emulation's format (xt_emu::TensorMap); the enum arguments
// are ints.
CUresult cuTensorMapEncodeTiled(void *tensorMap, int dataType, unsigned rank,
                                void *globalAddress, const uint64_t *globalDim,
                                const uint64_t *globalStrides,
                                const uint32_t *boxDim,
                                const uint32_t *elementStrides, int interleave,
                                int swizzle, int l2Promotion, int oobFill) {
  return xt_emu::encodeTensorMap(tensorMap, dataType, rank, globalAddress,
                                 globalDim, globalStrides, boxDim,
                                 elementStrides, interleave, swizzle,
                                 l2Promotion, oobFill);
}
CUresult cuEventCreate(void **event, unsigned) {
  *event = new xt_emu::DriverClock::time_point(xt_emu::DriverClock::now());
  return 0;
}
CUresult cuEventDestroy_v2(void *event) {
  delete static_cast<xt_emu::DriverClock::time_point *>(event);
  return 0;
}
CUresult cuEventRecord(void *event, void *) {
  *static_cast<xt_emu::DriverClock::time_point *>(event) =
      xt_emu::DriverClock::now();
  return 0;
}
CUresult cuEventSynchronize(void *) { return 0; }
CUresult cuEventElapsedTime(float *ms, void *start, void *end) {
  auto *a = static_cast<xt_emu::DriverClock::time_point *>(start);
  auto *b = static_cast<xt_emu::DriverClock::time_point *>(end);
  *ms = std::chrono::duration<float, std::milli>(*b - *a).count();
  return 0;
}
CUresult cuGetErrorString(CUresult error, const char **text) {
  switch (error) {
  case 0: *text = "no error"; break;
  case 1: *text = "invalid argument"; break;
  case 2: *text = "out of memory"; break;
  case 101: *text = "invalid device ordinal"; break;
  case 218: *text = "a PTX JIT compilation failed (not PTX, or not the PTX an emulated PTX path was built from)"; break;
  case 400: *text = "invalid resource handle"; break;
  case 401: *text = "the operation is not permitted in the stream's state (capturing, or not)"; break;
  case 500: *text = "named symbol not found"; break;
  case 900: *text = "operation not permitted when stream is capturing (or the legacy stream cannot capture)"; break;
  case 719: *text = "unspecified launch failure"; break;
  default: *text = "unknown error"; return 1;
  }
  return 0;
}
} // extern "C"
#endif // XTILE_EMULATION_DRIVER

#endif // XTILE_EMULATION_H
