//===- cute_oracle.h - What CuTe says the tensor-core encodings are -------===//
//
// The interface between the two halves of the CuTe oracle (cute-oracle.test):
// cute_reference.cpp, which includes NVIDIA's CuTe headers and answers these
// questions from CuTe's own layouts and descriptor builders, and
// cute_oracle.cpp, which includes runtime/xtile_emulation.h and compares.
// The two never see each other's headers (both define CUDA's types).
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_TEST_CUTE_ORACLE_H
#define XTILE_TEST_CUTE_ORACLE_H

#include <cstdint>
#include <vector>

namespace cute_ref {

struct RowCol {
  int row, col;
};

/// mma.sync shapes: m16n8k16 on f16 / bf16 (SM80_16x8x16_F32{F16,BF16}...),
/// m16n8k8 on tf32 (SM80_16x8x8_F32TF32TF32F32_TN) and m16n8k32 on fp8
/// (SM89_16x8x32_F32{E4M3E4M3,E5M2E5M2}F32_TN).
enum class Mma { f16, bf16, tf32, e4m3, e5m2 };
/// The number of values each lane holds of operand 'A', 'B' or 'C'.
int mmaValues(Mma kind, char operand);
/// MMA_Traits<...>::{A,B,C}Layout: value `value` of lane `lane` is element
/// (row, col) of A (M x K), B (K x N) or C (M x N).
RowCol mmaElement(Mma kind, char operand, int lane, int value);

/// ldmatrix .x`n` (1, 2, 4), `.trans` or not (SM75_U32x{1,2,4}_LDSM_N,
/// SM75_U16x{2,4,8}_LDSM_T): the 16 bits [16 half, 16 half + 16) of
/// register `reg` of lane `lane` come from the row address lane `row` gave,
/// 16-bit element `col` of its 16 bytes. Returns {-1, -1} where CuTe's
/// layouts name no source.
RowCol ldmatrixSource(int n, bool trans, int lane, int reg, int half);

/// wgmma's accumulator, CLayout_64xN<n>: value `value` of thread `thread`
/// (0-127) of the warpgroup is element (row, col) of D (64 x n). n is a
/// multiple of 8 up to 256.
RowCol wgmmaAccumulator(int n, int thread, int value);

/// Swizzle<B, 4, 3> (B = log2(bytes / 16); none for 0 and 16) on a byte
/// offset.
uint64_t swizzle(int bytes, uint64_t offset);

/// A wgmma operand tile in shared memory in a canonical GMMA layout
/// (GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom tiled to mn x kTile,
/// K-major atoms along MN first, MN-major atoms along K first: 64-column
/// panels of every K row one after the other, as xtile stages an N-major B).
struct GmmaTile {
  int elementBytes; // 1 (fp8), 2 (f16 / bf16) or 4 (tf32)
  bool mnMajor;
  int swizzle; // 0 (interleaved), 32, 64 or 128
  int mn;      // rows (K-major) or columns (MN-major)
};
/// K elements of one wgmma: 32 bytes.
inline int gmmaInstructionK(int elementBytes) { return 32 / elementBytes; }
/// K elements of the staged tile: 128 bytes.
inline int gmmaTileK(int elementBytes) { return 128 / elementBytes; }
/// For the tile at shared byte offset `base`, its K slice `ks` (one
/// wgmma's K): make_gmma_desc's descriptor, and in `offsets` the shared byte
/// offset of element (i, k) of the slice at [i * K + k] (i along MN, k <
/// gmmaInstructionK). False if the tile is not one this oracle builds.
bool gmmaSlice(const GmmaTile &tile, uint32_t base, int ks, uint64_t &desc,
               std::vector<uint32_t> &offsets);

/// The immediates CuTe's SM90 GMMA ops (SM90_64xNx16_F32BF16BF16_SS etc.)
/// give wgmma.mma_async after the predicate: scale-a, scale-b (ScaleIn::One),
/// tnspA and tnspB (the operands' GMMA::Major: K or MN).
void gmmaImmediates(bool aMNMajor, bool bMNMajor, int out[4]);

/// What CuTe's make_tma_copy passes to cuTensorMapEncodeTiled for a
/// row-major global tensor `rows` x `cols` of `elementBytes` elements (2:
/// bf16 or f16; 1: fp8, K-major only) and a
/// shared tile of `tileRows` x `tileCols` of it: K-major (rows along MN,
/// cols along K) in the SW128 GMMA layout, or (`mnMajor`) cols along MN
/// in the MN-major SW128 layout (a panel of 64 columns by tileRows rows).
struct TmaArgs {
  int dataType = -1;
  unsigned rank = 0;
  uint64_t dims[5] = {}, strides[5] = {}; // innermost first; strides of 1..
  uint32_t box[5] = {}, elementStrides[5] = {};
  int interleave = -1, swizzle = -1, l2 = -1, oobFill = -1;
};
bool tmaArgs(int elementBytes, bool bf16, bool mnMajor, uint64_t rows,
             uint64_t cols, int tileRows, int tileCols, TmaArgs &args);

} // namespace cute_ref

#endif
