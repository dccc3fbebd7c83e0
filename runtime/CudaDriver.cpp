//===- CudaDriver.cpp - the CUDA driver API, opened at run time -----------===//

#include "runtime/CudaDriver.h"

#include "xtile/Support/Storage.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>

using namespace mlir;
using namespace xtile;

namespace {
// The few driver types and entry points used, as the CUDA driver API
// declares them (cuda.h is not needed to build).
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUdeviceptr = unsigned long long;
using CUevent = void *;
using CUstream = void *;
constexpr int kMaxDynamicSharedAttribute = 8; // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
// A CUtensorMap: 128 opaque bytes, 64-byte aligned.
struct alignas(64) CUtensorMap {
  uint64_t opaque[16];
};
constexpr size_t kTensorMapBytes = sizeof(CUtensorMap);
// CU_TENSOR_MAP_L2_PROMOTION_L2_128B
constexpr int kTensorMapL2Promotion128B = 2;
} // namespace

struct CudaDriver::Api {
  CUresult (*init)(unsigned);
  CUresult (*deviceGetCount)(int *);
  CUresult (*deviceGet)(CUdevice *, int);
  CUresult (*primaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*primaryCtxRelease)(CUdevice);
  CUresult (*ctxSetCurrent)(CUcontext);
  CUresult (*ctxSynchronize)();
  CUresult (*moduleLoadData)(CUmodule *, const void *);
  CUresult (*moduleUnload)(CUmodule);
  CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*funcSetAttribute)(CUfunction, int, int);
  CUresult (*memAlloc)(CUdeviceptr *, size_t);
  CUresult (*memFree)(CUdeviceptr);
  CUresult (*memcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*memcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*memcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **);
  CUresult (*eventCreate)(CUevent *, unsigned);
  CUresult (*eventDestroy)(CUevent);
  CUresult (*eventRecord)(CUevent, CUstream);
  CUresult (*eventSynchronize)(CUevent);
  CUresult (*eventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*getErrorString)(CUresult, const char **);
  // Optional (CUDA 12 drivers have it): only a program with an
  // xkernel.tensor_map needs it. The enum arguments (data type,
  // interleave, swizzle, L2 promotion, out-of-bounds fill) are ints.
  CUresult (*tensorMapEncodeTiled)(CUtensorMap *, int, uint32_t, void *,
                                   const uint64_t *, const uint64_t *,
                                   const uint32_t *, const uint32_t *, int,
                                   int, int, int);
};

CudaDriver::CudaDriver(const std::string &given) {
  // XTILE_LIBCUDA names another driver library: the emulation's, say
  // (runtime/xtile_emulation.h, XTILE_EMULATION_DRIVER).
  const char *path =
      given.empty() ? std::getenv("XTILE_LIBCUDA") : given.c_str();
  library = dlopen(path && *path ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    why = !given.empty() ? "the emulated driver " + given +
                               " cannot be opened: " + dlerror()
          : path && *path ? std::string("XTILE_LIBCUDA=") + path +
                              " cannot be opened: " + dlerror()
                        : "no CUDA driver (libcuda.so.1 cannot be opened: "
                          "no GPU here)";
    return;
  }
  api = new Api();
  bool missing = false;
  auto load = [&](auto &fn, const char *name, bool optional = false) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        dlsym(library, name));
    missing |= fn == nullptr && !optional;
  };
  load(api->init, "cuInit");
  load(api->deviceGetCount, "cuDeviceGetCount");
  load(api->deviceGet, "cuDeviceGet");
  load(api->primaryCtxRetain, "cuDevicePrimaryCtxRetain");
  load(api->primaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  load(api->ctxSetCurrent, "cuCtxSetCurrent");
  load(api->ctxSynchronize, "cuCtxSynchronize");
  load(api->moduleLoadData, "cuModuleLoadData");
  load(api->moduleUnload, "cuModuleUnload");
  load(api->moduleGetFunction, "cuModuleGetFunction");
  load(api->funcSetAttribute, "cuFuncSetAttribute");
  load(api->memAlloc, "cuMemAlloc_v2");
  load(api->memFree, "cuMemFree_v2");
  load(api->memcpyHtoD, "cuMemcpyHtoD_v2");
  load(api->memcpyDtoH, "cuMemcpyDtoH_v2");
  load(api->memcpyDtoD, "cuMemcpyDtoD_v2");
  load(api->launchKernel, "cuLaunchKernel");
  load(api->eventCreate, "cuEventCreate");
  load(api->eventDestroy, "cuEventDestroy_v2");
  load(api->eventRecord, "cuEventRecord");
  load(api->eventSynchronize, "cuEventSynchronize");
  load(api->eventElapsedTime, "cuEventElapsedTime");
  load(api->getErrorString, "cuGetErrorString");
  load(api->tensorMapEncodeTiled, "cuTensorMapEncodeTiled", /*optional=*/true);
  if (missing) {
    why = "the CUDA driver lacks an entry point xtile-run needs";
    return;
  }
  int count = 0;
  if (api->init(0) != 0 || api->deviceGetCount(&count) != 0 || count == 0) {
    why = "the CUDA driver finds no GPU";
    return;
  }
  CUdevice device;
  if (api->deviceGet(&device, 0) != 0 ||
      api->primaryCtxRetain(&context, device) != 0 ||
      api->ctxSetCurrent(context) != 0) {
    why = "cannot create a CUDA context";
    return;
  }
  ready = true;
}

CudaDriver::~CudaDriver() {
  if (ready)
    api->primaryCtxRelease(0);
  delete api;
  if (library)
    dlclose(library);
}

LogicalResult CudaDriver::runProgram(StringRef ptx, kernel::ProgramOp program,
                                     std::vector<std::vector<char>> &buffers,
                                     ArrayRef<int64_t> sizes, int repeats,
                                     std::vector<KernelTime> &times) {
  auto check = [&](CUresult r, const char *what) -> LogicalResult {
    if (r == 0)
      return success();
    const char *text = "unknown error";
    api->getErrorString(r, &text);
    program.emitError("CUDA: ") << what << ": " << text;
    return failure();
  };
  std::string image = ptx.str(); // NUL-terminated
  // A program of copies only has no kernels and no PTX.
  CUmodule module = nullptr;
  if (!image.empty() &&
      failed(check(api->moduleLoadData(&module, image.c_str()),
                   "loading the PTX")))
    return failure();
  Block &body = program.getBodyBlock();
  // The values of the program's sizes, and the bytes of a buffer at them.
  DenseMap<Value, int64_t> sizeOf;
  for (auto [arg, size] : llvm::zip(program.getSizes(), sizes))
    sizeOf[arg] = size;
  auto bytesOf = [&](Value buffer) {
    int64_t bytes = getStaticNumBytes(buffer.getType());
    for (Value size : program.getBufferSizes(buffer))
      bytes *= sizeOf.lookup(size);
    return static_cast<size_t>(bytes);
  };
  DenseMap<Value, CUdeviceptr> device;
  std::vector<CUdeviceptr> owned;
  auto cleanup = [&] {
    for (CUdeviceptr p : owned)
      api->memFree(p);
    if (module)
      api->moduleUnload(module);
  };
  auto allocate = [&](Value v, size_t bytes) -> LogicalResult {
    CUdeviceptr p;
    if (failed(check(api->memAlloc(&p, std::max<size_t>(bytes, 1)),
                     "allocating device memory")))
      return failure();
    owned.push_back(p);
    device[v] = p;
    return success();
  };
  // Encodes the tensor map of `map` (cuTensorMapEncodeTiled) and copies it
  // into its buffer, allocated already. The driver takes dimensions
  // innermost first, the Kernel IR lists them outermost first.
  auto encode = [&](kernel::TensorMapOp map) -> LogicalResult {
    std::string users;
    for (Operation *user : map.getResult().getUsers())
      if (auto launch = dyn_cast<kernel::LaunchOp>(user)) {
        std::string name = launch.getKernel().str();
        if (users.find("'" + name + "'") == std::string::npos)
          users += (users.empty() ? " (for kernel '" : ", '") + name + "'";
      }
    if (!users.empty())
      users += ")";
    if (!api->tensorMapEncodeTiled)
      return map.emitError("CUDA: the driver lacks cuTensorMapEncodeTiled, "
                           "which xkernel.tensor_map needs")
             << users;
    Value source = map.getSource();
    auto type = cast<MemRefType>(source.getType());
    int64_t rank = type.getRank();
    ArrayRef<int64_t> box = map.getBox();
    SmallVector<Value> dynamic = program.getBufferSizes(source);
    if (static_cast<int64_t>(box.size()) != rank ||
        dynamic.size() != type.getNumDynamicDims())
      return map.emitError("CUDA: cannot make the tensor map of ")
             << type << users << ": its box or sizes are unknown";
    // The shape at the program's sizes, then innermost first.
    SmallVector<uint64_t, 5> globalDim;
    auto next = dynamic.begin();
    for (int64_t d : type.getShape())
      globalDim.push_back(ShapedType::isDynamic(d) ? sizeOf.lookup(*next++)
                                                   : d);
    std::reverse(globalDim.begin(), globalDim.end());
    // Byte strides of dimensions 1.. (innermost first) of the row-major
    // buffer; one unused entry for rank 1.
    SmallVector<uint64_t, 5> globalStrides;
    uint64_t stride = getElementBytes(type.getElementType());
    for (int64_t i = 1; i < rank; ++i) {
      stride *= globalDim[i - 1];
      globalStrides.push_back(stride);
    }
    if (globalStrides.empty())
      globalStrides.push_back(stride);
    SmallVector<uint32_t, 5> boxDim(box.rbegin(), box.rend());
    SmallVector<uint32_t, 5> elementStrides(rank, 1);
    int swizzle;
    switch (map.getSwizzle()) {
    case 0:
      swizzle = 0;
      break;
    case 32:
      swizzle = 1;
      break;
    case 64:
      swizzle = 2;
      break;
    case 128:
      swizzle = 3;
      break;
    default:
      return map.emitError("CUDA: cannot swizzle ")
             << map.getSwizzle() << " bytes" << users
             << ": expected 0, 32, 64 or 128";
    }
    CUtensorMap encoded{};
    CUresult r = api->tensorMapEncodeTiled(
        &encoded, map.getDataType(), static_cast<uint32_t>(rank),
        reinterpret_cast<void *>(static_cast<uintptr_t>(device.lookup(source))),
        globalDim.data(), globalStrides.data(), boxDim.data(),
        elementStrides.data(), /*interleave=*/0, swizzle,
        kTensorMapL2Promotion128B, /*oobFill=*/0);
    if (r != 0) {
      const char *text = "unknown error";
      api->getErrorString(r, &text);
      return map.emitError("CUDA: cuTensorMapEncodeTiled failed on ")
             << type << " with box [" << box << "] and swizzle "
             << map.getSwizzle() << users << ": " << text << " (error " << r
             << ")";
    }
    return check(api->memcpyHtoD(device.lookup(map.getResult()), &encoded,
                                 kTensorMapBytes),
                 "copying a tensor map");
  };
  for (auto [arg, host] : llvm::zip(program.getBuffers(), buffers)) {
    if (failed(allocate(arg, host.size())) ||
        failed(check(api->memcpyHtoD(device[arg], host.data(), host.size()),
                     "copying an input"))) {
      cleanup();
      return failure();
    }
  }
  struct Step {
    CUfunction fn;
    std::string name;
    kernel::LaunchOp launch;
  };
  std::vector<Step> steps;
  std::vector<kernel::CopyOp> copies;
  for (Operation &op : body) {
    if (auto alloc = dyn_cast<kernel::AllocOp>(op)) {
      if (failed(allocate(alloc.getResult(), bytesOf(alloc.getResult())))) {
        cleanup();
        return failure();
      }
    } else if (auto map = dyn_cast<kernel::TensorMapOp>(op)) {
      // Made once, before any launch: it holds the source's address and
      // shape, the same in every run.
      if (failed(allocate(map.getResult(), kTensorMapBytes)) ||
          failed(encode(map))) {
        cleanup();
        return failure();
      }
    } else if (auto launch = dyn_cast<kernel::LaunchOp>(op)) {
      CUfunction fn;
      std::string name = launch.getKernel().str();
      if (failed(check(api->moduleGetFunction(&fn, module, name.c_str()),
                       "finding a kernel")) ||
          (launch.getShared() > 48 * 1024 &&
           failed(check(api->funcSetAttribute(fn, kMaxDynamicSharedAttribute,
                                              int(launch.getShared())),
                        "raising the dynamic shared memory limit")))) {
        cleanup();
        return failure();
      }
      steps.push_back({fn, name, launch});
    } else if (auto copy = dyn_cast<kernel::CopyOp>(op)) {
      copies.push_back(copy);
    }
  }
  std::vector<std::vector<float>> samples(steps.size());
  CUevent before, after;
  api->eventCreate(&before, 0);
  api->eventCreate(&after, 0);
  for (int run = 0; run <= repeats; ++run) {
    for (auto [i, step] : llvm::enumerate(steps)) {
      std::vector<CUdeviceptr> args;
      for (Value b : step.launch.getBuffers())
        args.push_back(device[b]);
      std::vector<int64_t> launchSizes;
      for (Value size : step.launch.getSizes())
        launchSizes.push_back(sizeOf.lookup(size));
      std::vector<void *> params;
      for (CUdeviceptr &a : args)
        params.push_back(&a);
      for (int64_t &size : launchSizes)
        params.push_back(&size);
      SmallVector<int64_t, 3> g = step.launch.getGridAt(launchSizes);
      ArrayRef<int64_t> bl = step.launch.getBlock();
      api->eventRecord(before, nullptr);
      if (failed(check(api->launchKernel(step.fn, g[0], g[1], g[2], bl[0],
                                         bl[1], bl[2], step.launch.getShared(),
                                         nullptr, params.data(), nullptr),
                       "launching a kernel"))) {
        cleanup();
        return failure();
      }
      api->eventRecord(after, nullptr);
      if (failed(check(api->eventSynchronize(after), "running a kernel"))) {
        cleanup();
        return failure();
      }
      float ms = 0;
      api->eventElapsedTime(&ms, before, after);
      if (run > 0)
        samples[i].push_back(ms * 1000.0f);
    }
  }
  api->eventDestroy(before);
  api->eventDestroy(after);
  for (kernel::CopyOp copy : copies) {
    if (failed(check(api->memcpyDtoD(device[copy.getTarget()],
                                     device[copy.getSource()],
                                     bytesOf(copy.getSource())),
                     "copying a buffer"))) {
      cleanup();
      return failure();
    }
  }
  for (auto [i, step] : llvm::enumerate(steps)) {
    std::vector<float> &s = samples[i];
    std::sort(s.begin(), s.end());
    times.push_back({step.name, s.empty() ? 0.0 : s[s.size() / 2]});
  }
  unsigned numInputs = program.getNumInputs();
  for (auto [i, arg] : llvm::enumerate(program.getBuffers())) {
    if (i < numInputs)
      continue;
    if (failed(check(api->memcpyDtoH(buffers[i].data(), device[arg],
                                     buffers[i].size()),
                     "copying an output back"))) {
      cleanup();
      return failure();
    }
  }
  cleanup();
  return success();
}
