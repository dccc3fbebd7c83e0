// Runs a program of test/Integration/Inputs/mma-kernels.mlir or
// mma-fp8-kernels.mlir (compiled with the emulation header):
// run-mma <program> kn|nk [K]. One warp's A [16][K] by B [K][8] (16-bit:
// K = 16; fp8: K = 32, given as the weight [8][K]). A and B hold small
// integers, exact in every operand type and their products and sums exact
// in f32, so D must equal A B exactly. Prints the largest difference and
// a few elements of D.
#include "program-entry.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4)
    return 2;
  Packed run = findProgram(argv[1]);
  if (!run)
    return 2;
  bool weight = std::strcmp(argv[2], "nk") == 0; // B given as [n][k]
  int K = argc == 4 ? std::atoi(argv[3]) : 16;
  std::vector<float> a(16 * K), b(K * 8), d(16 * 8);
  std::vector<double> ref(16 * 8);
  for (int i = 0; i < 16; ++i)
    for (int k = 0; k < K; ++k)
      a[i * K + k] = float((i * 3 + k * 5) % 7 - 3);
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < 8; ++n)
      b[weight ? n * K + k : k * 8 + n] =
          float((k * 2 + n * 3) % 5 - 2 + (k == n) + (k >= 16));
  for (int i = 0; i < 16; ++i)
    for (int n = 0; n < 8; ++n)
      for (int k = 0; k < K; ++k)
        ref[i * 8 + n] +=
            double(a[i * K + k]) * b[weight ? n * K + k : k * 8 + n];
  std::memset(d.data(), 0xff, d.size() * sizeof(float));
  void *args[] = {a.data(), b.data(), d.data()};
  int rc = run(args, nullptr);
  double worst = 0;
  for (int j = 0; j < 16 * 8; ++j)
    worst = std::fmax(worst, std::fabs(d[j] - ref[j]));
  std::printf("%s rc=%d max|D - AB|=%g D[0][0..3]=%g %g %g %g D[15][7]=%g "
              "(expected %g)\n",
              argv[1], rc, worst, d[0], d[1], d[2], d[3], d[127], ref[127]);
  return rc != 0 || worst != 0;
}
