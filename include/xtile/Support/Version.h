//===- Version.h - this compiler's version ----------------------*- C++ -*-===//

#ifndef XTILE_SUPPORT_VERSION_H
#define XTILE_SUPPORT_VERSION_H

#include "llvm/ADT/StringRef.h"

namespace xtile {
/// The version of this compiler, as tuned specs and build caches record it
/// ("xtile 0.1.0").
llvm::StringRef getCompilerVersion();
} // namespace xtile

#endif // XTILE_SUPPORT_VERSION_H
