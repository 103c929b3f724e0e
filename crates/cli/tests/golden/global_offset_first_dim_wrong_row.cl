// expect: errors
// flags: --local_size=64 --num_groups=4 --global_offset=64
// As global_offset_first_dim.cl, but the row is computed as if the offset
// applied to dimension 1 too: its id there is 0, so the row wraps around
// and the claim that it is row 0 fails.
__kernel void shift_rows(__global int *dst, __global const int *src) {
  size_t row = get_global_id(1) - get_global_offset(0);
  size_t col = get_global_id(0) - get_global_offset(0);
  __assert(row == 0);
  dst[row * 256 + col] = src[col] + (int)get_global_offset(0);
}
