// expect: verified
// flags: --local_size=4 --num_groups=1 --kernel-args=k,0x0000000200000001
// A by-value struct given as its bytes: `p.lo` is 1 and `p.hi` is 2, so
// each work-item writes its own element.
struct pair { int lo; int hi; };

kernel void k(local int *a, struct pair p) {
  __assert(p.lo == 1);
  a[get_local_id(0) * p.hi + p.lo] = 0;
}
