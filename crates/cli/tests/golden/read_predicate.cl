// expect: errors
// flags: --local_size=128 --num_groups=2
// `__read(q)` holds after the work-item read `q` (GPUVerify's access
// predicates), so the claim fails.
kernel void k(global int *p, global int *q) {
  p[get_global_id(0)] = q[get_global_id(0)];
  __assert(!__read(q));
}
