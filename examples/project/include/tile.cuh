// Shared by the kernels of the example project: the tile size comes from the
// build (CMake's target_compile_definitions), as in real projects.
#pragma once

#ifndef BLOCK
#error "BLOCK must be defined by the build (-DBLOCK=...)"
#endif

__device__ inline unsigned global_index() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}
