// expect: errors
// flags: --local_size=64 --num_groups=2
// `sincos` stores the cosine through its pointer: every work-item writes
// out[0].
__kernel void k(__global float *out, __global float *sines) {
  sines[get_global_id(0)] = sincos((float)get_global_id(0), out);
}
