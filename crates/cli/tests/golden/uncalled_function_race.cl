// expect: possible-errors
// flags: --local_size=64 --num_groups=4 --no-inline
// With --no-inline, a function no kernel calls is checked on its own, for
// every caller: each work-item may pass its own `dst`, so two work-items
// may write the same element.
void clear(__local float *dst) {
  for (int i = get_local_id(0); i < 1024; i += get_local_size(0)) {
    dst[i] = 0;
  }
}

__kernel void empty() {}
