// expect: errors
// flags: --local_size=32 --num_groups=16
// A barrier does not complete an async copy: until the wait for its event,
// the copy may still be writing `tile` while the work-items read it.
#define T 32
kernel void k(global const int *__restrict in, global int *__restrict out) {
  local int tile[T];
  event_t e = async_work_group_copy(tile, in + T * get_group_id(0), T, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[T - 1 - get_local_id(0)];
  wait_group_events(1, &e);
}
