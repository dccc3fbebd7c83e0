//===- cute_reference.cpp - The tensor-core encodings as CuTe has them ----===//
//
// The CuTe half of the oracle (see cute_oracle.h): every answer comes from
// NVIDIA's CuTe headers (PyPI nvidia-cutlass, compiled here for the host),
// never from xtile's code: the thread-value layouts of MMA_Traits and
// Copy_Traits, CLayout_64xN, Swizzle, make_gmma_desc on the canonical GMMA
// layouts, and the arguments make_tma_copy gives cuTensorMapEncodeTiled.
//
// CuTe builds descriptors from shared-memory addresses and TMA maps through
// the driver, neither of which exists on the host: __cvta_generic_to_shared
// is the offset from a buffer standing for shared memory, and
// cuTensorMapEncodeTiled (declared by the CUDA toolkit's cuda.h) is defined
// below to record its arguments. CuTe's host code calls the driver only
// when it believes nvcc 12 compiles it: the version macros say so.
//
//===----------------------------------------------------------------------===//

#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 4
#define CUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL 1
#define CUTE_CVTA_GENERIC_TO_SHARED_ACTIVATED 1

#include <cstdint>

namespace {
/// The host's stand-in for shared memory: descriptors hold offsets from it.
alignas(1024) unsigned char smem[256 * 1024];
} // namespace

inline uint32_t __cvta_generic_to_shared(const void *p) {
  return uint32_t(static_cast<const unsigned char *>(p) - smem);
}

#include <cute/tensor.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm89.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>

#include "cute_oracle.h"

#include <map>
#include <utility>

using namespace cute;

namespace {
cute_ref::TmaArgs *recording = nullptr;
}

extern "C" CUresult cuTensorMapEncodeTiled(
    CUtensorMap *, CUtensorMapDataType dataType, cuuint32_t rank, void *,
    const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
    CUtensorMapFloatOOBfill oobFill) {
  if (!recording || rank > 5)
    return CUDA_ERROR_INVALID_VALUE;
  cute_ref::TmaArgs &a = *recording;
  a.dataType = int(dataType);
  a.rank = rank;
  for (unsigned d = 0; d < rank; ++d) {
    a.dims[d] = dims[d];
    a.box[d] = box[d];
    a.elementStrides[d] = elementStrides[d];
    if (d + 1 < rank)
      a.strides[d] = strides[d];
  }
  a.interleave = int(interleave);
  a.swizzle = int(swizzle);
  a.l2 = int(l2);
  a.oobFill = int(oobFill);
  return CUDA_SUCCESS;
}

namespace cute_ref {

//===----------------------------------------------------------------------===//
// mma.sync and ldmatrix
//===----------------------------------------------------------------------===//

template <class Traits>
static RowCol mmaOf(char operand, int lane, int value) {
  using M = decltype(size<0>(typename Traits::Shape_MNK{}));
  using N = decltype(size<1>(typename Traits::Shape_MNK{}));
  if (operand == 'A') {
    int idx = typename Traits::ALayout{}(lane, value);
    return {idx % M::value, idx / M::value}; // (M, K), column-major
  }
  if (operand == 'B') {
    int idx = typename Traits::BLayout{}(lane, value);
    return {idx / N::value, idx % N::value}; // (N, K): as (k, n)
  }
  int idx = typename Traits::CLayout{}(lane, value);
  return {idx % M::value, idx / M::value}; // (M, N)
}

template <class Traits> static int valuesOf(char operand) {
  if (operand == 'A')
    return size<1>(typename Traits::ALayout{});
  if (operand == 'B')
    return size<1>(typename Traits::BLayout{});
  return size<1>(typename Traits::CLayout{});
}

using F16 = MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>;
using BF16 = MMA_Traits<SM80_16x8x16_F32BF16BF16F32_TN>;
using TF32 = MMA_Traits<SM80_16x8x8_F32TF32TF32F32_TN>;
using E4M3 = MMA_Traits<SM89_16x8x32_F32E4M3E4M3F32_TN>;
using E5M2 = MMA_Traits<SM89_16x8x32_F32E5M2E5M2F32_TN>;

int mmaValues(Mma kind, char operand) {
  switch (kind) {
  case Mma::f16: return valuesOf<F16>(operand);
  case Mma::bf16: return valuesOf<BF16>(operand);
  case Mma::tf32: return valuesOf<TF32>(operand);
  case Mma::e4m3: return valuesOf<E4M3>(operand);
  case Mma::e5m2: return valuesOf<E5M2>(operand);
  }
  return 0;
}

RowCol mmaElement(Mma kind, char operand, int lane, int value) {
  switch (kind) {
  case Mma::f16: return mmaOf<F16>(operand, lane, value);
  case Mma::bf16: return mmaOf<BF16>(operand, lane, value);
  case Mma::tf32: return mmaOf<TF32>(operand, lane, value);
  case Mma::e4m3: return mmaOf<E4M3>(operand, lane, value);
  case Mma::e5m2: return mmaOf<E5M2>(operand, lane, value);
  }
  return {-1, -1};
}

/// The source of each destination bit: Src and Dst map (thread, value) to
/// the same bit indices; the lowest source thread that holds a bit is the
/// one whose address ldmatrix reads (CuTe repeats the addressing lanes).
template <class Op>
static RowCol ldsmOf(int lane, int reg, int half) {
  using Traits = Copy_Traits<Op>;
  typename Traits::SrcLayout src;
  typename Traits::DstLayout dst;
  static const std::map<int, std::pair<int, int>> inverse = [] {
    std::map<int, std::pair<int, int>> m;
    typename Traits::SrcLayout s;
    for (int t = size<0>(s) - 1; t >= 0; --t)
      for (int v = 0; v < int(size<1>(s)); ++v)
        m[s(t, v)] = {t, v};
    return m;
  }();
  (void)src;
  int values = size<1>(dst);
  int first = 32 * reg + 16 * half;
  if (first + 16 > values)
    return {-1, -1};
  auto at = inverse.find(dst(lane, first));
  if (at == inverse.end() || at->second.second % 16)
    return {-1, -1};
  // The 16 bits come in order from one source element.
  for (int b = 1; b < 16; ++b) {
    auto next = inverse.find(dst(lane, first + b));
    if (next == inverse.end() || next->second.first != at->second.first ||
        next->second.second != at->second.second + b)
      return {-1, -1};
  }
  return {at->second.first, at->second.second / 16};
}

RowCol ldmatrixSource(int n, bool trans, int lane, int reg, int half) {
  if (!trans)
    return n == 1   ? ldsmOf<SM75_U32x1_LDSM_N>(lane, reg, half)
           : n == 2 ? ldsmOf<SM75_U32x2_LDSM_N>(lane, reg, half)
                    : ldsmOf<SM75_U32x4_LDSM_N>(lane, reg, half);
  return n == 1   ? ldsmOf<SM75_U16x2_LDSM_T>(lane, reg, half)
         : n == 2 ? ldsmOf<SM75_U16x4_LDSM_T>(lane, reg, half)
                  : ldsmOf<SM75_U16x8_LDSM_T>(lane, reg, half);
}

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

template <int N> static RowCol accumulatorOf(int thread, int value) {
  int idx = SM90::GMMA::CLayout_64xN<N>{}(thread, value);
  return {idx % 64, idx / 64};
}

template <int... I>
static RowCol accumulatorDispatch(int n, int thread, int value,
                                  std::integer_sequence<int, I...>) {
  using Fn = RowCol (*)(int, int);
  static const Fn table[] = {&accumulatorOf<8 * (I + 1)>...};
  return table[n / 8 - 1](thread, value);
}

RowCol wgmmaAccumulator(int n, int thread, int value) {
  if (n < 8 || n > 256 || n % 8)
    return {-1, -1};
  return accumulatorDispatch(n, thread, value,
                             std::make_integer_sequence<int, 32>{});
}

uint64_t swizzle(int bytes, uint64_t offset) {
  switch (bytes) {
  case 32:
    return Swizzle<1, 4, 3>{}(offset);
  case 64:
    return Swizzle<2, 4, 3>{}(offset);
  case 128:
    return Swizzle<3, 4, 3>{}(offset);
  default:
    return offset;
  }
}

template <class T, bool MN, int SW> static auto atomOf() {
  if constexpr (MN) {
    if constexpr (SW == 0)
      return GMMA::Layout_MN_INTER_Atom<T>{};
    else if constexpr (SW == 32)
      return GMMA::Layout_MN_SW32_Atom<T>{};
    else if constexpr (SW == 64)
      return GMMA::Layout_MN_SW64_Atom<T>{};
    else
      return GMMA::Layout_MN_SW128_Atom<T>{};
  } else {
    if constexpr (SW == 0)
      return GMMA::Layout_K_INTER_Atom<T>{};
    else if constexpr (SW == 32)
      return GMMA::Layout_K_SW32_Atom<T>{};
    else if constexpr (SW == 64)
      return GMMA::Layout_K_SW64_Atom<T>{};
    else
      return GMMA::Layout_K_SW128_Atom<T>{};
  }
}

template <class T, bool MN, int SW, int Extent>
static bool sliceOf(uint32_t base, int ks, uint64_t &desc,
                    std::vector<uint32_t> &offsets) {
  constexpr int kTile = 128 / sizeof(T), kStep = 32 / sizeof(T);
  using Shape2 = Shape<Int<Extent>, Int<kTile>>;
  auto layout = [] {
    if constexpr (MN)
      return tile_to_shape(atomOf<T, MN, SW>(), Shape2{}, Step<_2, _1>{});
    else
      return tile_to_shape(atomOf<T, MN, SW>(), Shape2{});
  }();
  if (ks < 0 || ks >= kTile / kStep ||
      base + cosize(layout) * sizeof(T) > sizeof smem)
    return false;
  Tensor tile =
      make_tensor(make_smem_ptr(reinterpret_cast<T *>(smem + base)), layout);
  Tensor slice = flat_divide(tile, Shape<Int<Extent>, Int<kStep>>{})(
      _, _, 0, ks);
  desc = GMMA::make_gmma_desc<MN ? GMMA::Major::MN : GMMA::Major::K>(slice)
             .desc_;
  offsets.assign(Extent * kStep, 0);
  for (int i = 0; i < Extent; ++i)
    for (int k = 0; k < kStep; ++k)
      offsets[i * kStep + k] = uint32_t(
          reinterpret_cast<const unsigned char *>(&slice(i, k)) - smem);
  return true;
}

using SliceFn = bool (*)(uint32_t, int, uint64_t &, std::vector<uint32_t> &);

template <class T, bool MN, int SW>
static void addSlices(std::map<std::tuple<int, bool, int, int>, SliceFn> &m) {
  constexpr int bytes = sizeof(T);
  if constexpr (MN) {
    m[{bytes, MN, SW, 64}] = &sliceOf<T, MN, SW, 64>;
    m[{bytes, MN, SW, 128}] = &sliceOf<T, MN, SW, 128>;
    m[{bytes, MN, SW, 256}] = &sliceOf<T, MN, SW, 256>;
  } else {
    m[{bytes, MN, SW, 8}] = &sliceOf<T, MN, SW, 8>;
    m[{bytes, MN, SW, 16}] = &sliceOf<T, MN, SW, 16>;
    m[{bytes, MN, SW, 64}] = &sliceOf<T, MN, SW, 64>;
    m[{bytes, MN, SW, 128}] = &sliceOf<T, MN, SW, 128>;
    m[{bytes, MN, SW, 256}] = &sliceOf<T, MN, SW, 256>;
  }
}

bool gmmaSlice(const GmmaTile &tile, uint32_t base, int ks, uint64_t &desc,
               std::vector<uint32_t> &offsets) {
  static const auto table = [] {
    std::map<std::tuple<int, bool, int, int>, SliceFn> m;
    addSlices<half_t, false, 0>(m);
    addSlices<half_t, false, 32>(m);
    addSlices<half_t, false, 64>(m);
    addSlices<half_t, false, 128>(m);
    addSlices<half_t, true, 0>(m);
    addSlices<half_t, true, 32>(m);
    addSlices<half_t, true, 64>(m);
    addSlices<half_t, true, 128>(m);
    // tf32 and fp8 are read K-major only.
    addSlices<tfloat32_t, false, 0>(m);
    addSlices<tfloat32_t, false, 32>(m);
    addSlices<tfloat32_t, false, 64>(m);
    addSlices<tfloat32_t, false, 128>(m);
    addSlices<float_e4m3_t, false, 0>(m);
    addSlices<float_e4m3_t, false, 32>(m);
    addSlices<float_e4m3_t, false, 64>(m);
    addSlices<float_e4m3_t, false, 128>(m);
    return m;
  }();
  auto it = table.find(
      {tile.elementBytes, tile.mnMajor, tile.swizzle, tile.mn});
  return it != table.end() && it->second(base, ks, desc, offsets);
}

void gmmaImmediates(bool aMNMajor, bool bMNMajor, int out[4]) {
  out[0] = int(GMMA::ScaleIn::One);
  out[1] = int(GMMA::ScaleIn::One);
  out[2] = int(aMNMajor ? GMMA::Major::MN : GMMA::Major::K);
  out[3] = int(bMNMajor ? GMMA::Major::MN : GMMA::Major::K);
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

template <class T, bool MN, int TileRows>
static bool tmaOf(uint64_t rows, uint64_t cols, TmaArgs &args) {
  static T buffer[16];
  TmaArgs captured;
  recording = &captured;
  if constexpr (MN) {
    // W [rows = K][cols = N], N contiguous: the (N, K) view, one panel of
    // 64 columns (128 bytes) by TileRows rows of K.
    Tensor g = make_tensor(make_gmem_ptr(buffer),
                           make_shape(int(cols), int(rows)),
                           make_stride(_1{}, int(cols)));
    auto s = tile_to_shape(GMMA::Layout_MN_SW128_Atom<T>{},
                           Shape<Int<128 / sizeof(T)>, Int<TileRows>>{});
    (void)make_tma_copy(SM90_TMA_LOAD{}, g, s);
  } else {
    // A [rows = M][cols = K], K contiguous; TileRows rows of 128 bytes.
    Tensor g = make_tensor(make_gmem_ptr(buffer),
                           make_shape(int(rows), int(cols)),
                           make_stride(int(cols), _1{}));
    auto s = tile_to_shape(GMMA::Layout_K_SW128_Atom<T>{},
                           Shape<Int<TileRows>, Int<128 / sizeof(T)>>{});
    (void)make_tma_copy(SM90_TMA_LOAD{}, g, s);
  }
  recording = nullptr;
  args = captured;
  return captured.rank > 0;
}

bool tmaArgs(int elementBytes, bool bf16, bool mnMajor, uint64_t rows,
             uint64_t cols, int tileRows, int tileCols, TmaArgs &args) {
  if ((elementBytes != 2 && elementBytes != 1) ||
      tileCols * elementBytes != 128 || (elementBytes == 1 && mnMajor))
    return false;
  // fp8 tiles are K-major only (as wgmma reads them).
#define XT_TMA_CASE(R)                                                         \
  if (tileRows == R)                                                           \
    return elementBytes == 1                                                   \
               ? tmaOf<float_e4m3_t, false, R>(rows, cols, args)               \
           : bf16 ? (mnMajor ? tmaOf<bfloat16_t, true, R>(rows, cols, args)    \
                             : tmaOf<bfloat16_t, false, R>(rows, cols, args))  \
                  : (mnMajor ? tmaOf<half_t, true, R>(rows, cols, args)        \
                             : tmaOf<half_t, false, R>(rows, cols, args));
  XT_TMA_CASE(16)
  XT_TMA_CASE(64)
  XT_TMA_CASE(128)
  XT_TMA_CASE(256)
#undef XT_TMA_CASE
  return false;
}

} // namespace cute_ref
