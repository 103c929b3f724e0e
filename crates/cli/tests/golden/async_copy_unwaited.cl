// expect: errors
// flags: --local_size=64 --num_groups=128
// Waits for the first of two async copies only: the second one may still be
// writing `my_q` when the work-items read it.
#define N 64
kernel void k(global float *__restrict p, global float *__restrict q) {
  local float my_p[N];
  local float my_q[N];
  event_t handles[2];
  handles[0] = async_work_group_copy(my_p, p + N * get_group_id(0), N, 0);
  handles[1] = async_work_group_copy(my_q, q + N * get_group_id(0), N, 0);
  wait_group_events(1, handles);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  p[get_global_id(0)] = my_p[get_local_id(0)] + my_q[get_local_id(0)];
}
