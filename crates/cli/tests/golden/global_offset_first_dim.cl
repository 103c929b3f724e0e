// expect: verified
// flags: --local_size=64 --num_groups=4 --global_offset=64
// A one-dimensional launch whose global ids start at 64: the offset is
// given for dimension 0 only, so dimension 1 has offset 0 and id 0, and
// every work-item writes its own element of row 0.
__kernel void shift_rows(__global int *dst, __global const int *src) {
  size_t row = get_global_id(1);
  size_t col = get_global_id(0) - get_global_offset(0);
  __assert(get_global_offset(1) == 0);
  __assert(row == 0);
  __assert(get_global_id(0) >= 64);
  dst[row * 256 + col] = src[col] + (int)get_global_offset(0);
}
