//===- CudaDriver.cpp - the CUDA driver API, opened at run time -----------===//

#include "runtime/CudaDriver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>

using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;
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

llvm::Error CudaDriver::runProgram(StringRef ptx, const plan::Program &program,
                                   std::vector<std::vector<char>> &buffers,
                                   ArrayRef<int64_t> sizes, int repeats,
                                   std::vector<KernelTime> &times) {
  using plan::Step;
  CUmodule module = nullptr;
  std::vector<CUdeviceptr> device;
  llvm::scope_exit cleanup([&] {
    for (auto [i, p] : llvm::enumerate(device))
      if (p && (i >= program.buffers.size() ||
                program.buffers[i].inPlaceOf < 0))
        api->memFree(p);
    if (module)
      api->moduleUnload(module);
  });
  auto error = [&](CUresult r, const llvm::Twine &what) -> llvm::Error {
    const char *text = "unknown error";
    api->getErrorString(r, &text);
    return llvm::createStringError("CUDA: " + what + ": " + text);
  };
#define XTILE_CHECK(call, what)                                                \
  if (CUresult r = (call))                                                     \
    return error(r, what);
  size_t arguments = llvm::count_if(program.buffers, [](const plan::Buffer &b) {
    return b.role == "input" || b.role == "output";
  });
  if (buffers.size() != arguments || sizes.size() != program.sizes.size())
    return llvm::createStringError("the launch plan of " + program.name +
                                   " takes other buffers or sizes");
  std::string image = ptx.str(); // NUL-terminated
  if (!image.empty())
    XTILE_CHECK(api->moduleLoadData(&module, image.c_str()), "loading the PTX");
  // Every buffer of the plan: the arguments, copied in; then the
  // temporaries and tensor maps.
  device.assign(program.buffers.size(), 0);
  for (auto [i, b] : llvm::enumerate(program.buffers)) {
    if (b.inPlaceOf >= 0) {
      // Returned in the input's buffer: the same device memory.
      if (b.inPlaceOf >= int64_t(i))
        return llvm::createStringError("the launch plan of " + program.name +
                                       " has an output in place of a "
                                       "buffer after it");
      device[i] = device[b.inPlaceOf];
      continue;
    }
    size_t bytes =
        b.role == "tensor_map" ? kTensorMapBytes : size_t(b.bytesAt(sizes));
    XTILE_CHECK(api->memAlloc(&device[i], std::max<size_t>(bytes, 1)),
                "allocating device memory");
    if (i < buffers.size())
      XTILE_CHECK(
          api->memcpyHtoD(device[i], buffers[i].data(), buffers[i].size()),
          "copying an input");
  }
  // The kernels each launch runs, found once.
  std::vector<CUfunction> functions(program.steps.size(), nullptr);
  for (auto [i, step] : llvm::enumerate(program.steps)) {
    if (step.kind != Step::Kind::Launch)
      continue;
    XTILE_CHECK(
        api->moduleGetFunction(&functions[i], module, step.kernel.c_str()),
        "finding a kernel");
    if (step.shared > 48 * 1024)
      XTILE_CHECK(api->funcSetAttribute(functions[i],
                                        kMaxDynamicSharedAttribute,
                                        int(step.shared)),
                  "raising the dynamic shared memory limit");
  }
  auto encode = [&](const Step &step) -> llvm::Error {
    std::string users;
    for (const Step &other : program.steps)
      if (other.kind == Step::Kind::Launch &&
          llvm::is_contained(other.args, step.to) &&
          users.find("'" + other.kernel + "'") == std::string::npos)
        users +=
            (users.empty() ? " (for kernel '" : ", '") + other.kernel + "'";
    if (!users.empty())
      users += ")";
    const plan::Buffer &source = program.buffers[step.from];
    std::string what = "the tensor map of buffer " + std::to_string(step.from) +
                       " (" + source.element + ")" + users;
    if (!api->tensorMapEncodeTiled)
      return llvm::createStringError(
          "CUDA: the driver lacks cuTensorMapEncodeTiled, which " + what +
          " needs");
    std::vector<int64_t> shape = source.shapeAt(sizes);
    int64_t rank = shape.size();
    if (static_cast<int64_t>(step.box.size()) != rank || rank == 0)
      return llvm::createStringError("CUDA: cannot make " + what +
                                     ": its box does not fit its shape");
    SmallVector<uint64_t, 5> globalDim(shape.rbegin(), shape.rend());
    SmallVector<uint64_t, 5> globalStrides;
    uint64_t stride = step.elementBytes;
    for (int64_t i = 1; i < rank; ++i) {
      stride *= globalDim[i - 1];
      globalStrides.push_back(stride);
    }
    if (globalStrides.empty())
      globalStrides.push_back(stride);
    SmallVector<uint32_t, 5> boxDim(step.box.rbegin(), step.box.rend());
    SmallVector<uint32_t, 5> elementStrides(rank, 1);
    int swizzle;
    switch (step.swizzle) {
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
      return llvm::createStringError(
          "CUDA: cannot swizzle " + std::to_string(step.swizzle) +
          " bytes in " + what + ": expected 0, 32, 64 or 128");
    }
    CUtensorMap encoded{};
    CUresult r = api->tensorMapEncodeTiled(
        &encoded, int(step.dataType), static_cast<uint32_t>(rank),
        reinterpret_cast<void *>(static_cast<uintptr_t>(device[step.from])),
        globalDim.data(), globalStrides.data(), boxDim.data(),
        elementStrides.data(), /*interleave=*/0, swizzle,
        kTensorMapL2Promotion128B, /*oobFill=*/0);
    if (r != 0)
      return error(r, "cuTensorMapEncodeTiled failed on " + what);
    XTILE_CHECK(api->memcpyHtoD(device[step.to], &encoded, kTensorMapBytes),
                "copying a tensor map");
    return llvm::Error::success();
  };
  // The tensor maps are encoded once; the launches and copies run in
  // program order `repeats + 1` times (the first a warm-up), the launches
  // each timed.
  for (const Step &step : program.steps)
    if (step.kind == Step::Kind::TensorMap)
      if (llvm::Error e = encode(step))
        return e;
  std::vector<std::vector<float>> samples(program.steps.size());
  CUevent before, after;
  api->eventCreate(&before, 0);
  api->eventCreate(&after, 0);
  llvm::scope_exit events([&] {
    api->eventDestroy(before);
    api->eventDestroy(after);
  });
  for (int run = 0; run <= repeats; ++run) {
    // A repeat starts from the inputs that an earlier run updated in place.
    for (const plan::Buffer &b : program.buffers)
      if (run > 0 && b.inPlaceOf >= 0)
        XTILE_CHECK(api->memcpyHtoD(device[b.inPlaceOf],
                                    buffers[b.inPlaceOf].data(),
                                    buffers[b.inPlaceOf].size()),
                    "restoring an input updated in place");
    for (auto [i, step] : llvm::enumerate(program.steps)) {
      if (step.kind == Step::Kind::Copy) {
        XTILE_CHECK(api->memcpyDtoD(device[step.to], device[step.from],
                                    step.bytesAt(sizes)),
                    "copying a buffer");
        continue;
      }
      if (step.kind != Step::Kind::Launch || !step.runsAt(sizes))
        continue;
      std::vector<CUdeviceptr> args;
      for (int64_t b : step.args)
        args.push_back(device[b]);
      std::vector<int64_t> launchSizes;
      for (int64_t s : step.sizes)
        launchSizes.push_back(sizes[s]);
      std::vector<void *> params;
      for (CUdeviceptr &a : args)
        params.push_back(&a);
      for (int64_t &size : launchSizes)
        params.push_back(&size);
      std::array<int64_t, 3> g = step.gridAt(sizes);
      const std::array<int64_t, 3> &bl = step.block;
      api->eventRecord(before, nullptr);
      XTILE_CHECK(api->launchKernel(functions[i], g[0], g[1], g[2], bl[0],
                                    bl[1], bl[2], step.shared, nullptr,
                                    params.data(), nullptr),
                  "launching a kernel");
      api->eventRecord(after, nullptr);
      XTILE_CHECK(api->eventSynchronize(after), "running a kernel");
      float ms = 0;
      api->eventElapsedTime(&ms, before, after);
      if (run > 0)
        samples[i].push_back(ms * 1000.0f);
    }
  }
  for (auto [i, step] : llvm::enumerate(program.steps)) {
    if (step.kind != Step::Kind::Launch || !step.runsAt(sizes))
      continue;
    std::vector<float> &s = samples[i];
    std::sort(s.begin(), s.end());
    times.push_back({step.kernel, s.empty() ? 0.0 : s[s.size() / 2]});
  }
  for (size_t i = program.numInputs; i < buffers.size(); ++i)
    XTILE_CHECK(
        api->memcpyDtoH(buffers[i].data(), device[i], buffers[i].size()),
        "copying an output back");
#undef XTILE_CHECK
  return llvm::Error::success();
}
