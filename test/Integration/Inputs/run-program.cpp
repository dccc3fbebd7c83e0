// Runs one program of an emitted CUDA C file compiled in with the emulation
// header: run-program <entry> <floats per buffer>... Buffers are filled with
// 0, 1, 2, ...; prints the first elements of the last buffer.
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  using Packed = int (*)(void **, void *);
  auto run = reinterpret_cast<Packed>(
      dlsym(RTLD_DEFAULT, (std::string(argv[1]) + "_packed").c_str()));
  if (!run) {
    std::printf("no entry %s\n", argv[1]);
    return 2;
  }
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
