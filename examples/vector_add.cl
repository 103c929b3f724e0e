// expect: verified
// flags: --local_size=64 --num_groups=16
//
// OpenCL vector addition: each work-item touches only its own element.

__kernel void vector_add(__global const float *a, __global const float *b,
                         __global float *c, unsigned n) {
  size_t i = get_global_id(0);
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}
