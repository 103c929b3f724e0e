// expect: verified
// flags: --local_size=2 --num_groups=1 --kernel-args=k,3
// Race-free only because `--kernel-args` fixes `x` to 3.
kernel void k(local int *a, int x) {
  if (x == 3) {
    a[get_local_id(0)] = 3;
  } else {
    a[0] = get_local_id(0);
  }
}
