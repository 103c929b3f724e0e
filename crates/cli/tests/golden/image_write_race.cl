// expect: errors
// flags: --local_size=[8,8] --num_groups=[4,4]
// Work-items (x, 2k) and (x, 2k + 1) write the same pixel.
kernel void k(write_only image2d_t dst, read_only image2d_t src, sampler_t s) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagei(dst, (int2)(x, y / 2), read_imagei(src, s, (int2)(x, y)));
}
