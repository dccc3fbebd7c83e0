//===- fp8_cutlass.cpp - fp8 conversions as CUTLASS has them -------------===//
//
// The CUTLASS half of the fp8 oracle (fp8_oracle.cpp): cutlass::float_e4m3_t
// and float_e5m2_t compiled for the host, where they convert in software
// written to match the GPU's cvt.rn.satfinite instructions (the device
// path of the same functions is the instruction itself). Nothing here
// comes from xtile.
//
//===----------------------------------------------------------------------===//

#include <cstdint>

#include <cutlass/float8.h>

extern "C" uint8_t cutlass_to_e4m3(float x) {
  return cutlass::float_e4m3_t::from_float(x).storage;
}
extern "C" uint8_t cutlass_to_e5m2(float x) {
  return cutlass::float_e5m2_t::from_float(x).storage;
}
extern "C" float cutlass_from_e4m3(uint8_t bits) {
  return float(cutlass::float_e4m3_t::bitcast(bits));
}
extern "C" float cutlass_from_e5m2(uint8_t bits) {
  return float(cutlass::float_e5m2_t::bitcast(bits));
}
