// expect: errors
// flags: --local_size=64 --num_groups=2
// Odd work-items never store 100 into z, and a global precondition must
// hold for every work-item: the value a store forwards to a load of the
// same block is that of the work-items that execute the block only.

void callee(int x) {
  __global_requires(x == 100);
}

kernel void k() {
  volatile int z = 50;
  if (get_local_id(0) % 2 == 0) {
    z = 100;
    callee(z);
  }
}
