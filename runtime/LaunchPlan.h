//===- LaunchPlan.h - a program's launch plan, read from JSON ---*- C++ -*-===//
//
// What `xtile-translate --mlir-to-launch-plan` writes for each Kernel IR
// program (docs/KernelIR.md, "The launch plan"): its buffers, dynamic sizes
// and steps (tensor maps to encode, kernels to launch, buffers to copy).
// The runtime executes plans, as the Python loader does, and knows no IR.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_RUNTIME_LAUNCHPLAN_H
#define XTILE_RUNTIME_LAUNCHPLAN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace xtile::plan {

/// A buffer: an argument (role "input" or "output"), a temporary, or the
/// 128 bytes of a TMA tensor map. `shape` has -1 where a dynamic size is;
/// `sizes` names, in order, the program sizes those are. `bytes` is the
/// product of the static dimensions and the element size. An output
/// returned in place of an input has `inPlaceOf`, the input's index: the
/// caller passes one buffer for both.
struct Buffer {
  std::string role;
  std::vector<int64_t> shape;
  std::string element;
  int64_t bytes = 0;
  std::vector<int64_t> sizes;
  int64_t inPlaceOf = -1;

  /// The bytes at `values`, the program's sizes.
  int64_t bytesAt(llvm::ArrayRef<int64_t> values) const;
  /// The shape at `values`.
  std::vector<int64_t> shapeAt(llvm::ArrayRef<int64_t> values) const;
};

struct Size {
  std::string name;
  int64_t min = 1, max = 1;
};

/// One step, in program order.
struct Step {
  enum class Kind { Launch, Copy, TensorMap } kind = Kind::Launch;
  // Launch: `kernel` on `args` (buffer indices) and `sizes` (program size
  // indices), with `grid` or, when present, `gridMap` evaluated at them.
  std::string kernel;
  std::array<int64_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  int64_t shared = 0;
  std::vector<int64_t> args, sizes;
  std::vector<llvm::json::Value> gridMap;
  // A bucket's launch runs only where each of its sizes is within its
  // [min, max] here (none: always).
  std::vector<std::pair<int64_t, int64_t>> when;
  // Copy: buffer `from` to buffer `to`; `bytes` times `sizes` bytes (the
  // launch's `sizes` field is reused for the copy's sizes).
  int64_t from = 0, to = 0, bytes = 0;
  // TensorMap: the map of buffer `from` encoded into buffer `to`.
  int64_t dataType = 0, elementBytes = 0, swizzle = 0;
  std::vector<int64_t> box;

  /// The bytes a copy moves at `values`, the program's sizes.
  int64_t bytesAt(llvm::ArrayRef<int64_t> values) const;
  /// The grid of a launch at `values`, the program's sizes.
  std::array<int64_t, 3> gridAt(llvm::ArrayRef<int64_t> values) const;
  /// Whether a launch runs at `values`, the program's sizes (`when`).
  bool runsAt(llvm::ArrayRef<int64_t> values) const;
};

struct Program {
  std::string name;
  int64_t numInputs = 0;
  std::vector<Size> sizes;
  std::vector<Buffer> buffers;
  std::vector<Step> steps;
};

/// Reads the JSON of `--mlir-to-launch-plan`; an error names what is
/// malformed.
llvm::Expected<std::vector<Program>> parse(llvm::StringRef json);

} // namespace xtile::plan

#endif // XTILE_RUNTIME_LAUNCHPLAN_H
