// expect: verified
// flags: --local_size=32 --num_groups=16
// Stages a tile in local memory with an async copy that stays in flight
// across an unrelated barrier, waits for it, and only after a barrier reads
// it; then writes the tile back with a second copy, whose range in `out`
// belongs to this group alone.
#define T 32
kernel void k(global const int *__restrict in, global int *__restrict out, global int *__restrict flags) {
  local int tile[T];
  local int seen[T];
  event_t e = async_work_group_copy(tile, in + T * get_group_id(0), T, 0);
  seen[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  flags[get_global_id(0)] = seen[(get_local_id(0) + 1) % T];
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[get_local_id(0)] = 2 * tile[get_local_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t back[1];
  back[0] = async_work_group_copy(out + T * get_group_id(0), tile, T, 0);
  wait_group_events(1, back);
}
