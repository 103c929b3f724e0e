// expect: verified
// flags: --local_size=16 --num_groups=1 --only-log
// GPUVerify's `--only-log` logs accesses without checking them: the race on
// A[0] is not reported, and the report says that races were not checked.

kernel void unchecked(local int *A) {
  A[0] = get_local_id(0);
}
