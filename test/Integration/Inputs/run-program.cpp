// Runs one program of an emitted CUDA C file compiled in with the emulation
// header: run-program <entry> <floats per buffer>... Buffers are filled with
// 0, 1, 2, ...; prints the first elements of the last buffer.
#include "program-entry.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  Packed run = findProgram(argv[1]);
  if (!run)
    return 2;
  std::vector<std::vector<float>> buffers;
  std::vector<void *> pointers;
  for (int i = 2; i < argc; ++i) {
    buffers.emplace_back(std::atoi(argv[i]));
    for (size_t j = 0; j < buffers.back().size(); ++j)
      buffers.back()[j] = float(j);
  }
  for (auto &b : buffers)
    pointers.push_back(b.data());
  int rc = run(pointers.data(), nullptr);
  std::printf("rc=%d", rc);
  for (size_t j = 0; j < 4 && j < buffers.back().size(); ++j)
    std::printf(" %g", buffers.back()[j]);
  std::printf("\n");
  return rc;
}
