// expect: verified
// flags: --local_size=64 --num_groups=16
// Reinterprets vectors as vectors with another number of lanes (float4 as
// uchar16, long as uint2, int2 as long): lane 0 holds the lowest bits.
kernel void k(global uchar16 *out, global float4 *in, global long *w, global uint2 *halves) {
  size_t i = get_global_id(0);
  float4 v = in[i];
  uchar16 b = as_uchar16(v);
  __assert(b.s4 == (uchar)as_uint(v.y));
  __assert(b.sf == (uchar)(as_uint(v.w) >> 24));
  long x = w[i];
  uint2 h = as_uint2(x);
  __assert(h.x == (uint)x);
  __assert(h.y == (uint)(x >> 32));
  __assert(as_long((int2)(1, 2)) == 0x200000001L);
  out[i] = b;
  halves[i] = h;
}
