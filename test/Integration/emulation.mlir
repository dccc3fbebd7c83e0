// The CPU emulation keeps CUDA's meaning: barriers order shared memory, a
// missing barrier is a data race ThreadSanitizer reports, and a barrier that
// not every thread reaches is an error, not a hang.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: xtile-translate --mlir-to-cuda %s -o %t/k.cu
// RUN: %cxx -std=c++17 -O1 -g -pthread -rdynamic -x c++ -include %xtile_src_root/runtime/xtile_emulation.h %t/k.cu -x c++ %S/Inputs/run-program.cpp -o %t/plain
// RUN: %t/plain rotate_program 64 64 | FileCheck %s --check-prefix=ROTATE
// RUN: not %t/plain divergent_program 64 64 2>&1 | FileCheck %s --check-prefix=DIVERGENT
// RUN: %t/plain named_program 64 64 | FileCheck %s --check-prefix=NAMED
// RUN: not %t/plain miscounted_program 64 64 2>&1 | FileCheck %s --check-prefix=MISCOUNTED
// RUN: %cxx -std=c++17 -O1 -g -pthread -rdynamic -fsanitize=thread -x c++ -include %xtile_src_root/runtime/xtile_emulation.h %t/k.cu -x c++ %S/Inputs/run-program.cpp -o %t/tsan
// RUN: %t/tsan rotate_program 64 64 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: %t/tsan named_program 64 64 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: not %t/tsan racy_program 64 64 2>&1 | FileCheck %s --check-prefix=RACE

// Each thread reads its right neighbour's element through shared memory.
// ROTATE: rc=0 1 2 3 4
// CLEAN-NOT: ThreadSanitizer
// CLEAN: rc=0 1 2 3 4
// CLEAN-NOT: ThreadSanitizer
xkernel.func @rotate(%x: !xkernel.ptr<f32, global> {xkernel.readonly}, %y: !xkernel.ptr<f32, global>)
    attributes {max_threads = 64 : i64} {
  %t = xkernel.thread_id x
  %s = xkernel.shared 64 : !xkernel.ptr<f32, shared>
  %v = xkernel.load %x[%t] : !xkernel.ptr<f32, global> -> f32
  xkernel.store %v, %s[%t] : f32, !xkernel.ptr<f32, shared>
  xkernel.barrier
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = arith.addi %t, %c1 : index
  %m = arith.remui %n, %c64 : index
  %w = xkernel.load %s[%m] : !xkernel.ptr<f32, shared> -> f32
  xkernel.store %w, %y[%t] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}
xkernel.program @rotate_program(%x: memref<64xf32>) -> (%y: memref<64xf32>) {
  xkernel.launch @rotate(%x, %y) grid [1, 1, 1] block [64, 1, 1] shared 0 : memref<64xf32>, memref<64xf32>
}

// The same without the barrier: the read of a neighbour's element races
// with the neighbour's write.
// RACE: WARNING: ThreadSanitizer: data race
// RACE: SUMMARY: ThreadSanitizer: data race {{.*}}k.cu:{{[0-9]+}} in racy
xkernel.func @racy(%x: !xkernel.ptr<f32, global> {xkernel.readonly}, %y: !xkernel.ptr<f32, global>)
    attributes {max_threads = 64 : i64} {
  %t = xkernel.thread_id x
  %s = xkernel.shared 64 : !xkernel.ptr<f32, shared>
  %v = xkernel.load %x[%t] : !xkernel.ptr<f32, global> -> f32
  xkernel.store %v, %s[%t] : f32, !xkernel.ptr<f32, shared>
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = arith.addi %t, %c1 : index
  %m = arith.remui %n, %c64 : index
  %w = xkernel.load %s[%m] : !xkernel.ptr<f32, shared> -> f32
  xkernel.store %w, %y[%t] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}
xkernel.program @racy_program(%x: memref<64xf32>) -> (%y: memref<64xf32>) {
  xkernel.launch @racy(%x, %y) grid [1, 1, 1] block [64, 1, 1] shared 0 : memref<64xf32>, memref<64xf32>
}

// The first warp skips the barrier: reported, and the launch fails.
// DIVERGENT: xtile emulation: kernel divergent, block (0, 0, 0): 32 of 64 threads wait at a barrier (__syncthreads or a named one), 32 have exited and the others wait at a warp shuffle: not every thread the barrier counts reaches it
// DIVERGENT: rc=719
xkernel.func @divergent(%x: !xkernel.ptr<f32, global> {xkernel.readonly}, %y: !xkernel.ptr<f32, global>)
    attributes {max_threads = 64 : i64} {
  %t = xkernel.thread_id x
  %c32 = arith.constant 32 : index
  %late = arith.cmpi uge, %t, %c32 : index
  scf.if %late {
    xkernel.barrier
  }
  %v = xkernel.load %x[%t] : !xkernel.ptr<f32, global> -> f32
  xkernel.store %v, %y[%t] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}
xkernel.program @divergent_program(%x: memref<64xf32>) -> (%y: memref<64xf32>) {
  xkernel.launch @divergent(%x, %y) grid [1, 1, 1] block [64, 1, 1] shared 0 : memref<64xf32>, memref<64xf32>
}

// A named barrier of the first warp (bar.sync 1, 32), the second having
// exited, as a warp-specialized kernel's consumers meet without its
// producer: the first warp's threads read their right neighbour's element
// within the warp.
// NAMED: rc=0 1 2 3 4
xkernel.func @named(%x: !xkernel.ptr<f32, global> {xkernel.readonly}, %y: !xkernel.ptr<f32, global>)
    attributes {max_threads = 64 : i64} {
  %t = xkernel.thread_id x
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %s = xkernel.shared 32 : !xkernel.ptr<f32, shared>
  %v = xkernel.load %x[%t] : !xkernel.ptr<f32, global> -> f32
  %first = arith.cmpi ult, %t, %c32 : index
  scf.if %first {
    xkernel.store %v, %s[%t] : f32, !xkernel.ptr<f32, shared>
    xkernel.barrier 1, 32
    %n = arith.addi %t, %c1 : index
    %m = arith.remui %n, %c32 : index
    %w = xkernel.load %s[%m] : !xkernel.ptr<f32, shared> -> f32
    xkernel.store %w, %y[%t] : f32, !xkernel.ptr<f32, global>
  } else {
    xkernel.store %v, %y[%t] : f32, !xkernel.ptr<f32, global>
  }
  xkernel.return
}
xkernel.program @named_program(%x: memref<64xf32>) -> (%y: memref<64xf32>) {
  xkernel.launch @named(%x, %y) grid [1, 1, 1] block [64, 1, 1] shared 0 : memref<64xf32>, memref<64xf32>
}

// Threads that wait at one named barrier with different counts: reported,
// and the launch fails.
// MISCOUNTED: xtile emulation: kernel miscounted, block (0, 0, 0): threads wait at barrier 1 for {{32 and for 64|64 and for 32}} threads
// MISCOUNTED: rc=719
xkernel.func @miscounted(%x: !xkernel.ptr<f32, global> {xkernel.readonly}, %y: !xkernel.ptr<f32, global>)
    attributes {max_threads = 64 : i64} {
  %t = xkernel.thread_id x
  %c32 = arith.constant 32 : index
  %first = arith.cmpi ult, %t, %c32 : index
  scf.if %first {
    xkernel.barrier 1, 32
  } else {
    xkernel.barrier 1, 64
  }
  %v = xkernel.load %x[%t] : !xkernel.ptr<f32, global> -> f32
  xkernel.store %v, %y[%t] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}
xkernel.program @miscounted_program(%x: memref<64xf32>) -> (%y: memref<64xf32>) {
  xkernel.launch @miscounted(%x, %y) grid [1, 1, 1] block [64, 1, 1] shared 0 : memref<64xf32>, memref<64xf32>
}
