// Runs a program of test/Integration/Inputs/wgmma-kernels.mlir (compiled
// with the emulation header): run-wgmma <program>. A (64x16) and B (16x16,
// given as [n][k]) hold small integers, exact in f16 and bf16 and their
// products and sums exact in f32, so D must equal A B exactly. Prints the
// largest difference and a few elements of D.
#include "program-entry.h"

#include <cmath>
#include <cstring>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  Packed run = findProgram(argv[1]);
  if (!run)
    return 2;
  float a[64 * 16], b[16 * 16], d[64 * 16];
  double ref[64 * 16] = {};
  for (int i = 0; i < 64; ++i)
    for (int k = 0; k < 16; ++k)
      a[i * 16 + k] = float((i * 3 + k * 5) % 7 - 3);
  for (int n = 0; n < 16; ++n)
    for (int k = 0; k < 16; ++k)
      b[n * 16 + k] = float((k * 2 + n * 3) % 5 - 2 + (k == n));
  for (int i = 0; i < 64; ++i)
    for (int n = 0; n < 16; ++n)
      for (int k = 0; k < 16; ++k)
        ref[i * 16 + n] += double(a[i * 16 + k]) * b[n * 16 + k];
  std::memset(d, 0xff, sizeof d);
  void *args[] = {a, b, d};
  int rc = run(args, nullptr);
  double worst = 0;
  for (int j = 0; j < 64 * 16; ++j)
    worst = std::fmax(worst, std::fabs(d[j] - ref[j]));
  std::printf("%s rc=%d max|D - AB|=%g D[0][0..3]=%g %g %g %g D[63][15]=%g "
              "(expected %g)\n",
              argv[1], rc, worst, d[0], d[1], d[2], d[3], d[1023], ref[1023]);
  return rc != 0 || worst != 0;
}
