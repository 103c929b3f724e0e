// expect: errors
// flags: --local_size=16 --num_groups=2
// A specification function without a postcondition may write any part of
// the array, so a work-item's call races with the others' reads.
void __spec_update(__local int *p) {
  __writes_to(p);
}

void consume(int x);

__kernel void k(__local int *a) {
  __spec_update(a);
  consume(a[get_local_id(0)]);
}
