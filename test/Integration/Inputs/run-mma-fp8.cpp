// Runs a program of test/Integration/Inputs/mma-fp8-kernels.mlir (compiled
// with the emulation header): run-mma-fp8 <program>. A [16][32] and the
// weight W [8][32] hold small integers (exact in e4m3 and e5m2, their
// products and sums exact in f32), distinct per k, so D must equal A W^T
// exactly: a lane or a K half read from the wrong place shows. Prints the
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
  float a[16 * 32], w[8 * 32], d[16 * 8];
  double ref[16 * 8] = {};
  for (int i = 0; i < 16; ++i)
    for (int k = 0; k < 32; ++k)
      a[i * 32 + k] = float((i * 3 + k * 5) % 7 - 3);
  for (int n = 0; n < 8; ++n)
    for (int k = 0; k < 32; ++k)
      w[n * 32 + k] = float((k * 2 + n * 3) % 5 - 2 + (k == n) + (k >= 16));
  for (int i = 0; i < 16; ++i)
    for (int n = 0; n < 8; ++n)
      for (int k = 0; k < 32; ++k)
        ref[i * 8 + n] += double(a[i * 32 + k]) * w[n * 32 + k];
  std::memset(d, 0xff, sizeof d);
  void *args[] = {a, w, d};
  int rc = run(args, nullptr);
  double worst = 0;
  for (int j = 0; j < 16 * 8; ++j)
    worst = std::fmax(worst, std::fabs(d[j] - ref[j]));
  std::printf("%s rc=%d max|D - AW^T|=%g D[0][0..3]=%g %g %g %g D[15][7]=%g "
              "(expected %g)\n",
              argv[1], rc, worst, d[0], d[1], d[2], d[3], d[127], ref[127]);
  return rc != 0 || worst != 0;
}
