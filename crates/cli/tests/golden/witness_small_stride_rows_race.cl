// expect: errors
// flags: --local_size=64 --num_groups=4096
// Each group writes its row of `stride` elements, one per work-item: when
// `stride` is smaller than the group, the rows overlap and work-items of
// neighbouring groups write one element with different values. The finder
// prefers a witness with small scalar arguments, which the replay confirms
// (its first model took `stride` past 2^31, where the index overflows).
__kernel void rows(__global int *out, int stride) {
    out[get_group_id(0) * stride + get_local_id(0)] = get_group_id(0);
}
