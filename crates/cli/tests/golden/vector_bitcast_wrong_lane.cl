// expect: errors
// flags: --local_size=64 --num_groups=16
// Byte 4 of a float4 is the low byte of its second lane, not of its first.
kernel void k(global uchar16 *out, global float4 *in) {
  size_t i = get_global_id(0);
  float4 v = in[i];
  uchar16 b = as_uchar16(v);
  __assert(b.s4 == (uchar)as_uint(v.x));
  out[i] = b;
}
