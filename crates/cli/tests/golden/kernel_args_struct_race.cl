// expect: errors
// flags: --local_size=4 --num_groups=1 --kernel-args=k,0x0000000000000001
// With `p.hi` given as 0, every work-item writes a[1].
struct pair { int lo; int hi; };

kernel void k(local int *a, struct pair p) {
  a[get_local_id(0) * p.hi + p.lo] = get_local_id(0);
}
