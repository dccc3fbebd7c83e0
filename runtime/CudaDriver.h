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

#include "xtile/Dialect/Kernel/IR/KernelOps.h"

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

  /// Loads `ptx`, runs `program`'s launches once to warm up and `repeats`
  /// more times, and returns the median time of each launch. `buffers`
  /// holds the program's inputs (read) and outputs (written back), in
  /// argument order; `sizes` the values of its dynamic sizes, in order
  /// (in their declared ranges).
  llvm::LogicalResult runProgram(llvm::StringRef ptx, kernel::ProgramOp program,
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
