// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/rmsnorm.mlir | xtile-translate --mlir-to-host-ptx | FileCheck %s
// RUN: xtile-translate --mlir-to-host-ptx --split-input-file -verify-diagnostics %s

// The PTX path's LLVM IR (what NVPTX compiles) retargeted to the host: the
// host's triple, the special registers, shuffles, barrier and special-
// function instruction as calls into the emulation, shared memory in the
// block's window, the kernel with a host entry point taking
// cuLaunchKernel's parameter array, listed by its PTX name, and the hash of
// the PTX it stands for.

// CHECK: target triple = "x86_64
// CHECK-DAG: @xt_ptx_static_shared_bytes = constant i64 32
// CHECK-DAG: @xt_ptx_kernels = constant [2 x { ptr, ptr }] [{ ptr, ptr } { ptr @{{[0-9]+}}, ptr @__xt_ptx_entry.rmsnorm_mul_2 }, { ptr, ptr } zeroinitializer]
// CHECK-DAG: @xt_ptx_image_hash = constant i64
// CHECK: define void @rmsnorm_mul_2(ptr addrspace(1) {{.*}}, ptr addrspace(1) {{.*}}, ptr addrspace(1) {{.*}})
// CHECK: call ptr @__xt_ptx_static_shared()
// CHECK-NOT: call ptr @__xt_ptx_static_shared()
// CHECK: call i32 @__xt_ptx_llvm_nvvm_read_ptx_sreg_tid_x()
// CHECK: call i32 @__xt_ptx_llvm_nvvm_read_ptx_sreg_ctaid_x()
// CHECK: call float @__xt_ptx_llvm_nvvm_shfl_sync_bfly_f32(i32 -1, float %{{.*}}, i32 16, i32 31)
// CHECK: call void @__xt_ptx_llvm_nvvm_barrier_cta_sync_aligned_all(i32 0)
// CHECK: call float @__xt_ptx_llvm_nvvm_rsqrt_approx_f(
// CHECK: define internal void @__xt_ptx_entry.rmsnorm_mul_2(ptr %0)
// CHECK: call void @rmsnorm_mul_2(
// CHECK-NOT: llvm.nvvm
// CHECK-NOT: asm

// An NVVM intrinsic and inline PTX without a host implementation are
// errors that name them (every one, in one message).
// expected-error @below {{the PTX path's LLVM IR calls the NVVM intrinsic 'llvm.nvvm.read.ptx.sreg.clock', which the host emulation does not implement}}
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @clocked(%out: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %c = nvvm.read.ptx.sreg.clock : i32
      llvm.store %c, %out : i32, !llvm.ptr<1>
      llvm.return
    }
  }
}

// -----

// expected-error @below {{the PTX path's LLVM IR has the inline PTX 'nanosleep.u32 $0;' (constraints 'r'), which the host emulation does not implement}}
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @sleepy(%t: i32) attributes {gpu.kernel, nvvm.kernel} {
      llvm.inline_asm has_side_effects "nanosleep.u32 $0;", "r" %t : (i32) -> ()
      llvm.return
    }
  }
}
