//===- xtile-run.cpp - run compiled graphs, checked against float64 -------===//
//
// Lowers a Tensor IR module through the whole pipeline (--lower-to-kernel),
// runs each function on a backend, and compares every output with the
// float64 reference interpreter of Tensor IR:
//
//   emu   the emitted CUDA C, compiled by the host C++ compiler with
//         runtime/xtile_emulation.h (threads as fibers, blocks on the cores)
//   cuda  the emitted PTX on a GPU through the CUDA driver API, opened at
//         run time (runtime/CudaDriver.h), with per-kernel times
//   emu-ptx  the PTX path's own code on the CPU: the LLVM IR that NVPTX
//         compiles into the PTX, retargeted to the host (--mlir-to-host-ptx)
//         and linked with runtime/xtile_ptx_host.cpp into an emulated CUDA
//         driver, which the cuda backend's host side then drives
//   ref   the reference alone
//
// Inputs are random (seeded) unless given as .npy files; outputs are
// written as .npy when asked. Exits 1 when an output is off by more than
// its tolerance, or when anything fails.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "runtime/CudaDriver.h"
#include "runtime/Npy.h"
#include "xtile/Dialect/Kernel/IR/KernelOps.h"
#include "xtile/Dialect/Tensor/Transforms/Passes.h"
#include "xtile/Dialect/Tensor/Utils/Reference.h"
#include "xtile/InitAllDialects.h"
#include "xtile/Pipelines/Pipelines.h"
#include "xtile/Support/Storage.h"
#include "xtile/Support/SymbolicDims.h"
#include "xtile/Target/CUDA/CUDAEmitter.h"
#include "xtile/Target/LaunchPlan/LaunchPlan.h"
#include "xtile/Target/PTX/PTXEmitter.h"

#include "TestPasses.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"
#include "llvm/ADT/StringExtras.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <unistd.h>
#include <random>

using namespace mlir;
using namespace xtile;
using tensor::RefTensor;

namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<Tensor IR file>"),
                                      cl::init("-"));
static cl::opt<std::string>
    backendName("backend",
                cl::desc("emu (CPU emulation of the CUDA C), emu-ptx (CPU "
                         "emulation of the PTX path's code), cuda (GPU), ref "
                         "(reference only); default: cuda when a GPU is "
                         "present, else emu"),
                cl::init(""));
static cl::list<std::string>
    inputFiles("inputs", cl::desc("Input .npy files, in argument order"),
               cl::CommaSeparated);
static cl::list<std::string>
    outputFiles("outputs", cl::desc("Write the outputs to these .npy files"),
                cl::CommaSeparated);
static cl::opt<unsigned> seed("seed", cl::desc("Seed of the random inputs"),
                              cl::init(1));
static cl::opt<std::string>
    entry("entry", cl::desc("Run only this function (default: every one)"),
          cl::init(""));
static cl::opt<std::string> target("target",
                                   cl::desc("GPU to compile for (sm_90, sm_90a, sm_80)"),
                                   cl::init("sm_90"));
static cl::opt<std::string>
    forceSchedule("force-schedule",
                  cl::desc("Schedule (attribute syntax) for every kernel of "
                           "its kind (see --lower-to-tile)"),
                  cl::init(""));
static cl::opt<std::string>
    scheduleSpec("schedule-spec",
                 cl::desc("Schedules of the kernels it names, from a spec "
                          "file (see --xtile-apply-schedule-spec)"),
                 cl::init(""));
static cl::opt<std::string> testMutate(
    "xtile-test-mutate", cl::Hidden,
    cl::desc("For tests only: break the tensor-core lowering on purpose "
             "(fragment, swizzle, panel, overlap, round), to show the "
             "comparison or the emulation catches it"),
    cl::init(""));
static cl::opt<bool>
    allowTf32("allow-tf32",
              cl::desc("Let f32 matmuls run on tensor cores with TF32 "
                       "operands; f32 results that did are compared at the "
                       "tolerance of 16-bit types (tf32 has f16's mantissa)"),
              cl::init(false));
static cl::opt<bool> fastMath("fast-math",
                              cl::desc("Allow value-changing rewrites"),
                              cl::init(false));
static cl::opt<std::string> compareWith(
    "compare-with",
    cl::desc("Also run every function on this backend (emu, emu-ptx or "
             "cuda) and require its outputs to be bit-identical to the "
             "--backend's: a differential run of the CUDA C and PTX paths"),
    cl::init(""));
static cl::opt<int> repeats("repeat",
                            cl::desc("cuda: timed runs after a warm-up"),
                            cl::init(10));
static cl::opt<bool> sanitize(
    "sanitize",
    cl::desc("emu: compile the emitted CUDA C with AddressSanitizer and "
             "UndefinedBehaviorSanitizer: an access outside a buffer or a "
             "shared-memory allocation, or undefined behavior, stops the "
             "run with a report (needs the host compiler's libasan)"),
    cl::init(false));
static cl::list<std::string>
    dimSizes("dims",
             cl::desc("Sizes of the dynamic dimensions, SYMBOL=N "
                      "(comma-separated): the module is specialized to them "
                      "(--xtensor-specialize-dims) before it runs"),
             cl::CommaSeparated);
static cl::list<std::string> atSizes(
    "at",
    cl::desc("Sizes of the dynamic dimensions to run at, SYMBOL=N "
             "(comma-separated); repeatable: the module is compiled once "
             "over its dynamic sizes and run at each"));
static cl::opt<std::string>
    keepDir("keep", cl::desc("Keep the emitted CUDA C and library in this "
                             "directory"),
            cl::init(""));

namespace {

/// Normwise tolerance of an output of element type `t`; `tf32`: the
/// module's f32 matmuls ran on TF32 operands (10 mantissa bits, as f16).
double toleranceOf(Type t, bool tf32 = false) {
  if (t.isF16() || t.isBF16() || (tf32 && t.isF32()))
    return 1e-2;
  if (t.isF32())
    return 1e-5;
  if (t.isF64())
    return 1e-12;
  // fp8: half an ulp (2^-4 relative for e4m3, 2^-3 for e5m2), which a
  // result that rounds the other way from the reference's stays within
  // normwise; a pure cast is exact.
  if (isa<Float8E4M3FNType>(t))
    return 0x1p-4;
  if (isa<Float8E5M2Type>(t))
    return 0x1p-3;
  return 0; // integers: exact
}

RefTensor randomInput(RankedTensorType type, std::mt19937 &rng) {
  RefTensor t;
  t.type = type;
  Type e = type.getElementType();
  int64_t n = type.getNumElements();
  if (isa<FloatType>(e)) {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    for (int64_t i = 0; i < n; ++i)
      t.real.push_back(tensor::roundToType(e, d(rng)));
  } else {
    // Small positive integers: valid divisors and gather indices.
    std::uniform_int_distribution<int> d(e.isInteger(1) ? 0 : 1,
                                         e.isInteger(1) ? 1 : 4);
    for (int64_t i = 0; i < n; ++i)
      t.integer.push_back(d(rng));
  }
  return t;
}

/// `t` as the bytes a kernel reads.
std::vector<char> toDevice(const RefTensor &t) {
  Type e = t.type.getElementType();
  int64_t n = t.type.getNumElements(), w = getElementBytes(e);
  std::vector<char> bytes(n * w);
  for (int64_t i = 0; i < n; ++i) {
    char *p = bytes.data() + i * w;
    if (t.isInteger()) {
      int64_t v = t.integer[i];
      std::memcpy(p, &v, w); // little endian: the low bytes
    } else if (e.isF64()) {
      std::memcpy(p, &t.real[i], 8);
    } else {
      APFloat f(t.real[i]);
      bool lost;
      f.convert(cast<FloatType>(e).getFloatSemantics(),
                APFloat::rmNearestTiesToEven, &lost);
      uint64_t bits = f.bitcastToAPInt().getZExtValue();
      std::memcpy(p, &bits, w);
    }
  }
  return bytes;
}

RefTensor fromDevice(RankedTensorType type, const std::vector<char> &bytes) {
  RefTensor t;
  t.type = type;
  Type e = type.getElementType();
  int64_t n = type.getNumElements(), w = getElementBytes(e);
  for (int64_t i = 0; i < n; ++i) {
    const char *p = bytes.data() + i * w;
    if (t.isInteger()) {
      int64_t v = 0;
      std::memcpy(&v, p, w);
      t.integer.push_back(tensor::wrapToType(e, v));
    } else if (e.isF64()) {
      double d;
      std::memcpy(&d, p, 8);
      t.real.push_back(d);
    } else {
      uint64_t bits = 0;
      std::memcpy(&bits, p, w);
      APFloat f(cast<FloatType>(e).getFloatSemantics(),
                APInt(e.getIntOrFloatBitWidth(), bits));
      bool lost;
      f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      t.real.push_back(f.convertToDouble());
    }
  }
  return t;
}

/// Normwise relative error ||y - r|| / ||r|| (absolute when r is 0), and
/// how many elements are not finite in y where r is.
std::pair<double, int64_t> compare(const RefTensor &y, const RefTensor &r) {
  double num = 0, den = 0;
  int64_t bad = 0;
  for (int64_t i = 0; i < r.size(); ++i) {
    double a = y.at(i), b = r.at(i);
    if (std::isfinite(b) && !std::isfinite(a)) {
      ++bad;
      continue;
    }
    if (!std::isfinite(b))
      continue;
    num += (a - b) * (a - b);
    den += b * b;
  }
  return {den > 0 ? std::sqrt(num / den) : std::sqrt(num), bad};
}

/// Where xtile_emulation.h is: $XTILE_RUNTIME_DIR, else next to an
/// installed xtile-run (<prefix>/share/xtile/runtime), else the source
/// tree this one was built from.
const char *argv0 = "xtile-run"; // set by main

std::string findRuntimeDir() {
  if (const char *env = std::getenv("XTILE_RUNTIME_DIR"))
    return env;
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&findRuntimeDir));
  SmallString<256> installed(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(installed, "share", "xtile", "runtime");
  SmallString<256> header(installed);
  llvm::sys::path::append(header, "xtile_emulation.h");
  if (llvm::sys::fs::exists(header))
    return std::string(installed);
  return XTILE_RUNTIME_DIR;
}

/// The host C++ compiler of the emulation backend.
FailureOr<std::string> hostCompiler() {
  std::string cxx = std::getenv("CXX") ? std::getenv("CXX") : "c++";
  auto program = llvm::sys::findProgramByName(cxx);
  if (!program) {
    llvm::errs() << "xtile-run: no host C++ compiler '" << cxx
                 << "' for the emulation backend (set CXX)\n";
    return failure();
  }
  return *program;
}

/// The sanitizer runtime must be the first library of the process, before
/// the emitted code is loaded: without it, xtile-run runs itself again with
/// the host compiler's libasan preloaded. Returns only on failure, or when
/// the runtime is already there.
LogicalResult loadSanitizerRuntime(char **argv) {
  if (dlsym(RTLD_DEFAULT, "__asan_init"))
    return success();
  auto fail = [](const Twine &why) {
    llvm::errs() << "xtile-run: --sanitize: " << why << "\n";
    return failure();
  };
  if (std::getenv("XTILE_RUN_SANITIZER_PRELOADED"))
    return fail("the AddressSanitizer runtime was preloaded but is not "
                "loaded");
  FailureOr<std::string> cxx = hostCompiler();
  if (failed(cxx))
    return failure();
  SmallString<128> out;
  if (llvm::sys::fs::createTemporaryFile("xtile-run-asan", "txt", out))
    return fail("cannot create a temporary file");
  llvm::scope_exit removeOut([&] { llvm::sys::fs::remove(out); });
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(out),
                                          std::nullopt};
  StringRef args[] = {*cxx, "-print-file-name=libasan.so"};
  if (llvm::sys::ExecuteAndWait(*cxx, args, std::nullopt, redirects) != 0)
    return fail("'" + *cxx + " -print-file-name=libasan.so' failed");
  auto text = llvm::MemoryBuffer::getFile(out);
  std::string runtime = text ? (*text)->getBuffer().trim().str() : "";
  if (!llvm::sys::path::is_absolute(runtime) ||
      !llvm::sys::fs::exists(runtime))
    return fail("the host compiler '" + *cxx +
                "' has no AddressSanitizer runtime (libasan.so; on Debian "
                "it comes with g++)");
  std::string preload = runtime;
  if (const char *old = std::getenv("LD_PRELOAD"))
    preload += std::string(" ") + old;
  setenv("LD_PRELOAD", preload.c_str(), 1);
  // Leaks at exit are the host's (registries, the MLIR context), not the
  // kernels'.
  if (!std::getenv("ASAN_OPTIONS"))
    setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
  setenv("XTILE_RUN_SANITIZER_PRELOADED", "1", 1);
  std::string self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&loadSanitizerRuntime));
  execv(self.c_str(), argv);
  return fail("cannot run " + self + " again: " + std::strerror(errno));
}

/// The directory of what a run builds: --keep's, else a new temporary one.
LogicalResult makeWorkDir(SmallString<128> &dir) {
  if (!keepDir.empty()) {
    dir = keepDir;
    llvm::sys::fs::create_directories(dir);
  } else if (llvm::sys::fs::createUniqueDirectory("xtile-run", dir)) {
    llvm::errs() << "xtile-run: cannot create a temporary directory\n";
    return failure();
  }
  return success();
}

/// Writes `bytes` to `path`.
LogicalResult writeFile(StringRef path, StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "xtile-run: cannot write " << path << ": " << ec.message()
                 << "\n";
    return failure();
  }
  os << bytes;
  return success();
}

/// The emulation header to include under `flags` (the host compiler's
/// options but its inputs and output): a copy in the kernel cache
/// ($XTILE_CACHE_DIR, else <tmp>/xtile-cache) beside its precompiled form
/// for these flags, which the compiler then reads instead of parsing the
/// header again (GCC and Clang find `<header>.gch` next to an -include'd
/// header). The copy is keyed by the compiler, the flags and the header's
/// text, and built once (0.4 s of each emulation compile is the header).
/// Without a cache or where the precompile fails, the header itself.
/// XTILE_EMULATION_PCH=0 turns this off.
std::string emulationHeader(StringRef compiler, ArrayRef<std::string> flags) {
  std::string header = findRuntimeDir() + "/xtile_emulation.h";
  if (const char *env = std::getenv("XTILE_EMULATION_PCH"))
    if (StringRef(env) == "0")
      return header;
  auto text = llvm::MemoryBuffer::getFile(header);
  llvm::sys::fs::file_status compilerStatus;
  if (!text || llvm::sys::fs::status(compiler, compilerStatus))
    return header;
  std::string key = (compiler + "\0" +
                     Twine(compilerStatus.getLastModificationTime()
                               .time_since_epoch()
                               .count()) +
                     "\0" + llvm::join(flags, "\0") + "\0" +
                     (*text)->getBuffer())
                        .str();
  SmallString<256> dir;
  if (const char *env = std::getenv("XTILE_CACHE_DIR")) {
    dir = env;
  } else {
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, dir);
    llvm::sys::path::append(dir, "xtile-cache");
  }
  llvm::sys::path::append(dir, "pch-" + llvm::utohexstr(llvm::xxh3_64bits(key)));
  SmallString<256> copy(dir), pch(dir);
  llvm::sys::path::append(copy, "xtile_emulation.h");
  llvm::sys::path::append(pch, "xtile_emulation.h.gch");
  if (llvm::sys::fs::exists(pch) && llvm::sys::fs::exists(copy))
    return std::string(copy);
  // Each file is written under a name of this process's, then renamed:
  // concurrent runs (lit's workers) never read half a file.
  std::string suffix = "." + std::to_string(::getpid()) + ".part";
  if (llvm::sys::fs::create_directories(dir) ||
      failed(writeFile(copy.str().str() + suffix, (*text)->getBuffer())) ||
      llvm::sys::fs::rename(copy + suffix, copy))
    return header;
  SmallVector<std::string> args = {compiler.str()};
  args.append(flags.begin(), flags.end());
  args.append({"-x", "c++-header", std::string(copy), "-o",
               pch.str().str() + suffix});
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  if (llvm::sys::ExecuteAndWait(compiler, argRefs) != 0 ||
      llvm::sys::fs::rename(pch + suffix, pch)) {
    llvm::sys::fs::remove(pch + suffix);
    return header;
  }
  return std::string(copy);
}

/// Builds a shared library `so` of `inputs` with the host compiler, the
/// emulation header included first (and `extra` flags); `what` names the
/// step for its error.
LogicalResult buildForCpu(ArrayRef<std::string> inputs, StringRef so,
                          ArrayRef<std::string> extra, StringRef what) {
  FailureOr<std::string> program = hostCompiler();
  if (failed(program))
    return failure();
  // No contraction: a multiply and an add fuse only where the kernel says
  // fmaf, as on the GPU (nvcc -fmad=false; NVPTX's mul.rn and add.rn).
  SmallVector<std::string> flags = {"-std=c++17", "-O1", "-ffp-contract=off",
                                    "-fPIC", "-w", "-Wno-psabi", "-pthread"};
  // Line tables for the sanitizers' reports (-g1): no variable locations,
  // whose tracking gives up on large kernels and compiles them twice.
  if (sanitize)
    flags.append({"-g1", "-fno-omit-frame-pointer",
                  "-fsanitize=address,undefined",
                  "-fno-sanitize-recover=undefined"});
  if (const char *env = std::getenv("XTILE_EMULATION_CXXFLAGS")) {
    SmallVector<StringRef> parts;
    StringRef(env).split(parts, ' ', -1, false);
    for (StringRef p : parts)
      flags.push_back(p.str());
  }
  // The macros (-D) among `extra` decide what the header declares.
  for (const std::string &e : extra)
    if (StringRef(e).starts_with("-D"))
      flags.push_back(e);
  SmallVector<std::string> args = {*program, "-shared"};
  args.append(flags.begin(), flags.end());
  args.append({"-include", emulationHeader(*program, flags)});
  for (const std::string &e : extra)
    if (!StringRef(e).starts_with("-D"))
      args.push_back(e);
  args.append(inputs.begin(), inputs.end());
  args.append({"-o", so.str()});
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*program, argRefs, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc != 0) {
    llvm::errs() << "xtile-run: " << what << " failed ("
                 << llvm::join(inputs, " ") << ")"
                 << (message.empty() ? "" : ": ") << message << "\n";
    return failure();
  }
  return success();
}

/// Links the host object of the PTX path (translateToHostPTX) with
/// runtime/xtile_ptx_host.cpp into an emulated CUDA driver; returns the
/// library's path.
FailureOr<std::string> buildPtxDriver(StringRef object, StringRef dir) {
  std::string o = (dir + "/kernels-ptx.o").str(),
              so = (dir + "/libcuda-ptx.so").str();
  if (failed(writeFile(o, object)) ||
      failed(buildForCpu({findRuntimeDir() + "/xtile_ptx_host.cpp", o}, so,
                         {"-DXTILE_EMULATION_DRIVER", "-DXTILE_EMULATION_PTX"},
                         "linking the PTX path's code into an emulated "
                         "driver")))
    return failure();
  return so;
}

/// Compiles CUDA C for the CPU; returns the library's path.
FailureOr<std::string> compileForCpu(StringRef source, StringRef dir) {
  std::string cu = (dir + "/kernels.cu").str(), so = (dir + "/kernels.so").str();
  if (failed(writeFile(cu, source)) ||
      failed(buildForCpu({cu}, so, {"-x", "c++"},
                         "compiling the emitted CUDA C for the CPU")))
    return failure();
  return so;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  argv0 = argv[0];
  cl::ParseCommandLineOptions(
      argc, argv,
      "xtile-run: compile a Tensor IR module, run it on a GPU or on the CPU "
      "through CUDA emulation, and check it against a float64 reference\n");
  // Before anything reads the input: the sanitizers may run xtile-run
  // again.
  if (sanitize) {
    if (!backendName.empty() && backendName != "emu") {
      llvm::errs() << "xtile-run: --sanitize needs --backend=emu (the "
                      "sanitizers instrument the emulated kernels)\n";
      return 1;
    }
    if (failed(loadSanitizerRuntime(argv)))
      return 1;
  }
  DialectRegistry registry;
  registerAllDialects(registry);
  // --xtile-test-mutate lowers through a test-only pass.
  xtile::test::registerTestPasses();
  registerToPTXDependencies(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Errors name the location; the op's text would bury them.
  context.printOpOnDiagnostic(false);

  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << "xtile-run: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sources, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sources, &context);
  if (!module)
    return 1;
  if (!dimSizes.empty()) {
    PassManager pm(&context);
    tensor::XTensorSpecializeDimsOptions bind;
    bind.sizes.assign(dimSizes.begin(), dimSizes.end());
    pm.addPass(tensor::createXTensorSpecializeDims(bind));
    if (failed(pm.run(*module)))
      return 1;
  }

  // The backend.
  std::string backend = backendName;
  CudaDriver driver;
  if (backend.empty())
    backend = !sanitize && driver.available() ? "cuda" : "emu";
  if (backend != "emu" && backend != "emu-ptx" && backend != "cuda" &&
      backend != "ref") {
    llvm::errs() << "xtile-run: unknown backend '" << backend
                 << "' (emu, emu-ptx, cuda or ref)\n";
    return 1;
  }
  if (sanitize && backend == "emu-ptx") {
    llvm::errs() << "xtile-run: --sanitize needs --backend=emu (the "
                    "sanitizers instrument the emulated CUDA C)\n";
    return 1;
  }
  if (backend == "cuda" && !driver.available()) {
    llvm::errs() << "xtile-run: backend cuda: " << driver.whyUnavailable()
                 << "; --backend=emu runs the kernels on the CPU\n";
    return 1;
  }

  SmallVector<func::FuncOp> funcs;
  for (auto fn : module->getOps<func::FuncOp>())
    if (!fn.isExternal() && (entry.empty() || fn.getSymName() == entry))
      funcs.push_back(fn);
  if (funcs.empty()) {
    llvm::errs() << "xtile-run: no function"
                 << (entry.empty() ? "" : " named '" + entry + "'")
                 << " to run\n";
    return 1;
  }
  if (!inputFiles.empty() && (funcs.size() != 1 || atSizes.size() > 1)) {
    llvm::errs() << "xtile-run: --inputs needs one function (--entry) and "
                    "at most one --at\n";
    return 1;
  }
  if (!atSizes.empty() && !dimSizes.empty()) {
    llvm::errs() << "xtile-run: --dims specializes the module before it is "
                    "compiled, --at runs one compiled module at several "
                    "sizes: give one of them\n";
    return 1;
  }

  // What runs: each function, or with --at each function at each binding
  // of the sizes (its reference computed on the function specialized to
  // them; the compiled module stays dynamic).
  struct Run {
    func::FuncOp fn;    // in the module that is compiled
    func::FuncOp bound; // its static form: `fn`, or specialized to `at`
    std::string at;     // "T=7", or empty
    llvm::StringMap<int64_t> sizes;
    std::string label() {
      return "@" + fn.getSymName().str() + (at.empty() ? "" : "[" + at + "]");
    }
  };
  std::vector<Run> runs;
  std::vector<OwningOpRef<ModuleOp>> specialized;
  if (atSizes.empty()) {
    for (func::FuncOp fn : funcs)
      runs.push_back({fn, fn, "", {}});
  } else {
    for (const std::string &at : atSizes) {
      Run run;
      SmallVector<StringRef> bindings;
      StringRef(at).split(bindings, ',', -1, /*KeepEmpty=*/false);
      SmallVector<std::string> bind;
      for (StringRef binding : bindings) {
        auto [name, text] = binding.split('=');
        int64_t size;
        if (name.empty() || text.getAsInteger(10, size)) {
          llvm::errs() << "xtile-run: --at '" << at
                       << "' must be SYMBOL=N[,SYMBOL=N...]\n";
          return 1;
        }
        run.sizes[name] = size;
        bind.push_back(binding.str());
      }
      specialized.push_back(cast<ModuleOp>(module->clone()));
      PassManager pm(&context);
      tensor::XTensorSpecializeDimsOptions options;
      options.sizes.assign(bind.begin(), bind.end());
      pm.addPass(tensor::createXTensorSpecializeDims(options));
      if (failed(pm.run(*specialized.back())))
        return 1;
      for (func::FuncOp fn : funcs) {
        Run r = run;
        r.fn = fn;
        r.bound = specialized.back()->lookupSymbol<func::FuncOp>(
            fn.getSymName());
        r.at = at;
        runs.push_back(std::move(r));
      }
    }
  }

  // Inputs and the reference, before any lowering.
  std::mt19937 rng(seed);
  std::vector<std::vector<RefTensor>> inputs, expected;
  std::vector<std::vector<RefTensor>> roundedRefs;
  for (Run &run : runs) {
    func::FuncOp fn = run.bound;
    std::vector<RefTensor> in;
    for (auto [i, t] : llvm::enumerate(fn.getArgumentTypes())) {
      auto type = dyn_cast<RankedTensorType>(t);
      if (type && !type.hasStaticShape()) {
        fn.emitError("argument #")
            << i << " " << type << " has dynamic sizes: give them with --at "
            << tensor::getSymbols(type).front().getValue()
            << "=N (or specialize the module to them with --dims)";
        return 1;
      }
      if (!type) {
        fn.emitError("argument #") << i << " is not a ranked tensor";
        return 1;
      }
      if (!inputFiles.empty()) {
        if (i >= inputFiles.size()) {
          llvm::errs() << "xtile-run: " << fn.getSymName() << " takes "
                       << fn.getNumArguments() << " inputs, --inputs gives "
                       << inputFiles.size() << "\n";
          return 1;
        }
        FailureOr<RefTensor> loaded = npy::read(inputFiles[i], type);
        if (failed(loaded))
          return 1;
        in.push_back(*loaded);
      } else {
        in.push_back(randomInput(type, rng));
      }
    }
    auto start = std::chrono::steady_clock::now();
    FailureOr<std::vector<RefTensor>> ref = tensor::runReference(fn, in);
    if (failed(ref))
      return 1;
    // The same rounded op by op to the element types: how much a program
    // amplifies rounding, which the comparison allows for (not needed when
    // only the reference runs).
    if (backend != "ref") {
      FailureOr<std::vector<RefTensor>> rounded =
          tensor::runReference(fn, in, /*roundOps=*/true);
      if (failed(rounded))
        return 1;
      roundedRefs.push_back(std::move(*rounded));
    }
    double secs = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - start)
                      .count();
    llvm::outs() << run.label() << ": reference (float64) in "
                 << llvm::format("%.2f", secs) << " s\n";
    inputs.push_back(std::move(in));
    expected.push_back(std::move(*ref));
  }

  std::vector<std::vector<RefTensor>> results;
  bool tf32 = false; // some kernel rounds matmul operands to tf32
  // Runs the module's functions on `backend` (not ref), their outputs in
  // `results`.
  auto execute = [&](const std::string &backend,
                     std::vector<std::vector<RefTensor>> &results)
      -> LogicalResult {
    // Lower the whole module, once.
    OwningOpRef<ModuleOp> lowered = cast<ModuleOp>(module->clone());
    // Only the functions that run are compiled.
    for (auto fn : llvm::make_early_inc_range(lowered->getOps<func::FuncOp>()))
      if (!fn.isExternal() && !entry.empty() && fn.getSymName() != entry)
        fn.erase();
    PassManager pm(&context);
    LowerToKernelOptions options;
    options.target = target;
    options.forceSchedule = forceSchedule;
    options.scheduleSpec = scheduleSpec;
    options.fastMath = fastMath;
    options.allowTf32 = allowTf32;
    options.testMutate = testMutate;
    buildLowerToKernelPipeline(pm, options);
    auto start = std::chrono::steady_clock::now();
    if (failed(pm.run(*lowered)))
      return failure();
    lowered->walk([&](kernel::RoundTf32Op) { tf32 = true; });
    if (tf32)
      llvm::outs() << "f32 matmuls run on tf32 tensor cores: f32 outputs "
                      "are checked at the tolerance of 16-bit types\n";
    std::string code;
    llvm::raw_string_ostream codeStream(code);
    // emu-ptx: the host object of the PTX path, and the PTX it stands for.
    SmallString<0> hostObject;
    if (backend == "emu") {
      if (failed(translateToCUDA(*lowered, codeStream)))
        return failure();
    } else if (backend == "emu-ptx") {
      llvm::raw_svector_ostream objectStream(hostObject);
      if (failed(translateToHostPTX(*lowered, objectStream, target,
                                    HostPTXFormat::Object, &code)))
        return failure();
    } else if (!lowered->getOps<kernel::FuncOp>().empty() &&
               failed(translateToPTX(*lowered, codeStream, target))) {
      // (Programs of copies only have no PTX.)
      return failure();
    }
    double lowerSecs = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
    llvm::outs() << "lowered to "
                 << (backend == "emu"       ? "CUDA C"
                     : backend == "emu-ptx" ? "PTX and its LLVM IR for the CPU"
                                            : "PTX")
                 << " in " << llvm::format("%.2f", lowerSecs) << " s\n";

    // Each run's program and the values of its sizes, in the program's
    // order.
    std::vector<kernel::ProgramOp> programs;
    std::vector<std::vector<int64_t>> programSizes;
    for (Run &run : runs) {
      auto program =
          lowered->lookupSymbol<kernel::ProgramOp>(run.fn.getSymName());
      if (!program) {
        run.fn.emitError("has no Kernel IR program");
        return failure();
      }
      std::vector<int64_t> values;
      if (std::optional<ArrayAttr> names = program.getSizeNames())
        for (StringRef name : names->getAsValueRange<StringAttr>())
          values.push_back(evaluateSize(name, run.sizes).value_or(0));
      programs.push_back(program);
      programSizes.push_back(std::move(values));
    }
    // The runtime runs launch plans, as the Python loader does.
    std::vector<plan::Program> plans;
    if (backend != "emu") {
      std::string json;
      llvm::raw_string_ostream jsonStream(json);
      if (failed(translateToLaunchPlan(*lowered, jsonStream)))
        return failure();
      llvm::Expected<std::vector<plan::Program>> parsed = plan::parse(json);
      if (!parsed) {
        llvm::errs() << "xtile-run: " << llvm::toString(parsed.takeError())
                     << "\n";
        return failure();
      }
      for (kernel::ProgramOp program : programs) {
        auto it = llvm::find_if(*parsed, [&](const plan::Program &p) {
          return p.name == program.getSymName();
        });
        if (it == parsed->end()) {
          program.emitError("has no launch plan");
          return failure();
        }
        plans.push_back(*it);
      }
    }

    if (backend == "emu") {
      SmallString<128> dir;
      if (failed(makeWorkDir(dir)))
        return failure();
      start = std::chrono::steady_clock::now();
      FailureOr<std::string> library = compileForCpu(code, dir);
      if (failed(library))
        return failure();
      llvm::outs() << "compiled for the CPU emulation in "
                   << llvm::format("%.2f", std::chrono::duration<double>(
                                               std::chrono::steady_clock::now() -
                                               start)
                                               .count())
                   << " s\n";
      void *handle = dlopen(library->c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        llvm::errs() << "xtile-run: " << dlerror() << "\n";
        return failure();
      }
      for (auto [k, run] : llvm::enumerate(runs)) {
        const std::vector<RefTensor> &in = inputs[k];
        using Packed = int (*)(void **, const int64_t *, void *);
        auto entryPoint = reinterpret_cast<Packed>(dlsym(
            handle, (run.fn.getSymName() + "_packed_sizes").str().c_str()));
        if (!entryPoint) {
          llvm::errs() << "xtile-run: no entry point for @"
                       << run.fn.getSymName() << " in the emitted code\n";
          return failure();
        }
        std::vector<std::vector<char>> buffers;
        for (const RefTensor &t : in)
          buffers.push_back(toDevice(t));
        for (Type t : run.bound.getResultTypes())
          buffers.emplace_back(getNumBytes(t));
        std::vector<void *> pointers;
        for (auto &b : buffers)
          pointers.push_back(b.data());
        // A result returned in place of an argument: one buffer for both.
        SmallVector<int64_t> inPlaceOf = getInPlaceArguments(run.bound);
        for (auto [i, a] : llvm::enumerate(inPlaceOf))
          if (a >= 0)
            pointers[in.size() + i] = pointers[a];
        start = std::chrono::steady_clock::now();
        int rc = entryPoint(pointers.data(), programSizes[k].data(), nullptr);
        double secs = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
        if (rc != 0) {
          llvm::errs() << "xtile-run: " << run.label()
                       << " failed in the emulation (error " << rc << ")\n";
          return failure();
        }
        llvm::outs() << run.label() << ": emulated in "
                     << llvm::format("%.2f", secs) << " s\n";
        std::vector<RefTensor> outs;
        for (auto [i, t] : llvm::enumerate(run.bound.getResultTypes()))
          outs.push_back(fromDevice(
              cast<RankedTensorType>(t),
              buffers[inPlaceOf[i] >= 0 ? inPlaceOf[i] : in.size() + i]));
        results.push_back(std::move(outs));
      }
      if (keepDir.empty())
        llvm::sys::fs::remove_directories(dir);
    } else {
      // emu-ptx: the emulated driver whose GPU runs the PTX path's code.
      std::optional<CudaDriver> emulated;
      SmallString<128> dir;
      llvm::scope_exit removeDir([&] {
        if (!dir.empty() && keepDir.empty())
          llvm::sys::fs::remove_directories(dir);
      });
      if (backend == "emu-ptx") {
        if (failed(makeWorkDir(dir)))
          return failure();
        start = std::chrono::steady_clock::now();
        FailureOr<std::string> library = buildPtxDriver(hostObject, dir);
        if (failed(library))
          return failure();
        llvm::outs() << "compiled the PTX path's code for the CPU emulation "
                        "in "
                     << llvm::format("%.2f",
                                     std::chrono::duration<double>(
                                         std::chrono::steady_clock::now() -
                                         start)
                                         .count())
                     << " s\n";
        emulated.emplace(*library);
        if (!emulated->available()) {
          llvm::errs() << "xtile-run: backend emu-ptx: "
                       << emulated->whyUnavailable() << "\n";
          return failure();
        }
      }
      CudaDriver &runner = emulated ? *emulated : driver;
      for (auto [k, run] : llvm::enumerate(runs)) {
        const std::vector<RefTensor> &in = inputs[k];
        std::vector<std::vector<char>> host;
        for (const RefTensor &t : in)
          host.push_back(toDevice(t));
        for (Type t : run.bound.getResultTypes())
          host.emplace_back(getNumBytes(t));
        std::vector<CudaDriver::KernelTime> times;
        if (llvm::Error e =
                runner.runProgram(code, plans[k], host, programSizes[k],
                                  emulated ? 0 : repeats, times)) {
          programs[k].emitError(llvm::toString(std::move(e)));
          return failure();
        }
        for (const auto &kt : emulated ? decltype(times){} : times)
          llvm::outs() << run.label() << ": kernel " << kt.name << ": "
                       << llvm::format("%.2f", kt.micros) << " us (median of "
                       << repeats << ")\n";
        std::vector<RefTensor> outs;
        for (auto [i, t] : llvm::enumerate(run.bound.getResultTypes()))
          outs.push_back(fromDevice(cast<RankedTensorType>(t),
                                    host[in.size() + i]));
        results.push_back(std::move(outs));
      }
    }
    return success();
  };
  if (backend == "ref") {
    results = expected;
  } else if (failed(execute(backend, results))) {
    return 1;
  }

  // A differential run: the same programs on a second backend, whose
  // outputs must be the first one's bit for bit.
  bool ok = true;
  if (!compareWith.empty()) {
    if (compareWith != "emu" && compareWith != "emu-ptx" &&
        compareWith != "cuda") {
      llvm::errs() << "xtile-run: --compare-with: unknown backend '"
                   << compareWith << "' (emu, emu-ptx or cuda)\n";
      return 1;
    }
    if (backend == "ref" || compareWith == backend) {
      llvm::errs() << "xtile-run: --compare-with needs two different "
                      "backends other than ref\n";
      return 1;
    }
    std::vector<std::vector<RefTensor>> others;
    if (failed(execute(compareWith, others)))
      return 1;
    for (auto [k, run] : llvm::enumerate(runs)) {
      for (auto [i, mine, theirs] : llvm::enumerate(results[k], others[k])) {
        int64_t differ = 0;
        double largest = 0;
        for (int64_t e = 0, n = mine.size(); e < n; ++e) {
          bool same = mine.isInteger()
                          ? mine.integer[e] == theirs.integer[e]
                          : std::memcmp(&mine.real[e], &theirs.real[e],
                                        sizeof(double)) == 0;
          if (same)
            continue;
          ++differ;
          double d = std::fabs(mine.at(e) - theirs.at(e));
          largest = std::isnan(d) ? d : std::max(largest, d);
        }
        llvm::outs() << run.label() << " output #" << i << " " << backend
                     << " against " << compareWith << ": ";
        if (differ == 0)
          llvm::outs() << "bit-identical\n";
        else
          llvm::outs() << differ << " of " << mine.size()
                       << " elements differ (largest difference "
                       << llvm::format("%.3g", largest) << "): DIFFERENT\n";
        ok &= differ == 0;
      }
    }
  }

  // Compare and report.
  size_t written = 0;
  for (auto [k, run] : llvm::enumerate(runs)) {
    std::string label = run.label();
    for (auto [i, out, ref] : llvm::enumerate(results[k], expected[k])) {
      Type e = ref.type.getElementType();
      if (written < outputFiles.size() &&
          failed(npy::write(outputFiles[written++], out)))
        return 1;
      if (backend == "ref") {
        llvm::outs() << label << " output #" << i << " "
                     << ref.type << "\n";
        continue;
      }
      const RefTensor &roundedRef = roundedRefs[k][i];
      double rounding = compare(roundedRef, ref).first;
      auto [err, bad] = compare(out, ref);
      // A program that amplifies rounding gets up to 10x its dtype's
      // tolerance: 4x the error of evaluating it op by op in its types.
      double tol = std::max(toleranceOf(e, tf32),
                            std::min(4 * rounding, 10 * toleranceOf(e, tf32)));
      bool pass = bad == 0 && err <= tol;
      llvm::outs() << label << " output #" << i << " "
                   << ref.type << ": normwise relative error "
                   << llvm::format("%.3g", err) << " (tolerance "
                   << llvm::format("%.2g", tol) << ")"
                   << (bad ? ", " + std::to_string(bad) + " not finite" : "");
      // A program that its own element types cannot evaluate (overflow, or
      // rounding amplified past 10x the tolerance) passes when it is at
      // least as close to the float64 result as the op-by-op evaluation in
      // those types, or close to that evaluation; and says so.
      if (!pass && rounding > 10 * toleranceOf(e, tf32)) {
        auto [err2, bad2] = compare(out, roundedRef);
        pass = (bad == 0 && err <= rounding) ||
               (bad2 == 0 && err2 <= 10 * toleranceOf(e, tf32));
        llvm::outs() << "; ill-conditioned in " << e
                     << " (op-by-op evaluation in " << e << " is off by "
                     << llvm::format("%.3g", rounding)
                     << "): against that evaluation "
                     << llvm::format("%.3g", err2);
      }
      ok &= pass;
      llvm::outs() << (pass ? ": ok" : ": MISMATCH") << "\n";
    }
  }
  return ok ? 0 : 1;
}
