// The packed entry point `<program>_packed` of an emitted CUDA C file
// linked into a test driver (compiled with -rdynamic), or null with a
// message when there is none.
#include <cstdio>
#include <dlfcn.h>
#include <string>

using Packed = int (*)(void **, void *);

inline Packed findProgram(const char *program) {
  auto run = reinterpret_cast<Packed>(
      dlsym(RTLD_DEFAULT, (std::string(program) + "_packed").c_str()));
  if (!run)
    std::printf("no entry %s\n", program);
  return run;
}
