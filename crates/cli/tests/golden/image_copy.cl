// expect: verified
// flags: --local_size=[16,16] --num_groups=[8,4]
// Each work-item copies its own pixel, through a sampler, into an image of
// two layers; reads of a read-only image cannot race.
kernel void k(write_only image2d_array_t dst, read_only image2d_t src, sampler_t given) {
  const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  int x = get_global_id(0), y = get_global_id(1);
  float4 a = read_imagef(src, nearest, (int2)(x, y));
  float4 b = read_imagef(src, given, (float2)(x + 0.5f, y + 0.5f));
  write_imagef(dst, (int4)(x, y, 0, 0), a);
  write_imagef(dst, (int4)(x, y, 1, 0), b + (float4)(get_image_width(src)));
}
