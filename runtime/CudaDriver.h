//===- CudaDriver.h - the CUDA driver API, opened at run time ---*- C++ -*-===//
//
// xtile-run's GPU backend. libcuda.so.1 is opened with dlopen when first
// needed, so the tools build and run on machines without a GPU or a CUDA
// toolkit, and say so when asked for one. XTILE_LIBCUDA names another
// driver library to open instead (the emulation can be one).
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_RUNTIME_CUDADRIVER_H
#define XTILE_RUNTIME_CUDADRIVER_H

#include "runtime/LaunchPlan.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace xtile {

class CudaDriver {
public:
  /// Opens `library` when given, else $XTILE_LIBCUDA when set, else
  /// libcuda.so.1.
  explicit CudaDriver(const std::string &library = "");
  ~CudaDriver();

  /// Whether a driver and at least one GPU are present.
  bool available() const { return ready; }
  /// Why not, when not available.
  const std::string &whyUnavailable() const { return why; }

  struct KernelTime {
    std::string name;
    double micros;
  };

  /// Loads `ptx` and executes `program`, a launch plan: the tensor maps
  /// encoded, the launches run once to warm up and `repeats` more times
  /// (`times` gets the median of each), then the copies. `buffers` holds
  /// the program's inputs (read) and outputs (written back), in argument
  /// order; `sizes` the values of its dynamic sizes, in order (in their
  /// declared ranges). An error says which driver call failed and why.
  llvm::Error runProgram(llvm::StringRef ptx, const plan::Program &program,
                         std::vector<std::vector<char>> &buffers,
                         llvm::ArrayRef<int64_t> sizes, int repeats,
                         std::vector<KernelTime> &times);

private:
  struct Api;
  Api *api = nullptr;
  void *library = nullptr;
  void *context = nullptr;
  bool ready = false;
  std::string why;
};

} // namespace xtile

#endif // XTILE_RUNTIME_CUDADRIVER_H
