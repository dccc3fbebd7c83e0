//===- cute_oracle.cpp - xtile's tensor-core encodings against CuTe's -----===//
//
// An oracle independent of xtile's reading of the PTX ISA: NVIDIA's CuTe
// (cute_reference.cpp) says what each tensor-core encoding means, and this
// program checks, under runtime/xtile_emulation.h, that
//  - the emulation's instructions do what CuTe's layouts say the hardware
//    does: which element each lane's register receives from ldmatrix
//    (.x1/.x2/.x4, with and without .trans), which A, B and C elements
//    mma.sync m16n8k16 (f16, bf16), m16n8k8 (tf32) and m16n8k32 (e4m3,
//    e5m2) combine, which shared-memory bytes wgmma (16-bit, tf32, fp8)
//    reads through a descriptor for each accumulator register and k, the
//    swizzles, and where a TMA box lands in shared memory;
//  - the encodings xtile emits are CuTe's: for every tensor-core schedule
//    the schedule space proposes (lowered to CUDA C by the test:
//    lower-candidates.py), each wgmma's descriptors (as the emulation and
//    the GPU's CUDA C make them: the emitted xt_wgmma_desc is compiled
//    here) against make_gmma_desc on the canonical GMMA layout, and each
//    tensor map (the emitted xt_tensor_map is compiled here) against what
//    make_tma_copy gives cuTensorMapEncodeTiled.
// The PTX path's descriptor constants are checked by the test against the
// values printed here.
//
//   cute-oracle [file.cu | @list ...]   (no files: the encodings alone)
//
// Prints one line per category and every disagreement; exits 1 on any.
//
//===----------------------------------------------------------------------===//

#include "xtile_emulation.h"

#include "cute_oracle.h"

#include <cinttypes>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#ifdef XT_ORACLE_LOWERED
// The GPU side of the emitted CUDA C's prelude, extracted from an emitted
// file by the test: xt_wgmma_desc (as the GPU computes descriptors) and
// xt_tensor_map (the host's tensor maps), whose driver call is recorded
// here and then made by the emulation.
namespace lowered {
inline uint32_t __cvta_generic_to_shared(const void *p) {
  return uint32_t(static_cast<const unsigned char *>(p) -
                  xt_emu::self().sharedBase());
}
#include "wgmma_desc.inc"

struct EncodeCall {
  int dtype = -1;
  unsigned rank = 0;
  uint64_t dims[5] = {}, strides[5] = {};
  uint32_t box[5] = {};
  int swizzle = -1;
};
inline EncodeCall lastEncode;
inline cudaError_t xt_encode_tensor_map(void *encoded, int dtype,
                                        unsigned rank, const void *base,
                                        const uint64_t *dims,
                                        const uint64_t *strides,
                                        const uint32_t *box, int swizzle) {
  lastEncode = EncodeCall{};
  lastEncode.dtype = dtype;
  lastEncode.rank = rank;
  for (unsigned d = 0; d < rank && d < 5; ++d) {
    lastEncode.dims[d] = dims[d];
    lastEncode.box[d] = box[d];
    if (d + 1 < rank)
      lastEncode.strides[d] = strides[d];
  }
  lastEncode.swizzle = swizzle;
  return ::xt_encode_tensor_map(encoded, dtype, rank, base, dims, strides,
                                box, swizzle);
}
#include "tensor_map.inc"
} // namespace lowered
#endif

namespace {

using cute_ref::RowCol;

//===----------------------------------------------------------------------===//
// Bookkeeping
//===----------------------------------------------------------------------===//

struct Category {
  std::string name;
  std::set<std::string> configurations;
  uint64_t compared = 0, disagreements = 0;
};
std::map<std::string, Category> categories;
std::vector<std::string> order;

Category &category(const std::string &name) {
  auto [it, added] = categories.try_emplace(name);
  if (added) {
    it->second.name = name;
    order.push_back(name);
  }
  return it->second;
}

/// Records one comparison of configuration `config`; prints the first
/// disagreements of each category.
void expect(const std::string &cat, const std::string &config, bool ok,
            const std::function<std::string()> &what) {
  Category &c = category(cat);
  c.configurations.insert(config);
  ++c.compared;
  if (ok)
    return;
  if (++c.disagreements <= 12)
    std::printf("DISAGREE %s [%s]: %s\n", cat.c_str(), config.c_str(),
                what().c_str());
}

std::string format(const char *f, ...) {
  char buffer[512];
  va_list args;
  va_start(args, f);
  std::vsnprintf(buffer, sizeof buffer, f, args);
  va_end(args);
  return buffer;
}

/// Runs `body` on one emulated block of `threads` threads with `shared`
/// bytes of dynamic shared memory; false if the block failed.
bool launch(unsigned threads, size_t shared, std::function<void()> body) {
  xt_emu::Launch l{"cute_oracle", dim3(1, 1, 1), dim3(threads, 1, 1), shared,
                   &body};
  return xt_emu::run(l) == cudaSuccess;
}

unsigned threadId() { return xt_emu::self().self; }
unsigned char *shared() { return xt_emu::self().sharedBase(); }

uint16_t f16Bits(float x) { return __half_as_ushort(__float2half_rn(x)); }
uint16_t bf16Bits(float x) {
  return __bfloat16_as_ushort(__float2bfloat16_rn(x));
}

//===----------------------------------------------------------------------===//
// mma.sync
//===----------------------------------------------------------------------===//

/// For each element (m0, k0) of A: A is 1 there and 0 elsewhere, B(k, n) =
/// 1 + n + 8 k, each placed in the registers where CuTe's ALayout and
/// BLayout say the lane holds it; the emulated mma.sync must give, in the
/// registers where CuTe's CLayout puts D(m, n), B(k0, n) on row m0 and 0
/// elsewhere. So every A, B and C position is checked against CuTe's.
///
/// fp8 (K = 32) holds too few values for 1 + n + 8 k: B(k, n) is the
/// (k + 32 n)-th nonzero finite value of the format instead (a few repeat,
/// between n = 7 and n = 0), and A's 1 is 1.0 in the format.
void checkMma(cute_ref::Mma kind, const char *name) {
  bool fp8 = kind == cute_ref::Mma::e4m3 || kind == cute_ref::Mma::e5m2;
  const xt_emu::Fp8Format &format8 =
      kind == cute_ref::Mma::e4m3 ? xt_emu::kE4M3 : xt_emu::kE5M2;
  std::vector<uint8_t> codes; // the nonzero finite encodings
  for (int c = 1; c < 256 && fp8; ++c)
    if (c != 0x80 && std::isfinite(xt_emu::fp8Value(uint8_t(c), format8)))
      codes.push_back(uint8_t(c));
  auto bValue = [&](int k, int n) {
    return fp8 ? xt_emu::fp8Value(codes[(k + 32 * n) % codes.size()], format8)
               : float(1 + n + 8 * k);
  };
  const int M = 16, K = kind == cute_ref::Mma::tf32 ? 8 : fp8 ? 32 : 16;
  int aValues = cute_ref::mmaValues(kind, 'A');
  int bValues = cute_ref::mmaValues(kind, 'B');
  int cValues = cute_ref::mmaValues(kind, 'C');
  std::vector<float> got(M * K * 32 * 4);
  auto put = [&](uint32_t *regs, int v, float x) {
    if (kind == cute_ref::Mma::tf32) {
      std::memcpy(&regs[v], &x, 4);
      return;
    }
    if (fp8) { // x is a value of the format: its encoding, exactly
      uint32_t bits = xt_emu::cvtSatfinite(x, format8);
      regs[v / 4] |= bits << (8 * (v % 4));
      return;
    }
    uint32_t bits = kind == cute_ref::Mma::f16 ? f16Bits(x) : bf16Bits(x);
    regs[v / 2] |= bits << (16 * (v % 2));
  };
  bool ran = launch(32, 0, [&] {
    unsigned lane = threadId() % 32;
    for (int m0 = 0; m0 < M; ++m0)
      for (int k0 = 0; k0 < K; ++k0) {
        uint32_t a[4] = {}, b[2] = {};
        float d[4] = {};
        for (int v = 0; v < aValues; ++v) {
          RowCol e = cute_ref::mmaElement(kind, 'A', lane, v);
          put(a, v, e.row == m0 && e.col == k0 ? 1.0f : 0.0f);
        }
        for (int v = 0; v < bValues; ++v) {
          RowCol e = cute_ref::mmaElement(kind, 'B', lane, v);
          put(b, v, bValue(e.row, e.col));
        }
        if (kind == cute_ref::Mma::f16)
          xt_mma_f16(a, b, d);
        else if (kind == cute_ref::Mma::bf16)
          xt_mma_bf16(a, b, d);
        else if (kind == cute_ref::Mma::e4m3)
          xt_mma_e4m3(a, b, d);
        else if (kind == cute_ref::Mma::e5m2)
          xt_mma_e5m2(a, b, d);
        else
          xt_mma_tf32(a, b, d);
        for (int i = 0; i < 4; ++i)
          got[((m0 * K + k0) * 32 + lane) * 4 + i] = d[i];
      }
  });
  expect("mma.sync", name, ran, [] { return std::string("launch failed"); });
  for (int m0 = 0; m0 < M; ++m0)
    for (int k0 = 0; k0 < K; ++k0)
      for (int lane = 0; lane < 32; ++lane)
        for (int v = 0; v < cValues; ++v) {
          RowCol c = cute_ref::mmaElement(kind, 'C', lane, v);
          float want = c.row == m0 ? bValue(k0, c.col) : 0.0f;
          float have = got[((m0 * K + k0) * 32 + lane) * 4 + v];
          expect("mma.sync", name, have == want, [&] {
            return format("A(%d,%d) = 1: lane %d value %d, D(%d,%d) per "
                          "CLayout, is %g, CuTe's layouts give %g",
                          m0, k0, lane, v, c.row, c.col, have, want);
          });
        }
}

//===----------------------------------------------------------------------===//
// ldmatrix
//===----------------------------------------------------------------------===//

template <int N, bool Trans> void checkLdmatrixOf() {
  std::string name = format("ldmatrix.x%d%s", N, Trans ? ".trans" : "");
  // Lane l < 8 N gives the address of a row of 16 bytes holding
  // 8 l + c + 1 (c = 0..7), at a scrambled place; the other lanes point at
  // a row CuTe's layouts never read.
  auto slot = [](unsigned lane) { return (lane * 13 + 5) % 32; };
  std::vector<uint32_t> got(32 * 4);
  bool ran = launch(32, 34 * 16, [&] {
    unsigned lane = threadId() % 32;
    uint16_t *rows = reinterpret_cast<uint16_t *>(shared());
    if (lane == 0) {
      for (unsigned l = 0; l < 32; ++l)
        for (unsigned c = 0; c < 8; ++c)
          rows[slot(l) * 8 + c] = uint16_t(8 * l + c + 1);
      for (unsigned c = 0; c < 8; ++c)
        rows[32 * 8 + c] = 0xbeef;
    }
    __syncthreads();
    const uint16_t *row = rows + 8 * (lane < 8 * N ? slot(lane) : 32);
    uint32_t r[4] = {};
    xt_ldmatrix_b16<N, Trans>(row, r);
    for (int i = 0; i < 4; ++i)
      got[lane * 4 + i] = r[i];
  });
  expect("ldmatrix", name, ran, [] { return std::string("launch failed"); });
  for (int lane = 0; lane < 32; ++lane)
    for (int reg = 0; reg < N; ++reg)
      for (int half = 0; half < 2; ++half) {
        RowCol src = cute_ref::ldmatrixSource(N, Trans, lane, reg, half);
        unsigned have = got[lane * 4 + reg] >> (16 * half) & 0xffff;
        unsigned want = src.row < 0 ? 0xffff : 8 * src.row + src.col + 1;
        expect("ldmatrix", name, src.row >= 0 && have == want, [&] {
          return format("lane %d register %d half %d holds %u (row address "
                        "of lane %u, element %u); CuTe: lane %d, element %d",
                        lane, reg, half, have, (have - 1) / 8, (have - 1) % 8,
                        src.row, src.col);
        });
      }
}

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

/// Whether T is one of the emulation's fp8 operand types of wgmma.
template <typename T>
constexpr bool kFp8Operand = std::is_same_v<T, xt_emu::WgmmaE4M3> ||
                             std::is_same_v<T, xt_emu::WgmmaE5M2>;

/// fp8 has too few values to name a slot in one: its index is written in
/// three passes, one base-120 digit each (the byte `digit`, a finite,
/// positive value in both formats: 120^3 slots).
constexpr int64_t kFp8Base = 120;
template <typename T> constexpr int slotPasses() {
  return kFp8Operand<T> ? 3 : 1;
}
inline int64_t fp8Place(int pass) {
  int64_t place = 1;
  for (int p = 0; p < pass; ++p)
    place *= kFp8Base;
  return place;
}

/// Shared memory for the wgmma checks: each element-sized slot holds a
/// finite value that names it (its index; for fp8, in pass `pass`, one
/// digit of it), so a value read gives the address it came from.
template <typename T> uint32_t slotBits(uint32_t id, int pass) {
  if constexpr (kFp8Operand<T>)
    return uint32_t(id / fp8Place(pass) % kFp8Base);
  else if constexpr (std::is_same_v<T, float>) // tf32: low 13 bits clear
    return (1 + id / 1024) << 23 | (id % 1024) << 13;
  else if constexpr (std::is_same_v<T, __half>)
    return (id / (30 * 1024)) << 15 | (1 + id % (30 * 1024) / 1024) << 10 |
           id % 1024;
  else
    return (id / (254 * 128)) << 15 | (1 + id % (254 * 128) / 128) << 7 |
           id % 128;
}
/// The slot a value read names (for fp8, pass `pass`'s part of it), or -1.
template <typename T> int64_t slotOf(float v, int pass) {
  uint32_t bits;
  if constexpr (kFp8Operand<T>) {
    const xt_emu::Fp8Format &f =
        std::is_same_v<T, xt_emu::WgmmaE4M3> ? xt_emu::kE4M3 : xt_emu::kE5M2;
    for (int64_t digit = 0; digit < kFp8Base; ++digit)
      if (xt_emu::fp8Value(uint8_t(digit), f) == v && !std::signbit(v))
        return digit * fp8Place(pass);
    return -1;
  } else if constexpr (std::is_same_v<T, float>) {
    std::memcpy(&bits, &v, 4);
    uint32_t e = bits >> 23, m = bits >> 13 & 1023;
    return (bits & 0x1fff) || e < 1 ? -1 : int64_t(e - 1) * 1024 + m;
  } else if constexpr (std::is_same_v<T, __half>) {
    bits = f16Bits(v);
    uint32_t s = bits >> 15, e = bits >> 10 & 31, m = bits & 1023;
    return e < 1 || e > 30 ? -1 : int64_t(s) * 30 * 1024 + (e - 1) * 1024 + m;
  } else {
    std::memcpy(&bits, &v, 4);
    bits >>= 16;
    uint32_t s = bits >> 15, e = bits >> 7 & 255, m = bits & 127;
    return e < 1 || e > 254 ? -1
                            : int64_t(s) * 254 * 128 + (e - 1) * 128 + m;
  }
}
template <typename T> void fillSlots(size_t bytes, int pass = 0) {
  for (uint32_t id = 0; id < bytes / sizeof(T); ++id) {
    uint32_t bits = slotBits<T>(id, pass);
    std::memcpy(shared() + id * sizeof(T), &bits, sizeof(T));
  }
}

/// xt_emu::wgmmaProducts, with N as a template argument or (newer
/// emulation) a function argument.
template <int N, typename T, bool NMajor, typename F>
auto productsOf(int, uint64_t a, uint64_t b, F &&f)
    -> decltype(xt_emu::wgmmaProducts<T, NMajor>(unsigned(N), a, b, f)) {
  return xt_emu::wgmmaProducts<T, NMajor>(unsigned(N), a, b, f);
}
template <int N, typename T, bool NMajor, typename F>
auto productsOf(long, uint64_t a, uint64_t b, F &&f)
    -> decltype(xt_emu::wgmmaProducts<N, T, NMajor>(a, b, f)) {
  return xt_emu::wgmmaProducts<N, T, NMajor>(a, b, f);
}
template <int N, typename T, bool NMajor, typename F>
void products(uint64_t a, uint64_t b, F &&f) {
  productsOf<N, T, NMajor>(0, a, b, f);
}

struct Fields {
  uint64_t start, leading, stride, base, layout;
};
Fields fieldsOf(uint64_t d) {
  return {d & 0x3fff, d >> 16 & 0x3fff, d >> 32 & 0x3fff, d >> 49 & 7,
          d >> 62};
}
std::string describe(uint64_t d) {
  Fields f = fieldsOf(d);
  return format("0x%016" PRIx64 " (start %" PRIu64 " B, LBO %" PRIu64
                " B, SBO %" PRIu64 " B, base offset %" PRIu64
                ", layout %" PRIu64 ")",
                d, f.start << 4, f.leading << 4, f.stride << 4, f.base,
                f.layout);
}

/// Whether descriptor `ours` describes what CuTe's `cute` does: every
/// field, but the leading byte offset where the layout does not use it
/// (swizzled K-major, and MN-major with one panel across).
bool sameDescriptor(uint64_t ours, uint64_t cute, bool mnMajor, int n,
                    int bytes, bool &leadingIgnored) {
  Fields a = fieldsOf(ours), b = fieldsOf(cute);
  bool leadingUsed = b.layout == 0 || (mnMajor && n * bytes > 128);
  leadingIgnored = !leadingUsed && a.leading != b.leading;
  return a.start == b.start && a.stride == b.stride && a.base == b.base &&
         a.layout == b.layout && (!leadingUsed || a.leading == b.leading);
}

constexpr uint32_t kATile = 0, kBTile = 16384, kWgmmaShared = 49152 + 1024;

/// The wgmma of one schedule's kind: A K-major (its blocks of 64 rows at
/// 8192-byte steps of the staged tile), B K-major or N-major (`NMajor`, in
/// panels of `panel` bytes), N columns, element T; each K slice of the
/// 128-byte rows (descriptors 32 bytes further each, N-major B 16 rows
/// further). Checks the descriptors the emulation and the GPU's CUDA C
/// make against make_gmma_desc, and every element the emulated wgmma
/// reads for each thread's accumulator register and k against the
/// canonical layout and CLayout_64xN.
template <int N, typename T, bool NMajor>
void checkWgmma(uint32_t panel, const std::string &name) {
  constexpr int bytes = sizeof(T), kStep = 32 / bytes;
  std::vector<std::string> problems;
  std::vector<std::tuple<int, int, uint64_t, uint64_t, uint64_t, uint64_t>>
      descriptors; // r, ks, ours A, ours B, gpu A, gpu B
  // The slot each product's A and B came from, for each thread, block
  // r, slice ks, accumulator register i and k (fp8: summed over the
  // passes' digits; -1 where a value named no slot).
  auto at = [](unsigned tid, int r, int ks, unsigned i, int k) {
    return (((size_t(tid) * 2 + r) * 4 + ks) * (N / 2) + i) * kStep + k;
  };
  std::vector<int64_t> slotA(at(128, 0, 0, 0, 0)), slotB(slotA.size());
  std::vector<int> counts(size_t(128) * 2 * 4 * (N / 2));
  bool ran = true;
  for (int pass = 0; pass < slotPasses<T>(); ++pass)
    ran &= launch(128, kWgmmaShared, [&] {
      unsigned tid = threadId();
      if (tid == 0)
        fillSlots<T>(kWgmmaShared - 1024, pass);
      __syncthreads();
      for (int r = 0; r < 2; ++r)
        for (int ks = 0; ks < 4; ++ks) {
          uint32_t oa = 8192 * r + 32 * ks;
          uint32_t ob = NMajor ? 2048 * ks : 32 * ks;
          // As the emitted helper does under the emulation ...
          uint64_t da = xt_emu::wgmmaDescriptor(shared() + kATile + oa);
          uint64_t db = xt_emu::wgmmaDescriptor(shared() + kBTile + ob,
                                                NMajor ? panel : 16);
          if (tid == 0 && pass == 0) {
            uint64_t ga = 0, gb = 0;
#ifdef XT_ORACLE_LOWERED
            // ... and on the GPU: the buffer's descriptor plus the offset.
            ga = lowered::xt_wgmma_desc(shared() + kATile) + (oa >> 4);
            gb = (NMajor ? lowered::xt_wgmma_desc(shared() + kBTile, panel)
                         : lowered::xt_wgmma_desc(shared() + kBTile)) +
                 (ob >> 4);
#endif
            descriptors.push_back({r, ks, da, db, ga, gb});
          }
          int *count = &counts[at(tid, r, ks, 0, 0) / kStep];
          for (int i = 0; i < N / 2; ++i)
            count[i] = 0;
          products<N, T, NMajor>(
              da, db, [&](unsigned i, float a, float b) {
                int k = count[i]++;
                if (k >= kStep)
                  return;
                int64_t sa = slotOf<T>(a, pass), sb = slotOf<T>(b, pass);
                int64_t &ha = slotA[at(tid, r, ks, i, k)];
                int64_t &hb = slotB[at(tid, r, ks, i, k)];
                ha = ha < 0 || sa < 0 ? -1 : ha + sa;
                hb = hb < 0 || sb < 0 ? -1 : hb + sb;
              });
        }
    });
  // Against CuTe: the canonical layout's offset of A(row, k) and of B's
  // column's k, the row and column CLayout_64xN gives the register.
  for (int r = 0; r < 2 && ran; ++r)
    for (int ks = 0; ks < 4; ++ks) {
      std::vector<uint32_t> offA, offB;
      uint64_t ca, cb;
      cute_ref::gmmaSlice({bytes, false, 128, 64}, kATile + 8192 * r, ks, ca,
                          offA);
      cute_ref::gmmaSlice({bytes, NMajor, 128, N}, kBTile, ks, cb, offB);
      for (unsigned tid = 0; tid < 128; ++tid)
        for (unsigned i = 0; i < N / 2; ++i) {
          int count = counts[at(tid, r, ks, i, 0) / kStep];
          if (count != kStep) {
            if (problems.size() < 8)
              problems.push_back(format("thread %u register %u: %d "
                                        "products, not K = %d",
                                        tid, i, count, kStep));
            problems.push_back(""); // counted
          }
          RowCol e = cute_ref::wgmmaAccumulator(N, int(tid), int(i));
          for (int k = 0; k < kStep && k < count; ++k) {
            int64_t sa = slotA[at(tid, r, ks, i, k)],
                    sb = slotB[at(tid, r, ks, i, k)];
            bool okA = sa >= 0 &&
                       uint64_t(sa) * bytes == offA[e.row * kStep + k];
            bool okB = sb >= 0 &&
                       uint64_t(sb) * bytes == offB[e.col * kStep + k];
            if ((!okA || !okB) && problems.size() < 8)
              problems.push_back(format(
                  "thread %u register %u (D(%d,%d) per CLayout_64x%d) k %d "
                  "(block %d, slice %d): reads A at %" PRId64
                  " and B at %" PRId64 "; CuTe: A(%d,%d) at %u, B at %u",
                  tid, i, e.row, e.col, N, k, r, ks, sa * bytes, sb * bytes,
                  e.row, k, offA[e.row * kStep + k],
                  offB[e.col * kStep + k]));
            if (!okA || !okB)
              problems.push_back(""); // counted
          }
        }
    }
  expect("wgmma operand reads", name, ran,
         [] { return std::string("launch failed"); });
  uint64_t bad = 0;
  for (const std::string &p : problems)
    bad += p.empty();
  Category &reads = category("wgmma operand reads");
  reads.configurations.insert(name);
  reads.compared += uint64_t(2) * 4 * 128 * (N / 2) * kStep * 2;
  reads.disagreements += bad;
  for (const std::string &p : problems)
    if (!p.empty())
      std::printf("DISAGREE wgmma operand reads [%s]: %s\n", name.c_str(),
                  p.c_str());
  for (auto [r, ks, da, db, ga, gb] : descriptors) {
    std::vector<uint32_t> unused;
    uint64_t ca, cb;
    cute_ref::gmmaSlice({bytes, false, 128, 64}, kATile + 8192 * r, ks, ca,
                        unused);
    cute_ref::gmmaSlice({bytes, NMajor, 128, N}, kBTile, ks, cb, unused);
    struct {
      const char *what;
      uint64_t ours, cute;
      bool mn;
      int n;
    } cases[] = {{"A (emulation)", da, ca, false, 64},
                 {"B (emulation)", db, cb, NMajor, N},
#ifdef XT_ORACLE_LOWERED
                 {"A (GPU CUDA C)", ga, ca, false, 64},
                 {"B (GPU CUDA C)", gb, cb, NMajor, N},
#endif
    };
    for (auto &c : cases) {
      bool ignored = false;
      bool same = sameDescriptor(c.ours, c.cute, c.mn, c.n, bytes, ignored);
      expect("wgmma descriptors", name, same, [&] {
        return format("%s block %d slice %d: ours %s, make_gmma_desc %s",
                      c.what, r, ks, describe(c.ours).c_str(),
                      describe(c.cute).c_str());
      });
      if (ignored)
        category("wgmma descriptors (unused LBO differs)")
            .configurations.insert(name);
    }
  }
}

/// The accumulator layout alone, for every N of wgmma: D(m, n) goes to the
/// register CLayout_64xN names (A and B read as K-major bf16, as above).
template <int N> void checkAccumulator() {
  std::string name = format("m64n%dk16", N);
  std::vector<std::string> problems;
  uint64_t compared = 0;
  bool ran = launch(128, kWgmmaShared, [&] {
    unsigned tid = threadId();
    if (tid == 0)
      fillSlots<__nv_bfloat16>(kWgmmaShared - 1024);
    __syncthreads();
    uint64_t da = xt_emu::wgmmaDescriptor(shared() + kATile);
    uint64_t db = xt_emu::wgmmaDescriptor(shared() + kBTile);
    std::vector<uint32_t> offA, offB;
    uint64_t ca, cb;
    cute_ref::gmmaSlice({2, false, 128, 64}, kATile, 0, ca, offA);
    int count[N / 2] = {};
    products<N, __nv_bfloat16, false>(
        da, db, [&](unsigned i, float a, float b) {
          RowCol e = cute_ref::wgmmaAccumulator(N, int(tid), int(i));
          int k = count[i]++;
          // Row m of A and row n of B (K-major, 128 bytes each): the row's
          // 8-row group and row within it, whatever the swizzle.
          int64_t sa = slotOf<__nv_bfloat16>(a, 0) * 2,
                  sb = slotOf<__nv_bfloat16>(b, 0) * 2 - kBTile;
          bool ok = sa == offA[e.row * 16 + k] && sb >= 0 && sb / 128 == e.col;
          ++compared;
          if (!ok)
            problems.push_back(format(
                "thread %u register %u: reads A row %" PRId64 ", B row %" PRId64
                "; CLayout_64x%d: D(%d,%d)",
                tid, i, sa / 128, sb / 128, N, e.row, e.col));
        });
  });
  expect("wgmma accumulator", name, ran,
         [] { return std::string("launch failed"); });
  Category &c = category("wgmma accumulator");
  c.compared += compared;
  c.disagreements += problems.size();
  for (size_t i = 0; i < problems.size() && i < 8; ++i)
    std::printf("DISAGREE wgmma accumulator [%s]: %s\n", name.c_str(),
                problems[i].c_str());
}

template <int... I> void checkAccumulators(std::integer_sequence<int, I...>) {
  (checkAccumulator<8 * (I + 1)>(), ...);
}

/// The descriptors CuTe makes for the layouts xtile does not emit (no
/// swizzle, 32 and 64 bytes): the emulation must refuse them rather than
/// read them as 128-byte swizzles.
void checkOtherSwizzles() {
  for (int mn = 0; mn < 2; ++mn)
    for (int sw : {0, 32, 64}) {
      std::vector<uint32_t> offsets;
      uint64_t desc;
      std::string name =
          format("%s-major, %s", mn ? "MN" : "K",
                 sw ? format("%d-byte swizzle", sw).c_str() : "interleaved");
      bool built =
          cute_ref::gmmaSlice({2, bool(mn), sw, 64}, 0, 0, desc, offsets);
      std::printf("cute: make_gmma_desc %s, 64 x 16 bf16: %s\n", name.c_str(),
                  built ? describe(desc).c_str() : "(not built)");
      bool ran = launch(128, kWgmmaShared, [&] {
        xt_emu::wgmmaElement<__nv_bfloat16>(desc, 0, 0);
      });
      expect("wgmma layouts not emitted (refused)", name, built && !ran, [&] {
        return std::string("the emulation read a descriptor of layout ") +
               std::to_string(desc >> 62) + " instead of refusing it";
      });
    }
}

//===----------------------------------------------------------------------===//
// Swizzles and TMA
//===----------------------------------------------------------------------===//

void checkSwizzles() {
  for (int bytes : {0, 32, 64, 128}) {
    std::string name = format("Swizzle<%d,4,3>", bytes == 128 ? 3
                                                  : bytes == 64 ? 2
                                                  : bytes == 32 ? 1
                                                                : 0);
    uint64_t bad = 0, first = ~0ull;
    for (uint64_t o = 0; o < (1u << 18); ++o)
      if (xt_emu::swizzled(o, bytes) != cute_ref::swizzle(bytes, o)) {
        ++bad;
        first = std::min(first, o);
      }
    Category &c = category("swizzle");
    c.configurations.insert(name);
    c.compared += 1u << 18;
    c.disagreements += bad;
    if (bad)
      std::printf("DISAGREE swizzle [%s]: %" PRIu64
                  " offsets differ, first %" PRIu64 ": %" PRIu64
                  " (emulation) vs %" PRIu64 " (CuTe)\n",
                  name.c_str(), bad, first, xt_emu::swizzled(first, bytes),
                  cute_ref::swizzle(bytes, first));
  }
}

struct TensorMapCall {
  int dtype, rank, elementBytes, swizzle;
  std::vector<uint64_t> dims;
  std::vector<uint32_t> box;
  bool operator<(const TensorMapCall &o) const {
    return std::tie(dtype, rank, elementBytes, swizzle, dims, box) <
           std::tie(o.dtype, o.rank, o.elementBytes, o.swizzle, o.dims, o.box);
  }
};

std::string describe(const TensorMapCall &t) {
  std::string s = format("dtype %d, dims [", t.dtype);
  for (size_t i = 0; i < t.dims.size(); ++i)
    s += format(i ? ", %" PRIu64 : "%" PRIu64, t.dims[i]);
  s += "], box [";
  for (size_t i = 0; i < t.box.size(); ++i)
    s += format(i ? ", %u" : "%u", t.box[i]);
  return s + format("], swizzle %d", t.swizzle);
}

#ifdef XT_ORACLE_LOWERED
/// One tensor map the lowering makes: the emitted xt_tensor_map's call of
/// cuTensorMapEncodeTiled against make_tma_copy's for the same global
/// tensor and the GMMA tile it fills (K-major, and MN-major panels: both
/// must agree), then the box the emulation writes from it against the
/// canonical layout wgmma reads.
void checkTensorMap(const TensorMapCall &t) {
  std::string name = describe(t);
  int rank = t.rank, last = rank - 1, outer = -1;
  for (int d = 0; d < last; ++d)
    if (t.box[d] != 1)
      outer = outer < 0 ? d : -2;
  int bytes = t.elementBytes;
  if (outer != last - 1 || (bytes != 2 && bytes != 1)) {
    expect("tma maps (not comparable)", name, false, [] {
      return std::string("not a 2-d box of 16-bit or fp8 rows: no CuTe map");
    });
    return;
  }
  uint64_t rows = t.dims[outer], cols = t.dims[last];
  int tileRows = t.box[outer], tileCols = t.box[last];
  uint64_t elements = 1;
  for (uint64_t d : t.dims)
    elements *= d;
  // Each element's value names it: its index (16-bit), or a hash of it
  // (a byte: a misplaced element differs with probability 255/256).
  auto valueOf = [&](uint64_t i) {
    return bytes == 2 ? uint16_t(i)
                      : uint16_t((i * 0x9e3779b97f4a7c15ull) >> 56);
  };
  std::vector<unsigned char> global(elements * bytes);
  for (uint64_t i = 0; i < elements; ++i) {
    uint16_t v = valueOf(i);
    std::memcpy(&global[i * bytes], &v, bytes);
  }
  void *map = nullptr;
  cudaError_t err =
      lowered::xt_tensor_map(&map, global.data(), t.dtype, rank,
                             t.dims.data(), t.elementBytes, t.box.data(),
                             t.swizzle, nullptr);
  expect("tma maps", name, err == cudaSuccess,
         [] { return std::string("xt_tensor_map failed"); });
  if (err != cudaSuccess)
    return;
  const lowered::EncodeCall ours = lowered::lastEncode;
  for (bool mnMajor : {false, true}) {
    if (mnMajor && (tileRows != 64 || bytes == 1))
      continue; // an N-major panel is 64 rows of K; fp8 is K-major only
    cute_ref::TmaArgs cute;
    bool built = cute_ref::tmaArgs(bytes, t.dtype == 9, mnMajor, rows, cols,
                                   tileRows, tileCols, cute);
    expect("tma maps", name, built, [] {
      return std::string("CuTe builds no map for this tile");
    });
    if (!built)
      continue;
    // Ours may have unit outer dimensions beyond CuTe's two.
    bool same = ours.dtype == cute.dataType && ours.swizzle == cute.swizzle &&
                cute.rank == 2 && ours.dims[0] == cute.dims[0] &&
                ours.dims[1] == cute.dims[1] &&
                ours.strides[0] == cute.strides[0] &&
                ours.box[0] == cute.box[0] && ours.box[1] == cute.box[1] &&
                cute.interleave == 0 && cute.oobFill == 0 &&
                cute.elementStrides[0] == 1 && cute.elementStrides[1] == 1;
    for (unsigned d = 2; d < ours.rank; ++d)
      same = same && ours.box[d] == 1;
    expect("tma maps", name, same, [&] {
      return format("%s: ours dtype %d dims {%" PRIu64 ", %" PRIu64
                    "} stride %" PRIu64 " box {%u, %u} swizzle %d; "
                    "make_tma_copy dtype %d rank %u dims {%" PRIu64
                    ", %" PRIu64 "} stride %" PRIu64
                    " box {%u, %u} swizzle %d",
                    mnMajor ? "MN-major panel" : "K-major", ours.dtype,
                    ours.dims[0], ours.dims[1], ours.strides[0], ours.box[0],
                    ours.box[1], ours.swizzle, cute.dataType, cute.rank,
                    cute.dims[0], cute.dims[1], cute.strides[0], cute.box[0],
                    cute.box[1], cute.swizzle);
    });
  }
  // The box at (0, 0) as the emulation writes it, against the canonical
  // layout: element (r, c) of the box at its place in the K-major SW128
  // tile of tileRows rows (an MN-major panel is the same bytes).
  std::vector<unsigned char> image(size_t(tileRows) * tileCols * bytes);
  bool ran = launch(1, 65536, [&] {
    int32_t start[5] = {};
    xt_emu::tmaWrite(*static_cast<const xt_emu::TensorMap *>(map), 0, start);
    std::memcpy(image.data(), shared(), image.size());
  });
  expect("tma boxes in shared memory", name, ran,
         [] { return std::string("launch failed"); });
  const int kStep = 32 / bytes;
  for (int ks = 0; ks < 4; ++ks) {
    std::vector<uint32_t> offsets;
    uint64_t desc;
    if (!cute_ref::gmmaSlice({bytes, false, 128, tileRows}, 0, ks, desc,
                             offsets)) {
      expect("tma boxes in shared memory", name, false,
             [] { return std::string("no canonical layout for the box"); });
      break;
    }
    for (int r = 0; r < tileRows; ++r)
      for (int k = 0; k < kStep; ++k) {
        int c = kStep * ks + k;
        uint16_t want = valueOf(uint64_t(r) * cols + c), have = 0;
        std::memcpy(&have, &image[offsets[r * kStep + k]], bytes);
        expect("tma boxes in shared memory", name, have == want, [&] {
          return bytes == 2
                     ? format("element (%d, %d) of the box: the canonical "
                              "layout puts it at byte %u, which holds "
                              "element (%d, %d)",
                              r, c, offsets[r * kStep + k], int(have / cols),
                              int(have % cols))
                     : format("element (%d, %d) of the box: the canonical "
                              "layout puts it at byte %u, which holds %u, "
                              "not its %u",
                              r, c, offsets[r * kStep + k], unsigned(have),
                              unsigned(want));
        });
      }
  }
  std::free(map);
}
#endif

//===----------------------------------------------------------------------===//
// The emitted CUDA C of the schedule space's candidates
//===----------------------------------------------------------------------===//

struct WgmmaUse {
  std::string type;
  int n;
  bool nMajor;
  uint32_t panel;
  bool operator<(const WgmmaUse &o) const {
    return std::tie(type, n, nMajor, panel) <
           std::tie(o.type, o.n, o.nMajor, o.panel);
  }
};

struct Emitted {
  std::set<WgmmaUse> wgmma;
  // Each wgmma helper's immediates after the predicate, by helper name.
  std::map<std::string, std::vector<uint64_t>> immediates;
  std::set<TensorMapCall> maps;
  std::set<std::string> ldmatrix;
  int files = 0;
};

std::vector<uint64_t> numbers(const std::string &s) {
  std::vector<uint64_t> out;
  std::regex number("([0-9]+)");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), number);
       it != std::sregex_iterator(); ++it)
    out.push_back(std::stoull((*it)[1]));
  return out;
}

bool readEmitted(const char *path, Emitted &e) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cute-oracle: cannot read %s\n", path);
    return false;
  }
  ++e.files;
  std::regex wgmma(
      R"(= xt_wgmma_(bf16|f16|tf32|e4m3|e5m2)_n([0-9]+)(_tb)?\(([^)]*)\))");
  std::regex dims(R"(const uint64_t dims\[\] = \{(.*)\};)");
  std::regex box(R"(const uint32_t box\[\] = \{(.*)\};)");
  std::regex map(
      R"(xt_tensor_map\(\(void\*\*\)&[A-Za-z0-9_]+, [A-Za-z0-9_]+, ([0-9]+), ([0-9]+), dims, ([0-9]+), box, ([0-9]+), stream\))");
  std::regex ldmatrix(R"(xt_ldmatrix<([124]), (true|false)>\()");
  std::regex helper(R"(xt_vec<float, [0-9]+> (xt_wgmma_[a-z0-9_]+)\(const)");
  std::regex immediates(R"(, p((, [0-9]+)+);)");
  std::string line, lastDims, lastBox, lastHelper;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, helper))
      lastHelper = m[1];
    else if (!lastHelper.empty() && std::regex_search(line, m, immediates)) {
      e.immediates[lastHelper] = numbers(m[1]);
      lastHelper.clear();
    }
    if (std::regex_search(line, m, wgmma)) {
      // (a, oa, b, ob[, panel], d)
      bool tb = m[3].matched;
      std::vector<std::string> args;
      std::stringstream list(m[4].str());
      for (std::string a; std::getline(list, a, ',');)
        args.push_back(a);
      uint32_t panel = tb && args.size() == 6 ? uint32_t(std::stoul(args[4]))
                                              : 16;
      e.wgmma.insert({m[1], std::stoi(m[2]), tb, panel});
    } else if (std::regex_search(line, m, dims)) {
      lastDims = m[1];
    } else if (std::regex_search(line, m, box)) {
      lastBox = m[1];
    } else if (std::regex_search(line, m, map)) {
      TensorMapCall t;
      t.dtype = std::stoi(m[1]);
      t.rank = std::stoi(m[2]);
      t.elementBytes = std::stoi(m[3]);
      t.swizzle = std::stoi(m[4]);
      for (uint64_t d : numbers(lastDims))
        t.dims.push_back(d);
      for (uint64_t b : numbers(lastBox))
        t.box.push_back(uint32_t(b));
      if (int(t.dims.size()) == t.rank && int(t.box.size()) == t.rank)
        e.maps.insert(t);
    }
    if (std::regex_search(line, m, ldmatrix))
      e.ldmatrix.insert(format("ldmatrix.x%s%s", m[1].str().c_str(),
                               m[2] == "true" ? ".trans" : ""));
  }
  return true;
}

using WgmmaCheck = void (*)(uint32_t, const std::string &);
template <int N> void addWgmmaChecks(std::map<std::string, WgmmaCheck> &t) {
  t[format("bf16 n%d", N)] = &checkWgmma<N, __nv_bfloat16, false>;
  t[format("bf16 n%d_tb", N)] = &checkWgmma<N, __nv_bfloat16, true>;
  t[format("f16 n%d", N)] = &checkWgmma<N, __half, false>;
  t[format("f16 n%d_tb", N)] = &checkWgmma<N, __half, true>;
  t[format("tf32 n%d", N)] = &checkWgmma<N, float, false>;
  t[format("e4m3 n%d", N)] = &checkWgmma<N, xt_emu::WgmmaE4M3, false>;
  t[format("e5m2 n%d", N)] = &checkWgmma<N, xt_emu::WgmmaE5M2, false>;
}

} // namespace

int main(int argc, char **argv) {
  // Fibers on one OS thread: the launches here are one block each.
  setenv("XTILE_EMULATION_THREADS", "1", 0);

  // The instructions, every variant.
  checkMma(cute_ref::Mma::f16, "m16n8k16 f16");
  checkMma(cute_ref::Mma::bf16, "m16n8k16 bf16");
  checkMma(cute_ref::Mma::tf32, "m16n8k8 tf32");
  checkMma(cute_ref::Mma::e4m3, "m16n8k32 e4m3");
  checkMma(cute_ref::Mma::e5m2, "m16n8k32 e5m2");
  checkLdmatrixOf<1, false>();
  checkLdmatrixOf<2, false>();
  checkLdmatrixOf<4, false>();
  checkLdmatrixOf<1, true>();
  checkLdmatrixOf<2, true>();
  checkLdmatrixOf<4, true>();
  checkAccumulators(std::make_integer_sequence<int, 32>{});
  checkSwizzles();
  checkOtherSwizzles();

  // The descriptor bits without the address, for the PTX path's constants.
  {
    std::vector<uint32_t> offsets;
    uint64_t k, n;
    cute_ref::gmmaSlice({2, false, 128, 64}, 0, 0, k, offsets);
    cute_ref::gmmaSlice({2, true, 128, 128}, 0, 0, n, offsets);
    std::printf("cute: K-major SW128 descriptor at address 0: %" PRIu64 "\n",
                k);
    std::printf("cute: MN-major SW128 descriptor at address 0, 64-row "
                "panels: %" PRIu64 "\n",
                n);
    int k16[4], n16[4];
    cute_ref::gmmaImmediates(false, false, k16);
    cute_ref::gmmaImmediates(false, true, n16);
    std::printf("cute: wgmma immediates, B K-major: p, %d, %d, %d, %d\n",
                k16[0], k16[1], k16[2], k16[3]);
    std::printf("cute: wgmma immediates, B MN-major: p, %d, %d, %d, %d\n",
                n16[0], n16[1], n16[2], n16[3]);
  }

  // What the schedule space's candidates emit.
  Emitted emitted;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] != '@') {
      if (!readEmitted(argv[i], emitted))
        return 2;
      continue;
    }
    // @list: a file naming one file a line.
    std::ifstream list(argv[i] + 1);
    if (!list) {
      std::fprintf(stderr, "cute-oracle: cannot read %s\n", argv[i] + 1);
      return 2;
    }
    for (std::string file; std::getline(list, file);)
      if (!file.empty() && !readEmitted(file.c_str(), emitted))
        return 2;
  }
  std::map<std::string, WgmmaCheck> wgmmaChecks;
  addWgmmaChecks<16>(wgmmaChecks);
  addWgmmaChecks<64>(wgmmaChecks);
  addWgmmaChecks<128>(wgmmaChecks);
  addWgmmaChecks<256>(wgmmaChecks);
  std::set<WgmmaUse> uses = emitted.wgmma;
  if (argc == 1) // every kind the schedule space can propose
    for (int n : {64, 128, 256}) {
      for (const char *type : {"bf16", "f16"}) {
        uses.insert({type, n, false, 16});
        uses.insert({type, n, true, 8192});
      }
      for (const char *type : {"tf32", "e4m3", "e5m2"})
        uses.insert({type, n, false, 16});
    }
  for (const WgmmaUse &u : uses) {
    std::string key =
        format("%s n%d%s", u.type.c_str(), u.n, u.nMajor ? "_tb" : "");
    int k = u.type == "tf32" ? 8 : u.type[0] == 'e' ? 32 : 16;
    std::string name = format("m64n%dk%d %s, B %s", u.n, k, u.type.c_str(),
                              u.nMajor ? format("N-major (panels %u B)",
                                                u.panel)
                                             .c_str()
                                       : "K-major");
    auto it = wgmmaChecks.find(key);
    if (it == wgmmaChecks.end()) {
      expect("wgmma descriptors", name, false,
             [] { return std::string("no check for this N"); });
      continue;
    }
    it->second(u.panel, name);
  }
  // The emitted helpers' immediates: A K-major, B K-major or N-major
  // (`_tb`); tf32 and fp8 take none beyond the scales (K-major only, as
  // CuTe's SM90_64xNx8_F32TF32TF32_SS_TN and SM90_64xNx32_F32E4M3E4M3_SS_TN
  // take no majors).
  for (auto &[helper, values] : emitted.immediates) {
    bool tb = helper.size() > 3 && helper.substr(helper.size() - 3) == "_tb";
    bool kMajorOnly = helper.find("_tf32_") != std::string::npos ||
                      helper.find("_e4m3_") != std::string::npos ||
                      helper.find("_e5m2_") != std::string::npos;
    int cute[4];
    cute_ref::gmmaImmediates(false, tb, cute);
    std::vector<uint64_t> want(cute, cute + (kMajorOnly ? 2 : 4));
    expect("wgmma immediates", helper, values == want, [&] {
      std::string s = "emitted p";
      for (uint64_t v : values)
        s += format(", %" PRIu64, v);
      s += "; CuTe's SS op: p";
      for (uint64_t v : want)
        s += format(", %" PRIu64, v);
      return s;
    });
  }
#ifdef XT_ORACLE_LOWERED
  for (const TensorMapCall &t : emitted.maps)
    checkTensorMap(t);
#else
  if (!emitted.maps.empty())
    std::printf("cute-oracle: built without the emitted prelude "
                "(XT_ORACLE_LOWERED): %zu tensor maps not checked\n",
                emitted.maps.size());
#endif
  for (const std::string &l : emitted.ldmatrix)
    expect("emitted ldmatrix variants checked above", l,
           categories.count("ldmatrix") &&
               categories["ldmatrix"].configurations.count(l),
           [&] { return l + " is emitted but not checked"; });

  if (argc > 1)
    std::printf("cute-oracle: %d emitted CUDA C files: %zu wgmma kinds, %zu "
                "tensor maps, ldmatrix variants:%s\n",
                emitted.files, emitted.wgmma.size(), emitted.maps.size(),
                [&] {
                  std::string s;
                  for (const std::string &l : emitted.ldmatrix)
                    s += " " + l;
                  return s.empty() ? std::string(" none") : s;
                }()
                    .c_str());
  uint64_t total = 0;
  for (const std::string &name : order) {
    const Category &c = categories[name];
    std::printf("cute-oracle: %s: %zu configurations, %" PRIu64
                " comparisons, %" PRIu64 " disagreements\n",
                name.c_str(), c.configurations.size(), c.compared,
                c.disagreements);
    if (name.find("unused LBO") == std::string::npos)
      total += c.disagreements;
  }
  std::printf("cute-oracle: %s\n", total ? "DISAGREEMENTS FOUND"
                                         : "xtile agrees with CuTe");
  return total ? 1 : 0;
}
