//===- fp8_oracle.cpp - the emulation's fp8 cvt against CUTLASS ----------===//
//
// The emulation's cvt.rn.satfinite.{e4m3,e5m2}x2.f32 and
// cvt.rn.f16x2.{e4m3,e5m2}x2 (runtime/xtile_emulation.h, which both code
// paths' fp8 casts run on under emulation, and which the PTX path's host
// code calls for the instructions) against CUTLASS's host conversions
// (fp8_cutlass.cpp), an independent reading of the same instructions.
//
// To fp8: every f32 whose low 12 mantissa bits are 0, 1, 0x800 or 0xfff
// (every sign, exponent and upper 11 mantissa bits: every rounding
// decision, with and without sticky bits, since no fp8 keeps more than 3
// mantissa bits), +-inf and NaN. From fp8: all 256 encodings of each.
// NaN must be NaN on both sides (the instruction's NaN is 0x7f; CUTLASS
// may keep the sign); every other result bit for bit.
//
// `--mutate=e5m2-overflow` models a misreading of satfinite (e5m2 values
// beyond 57344 as infinity) to show that the comparison catches one.
//
//===----------------------------------------------------------------------===//

#include "xtile_emulation.h"

#include <cinttypes>
#include <cstring>

extern "C" uint8_t cutlass_to_e4m3(float x);
extern "C" uint8_t cutlass_to_e5m2(float x);
extern "C" float cutlass_from_e4m3(uint8_t bits);
extern "C" float cutlass_from_e5m2(uint8_t bits);

namespace {

bool isNan8(uint8_t b, bool e4m3) {
  return e4m3 ? (b & 0x7f) == 0x7f : (b & 0x7f) > 0x7c;
}

struct Count {
  const char *what;
  uint64_t compared = 0, disagree = 0;
  void report() const {
    std::printf("fp8-oracle: %s: %" PRIu64 " values, %" PRIu64
                " disagreements\n",
                what, compared, disagree);
  }
};

} // namespace

int main(int argc, char **argv) {
  bool mutate = argc > 1 && std::strcmp(argv[1], "--mutate=e5m2-overflow") == 0;
  Count to[2] = {{"f32 to e4m3 (cvt.rn.satfinite.e4m3x2.f32)"},
                 {"f32 to e5m2 (cvt.rn.satfinite.e5m2x2.f32)"}};
  const uint32_t lows[] = {0, 1, 0x800, 0xfff};
  for (uint32_t high = 0; high < (1u << 20); ++high) {
    for (uint32_t low : lows) {
      uint32_t bits = high << 12 | low;
      float x;
      std::memcpy(&x, &bits, 4);
      for (int k = 0; k < 2; ++k) {
        bool e4m3 = k == 0;
        uint8_t ours = e4m3 ? xt_cvt_e4m3x2_f32(0.0f, x) & 0xff
                            : xt_cvt_e5m2x2_f32(0.0f, x) & 0xff;
        if (mutate && !e4m3 && !std::isnan(x) && std::fabs(x) > 57344.0f)
          ours = std::signbit(x) ? 0xfc : 0x7c;
        uint8_t theirs = e4m3 ? cutlass_to_e4m3(x) : cutlass_to_e5m2(x);
        bool agree = isNan8(theirs, e4m3) ? isNan8(ours, e4m3) : ours == theirs;
        ++to[k].compared;
        if (!agree && to[k].disagree++ < 5)
          std::printf("DISAGREE %s: %a (0x%08x): ours 0x%02x, CUTLASS 0x%02x\n",
                      to[k].what, x, bits, ours, theirs);
      }
    }
  }
  Count from[2] = {{"e4m3 to f16 (cvt.rn.f16x2.e4m3x2)"},
                   {"e5m2 to f16 (cvt.rn.f16x2.e5m2x2)"}};
  for (int k = 0; k < 2; ++k) {
    for (uint32_t b = 0; b < 256; ++b) {
      uint16_t pair = uint16_t(b << 8 | b);
      uint32_t halves = k == 0 ? xt_cvt_f16x2_e4m3x2(pair)
                               : xt_cvt_f16x2_e5m2x2(pair);
      float lo = __half2float(__ushort_as_half(uint16_t(halves & 0xffff)));
      float hi = __half2float(__ushort_as_half(uint16_t(halves >> 16)));
      float theirs = k == 0 ? cutlass_from_e4m3(uint8_t(b))
                            : cutlass_from_e5m2(uint8_t(b));
      auto same = [&](float v) {
        return std::isnan(theirs) ? std::isnan(v)
                                  : v == theirs &&
                                        std::signbit(v) == std::signbit(theirs);
      };
      ++from[k].compared;
      if (!(same(lo) && same(hi)) && from[k].disagree++ < 5)
        std::printf("DISAGREE %s: 0x%02x: ours %a %a, CUTLASS %a\n",
                    from[k].what, b, lo, hi, theirs);
    }
  }
  uint64_t total = 0;
  for (const Count &c : to)
    c.report(), total += c.disagree;
  for (const Count &c : from)
    c.report(), total += c.disagree;
  std::printf("fp8-oracle: %s\n", total ? "DISAGREEMENTS FOUND"
                                        : "the emulation agrees with CUTLASS");
  return total ? 1 : 0;
}
