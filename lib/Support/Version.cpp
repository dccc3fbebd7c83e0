//===- Version.cpp - this compiler's version ------------------------------===//

#include "xtile/Support/Version.h"

llvm::StringRef xtile::getCompilerVersion() { return "xtile " XTILE_VERSION; }
