// expect: possible-errors
// flags: --local_size=64 --num_groups=2
// The barrier's flags differ between work-items. Work-item 0, the only
// reader, fences local memory, so its read is ordered before work-item 1's
// write (GPUVerify verifies this kernel): the interpreter confirms no race,
// and the prover, which reads flags that are not constant as fencing
// nothing, raises only a possible one.
__kernel void k(__local int *p) {
  volatile int x, y;
  x = get_local_id(0) == 0 ? CLK_LOCAL_MEM_FENCE : 0;
  if (get_local_id(0) == 0) {
    y = p[0];
  }
  barrier(x);
  if (get_local_id(0) == 1) {
    p[0] = 0;
  }
}
