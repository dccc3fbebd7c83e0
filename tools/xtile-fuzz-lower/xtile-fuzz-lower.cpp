//===- xtile-fuzz-lower.cpp - libFuzzer harness for the whole compiler ----===//
//
// One input is one MLIR module in text form. The harness parses and
// verifies it, lowers it with --lower-to-kernel (default options, sm_90)
// and prints the result as CUDA C to nowhere. Diagnostics are swallowed: a
// located error is a correct answer to bad input, and only crashes,
// sanitizer reports, hangs and memory blow-ups are findings.
//
// Inputs whose tensors are large are skipped before lowering (constant
// folding may materialize them): every shaped type of the module must have
// at most 2^22 elements and rank 8.
//
// Built by `scripts/setup.sh --config fuzz` (clang-22 with
// -fsanitize=fuzzer,address,undefined); run by scripts/fuzz.sh, which
// also writes the dictionary (XTILE_FUZZ_PRINT_DICT=1 prints it: every
// registered op name and the keywords of the syntax). See docs/Running.md.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "xtile/InitAllDialects.h"
#include "xtile/InitAllPasses.h"
#include "xtile/Pipelines/Pipelines.h"
#include "xtile/Target/CUDA/CUDAEmitter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir;

namespace {

constexpr int64_t kMaxElements = int64_t(1) << 22;
constexpr int64_t kMaxRank = 8;

/// Whether a type is small enough to lower without allocating gigabytes.
bool isSmall(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return true;
  if (shaped.getRank() > kMaxRank)
    return false;
  int64_t elements = 1;
  for (int64_t dim : shaped.getShape()) {
    if (ShapedType::isDynamic(dim))
      continue;
    if (dim < 0 || (dim != 0 && elements > kMaxElements / dim))
      return false;
    elements *= dim;
  }
  return elements <= kMaxElements;
}

bool hasOnlySmallTensors(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    auto small = [](TypeRange types) {
      return llvm::all_of(types, [](Type t) { return isSmall(t); });
    };
    if (!small(op->getOperandTypes()) || !small(op->getResultTypes()))
      return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!small(block.getArgumentTypes()))
          return WalkResult::interrupt();
    for (NamedAttribute attr : op->getAttrs()) {
      if (auto typed = dyn_cast<TypedAttr>(attr.getValue()))
        if (!isSmall(typed.getType()))
          return WalkResult::interrupt();
      if (auto type = dyn_cast<TypeAttr>(attr.getValue()))
        if (!isSmall(type.getValue()))
          return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

DialectRegistry &registry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry;
    xtile::registerAllDialects(*r);
    return r;
  }();
  return *registry;
}

/// The dictionary: op names and the keywords and punctuation of the
/// syntax, one libFuzzer dictionary entry per line.
void printDictionary(llvm::raw_ostream &os) {
  MLIRContext context(registry());
  context.loadAllAvailableDialects();
  auto entry = [&](StringRef text) {
    os << '"';
    llvm::printEscapedString(text, os);
    os << "\"\n";
  };
  for (RegisteredOperationName name : context.getRegisteredOperations())
    entry(name.getStringRef());
  for (StringRef word :
       {"func.func", "return", "tensor<", "memref<", "vector<", "dense<",
        "array<i64: ", "f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64",
        "index", "x", "?", "->", "(", ")", "{", "}", "[", "]", "<", ">", ":",
        "%", "#", "^bb0", "=", ", ", " : ", "// -----", "attributes",
        "loc(", "unit", "true", "false", "0x7F800000", "0xFF800000", "inf",
        "-1", "0", "1", "2", "3", "7", "8", "16", "31", "32", "127", "128",
        "255", "256", "1024", "4096", "65536", "2147483647", "2147483648",
        "#xtile.target", "#xtile.dot_schedule", "#xtile.schedule",
        "sm_80", "sm_90", "sm_90a", "dims", "axes", "keepdim", "perm",
        "kind", "ways", "stages", "block_m", "block_n", "block_k"})
    entry(word);
}

struct Harness {
  xtile::LowerToKernelOptions options;
  Harness() {
    xtile::registerAllPasses();
    if (const char *flag = std::getenv("XTILE_FUZZ_PRINT_DICT");
        flag && *flag == '1') {
      printDictionary(llvm::outs());
      llvm::outs().flush();
      std::exit(0);
    }
  }
};

Harness &harness() {
  static Harness *harness = new Harness;
  return *harness;
}

} // namespace

extern "C" const char *__asan_default_options() {
  // Debian's libMLIR is not instrumented: LLVM's bump allocators poison
  // their slabs from our (instrumented) inline code but not from the
  // library's, which would then trip on its own writes. Leaks of the
  // context's uniqued storage at exit are not findings.
  return "detect_leaks=0:allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  (void)harness();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  ScopedDiagnosticHandler swallow(&context,
                                  [](Diagnostic &) { return success(); });
  // MLIR's lexer reads up to a terminating NUL: the fuzzer's bytes are
  // copied into a buffer that has one, as a file read from disk does.
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          StringRef(reinterpret_cast<const char *>(data), size), "fuzz-input"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module || !hasOnlySmallTensors(*module))
    return 0;
  PassManager pm(&context);
  xtile::buildLowerToKernelPipeline(pm, harness().options);
  if (failed(pm.run(*module)))
    return 0;
  (void)xtile::translateToCUDA(*module, llvm::nulls());
  return 0;
}
