// OpenCL async copies: a copy stays in flight from its call until the first
// barrier after the wait for its event.
#define N 64

// Waited for (through a copy of the event), then a barrier: no race.
kernel void waited(global float *p) {
  local float a[N];
  event_t e = async_work_group_copy(a, p + N * get_group_id(0), N, 0);
  event_t f = e;
  wait_group_events(1, &f);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  p[get_global_id(0)] = a[get_local_id(0)];
}

// A barrier between the copy and its wait: the copy is still in flight
// during the second barrier interval, but nothing touches `a` there.
kernel void barrier_before_wait(global float *p, global float *q) {
  local float a[N];
  event_t e = async_work_group_copy(a, p + N * get_group_id(0), N, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  q[get_global_id(0)] = 1.0f;
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  q[get_global_id(0)] = a[get_local_id(0)];
}

// Reads `a` after a barrier but before the wait: races with the copy.
kernel void read_before_wait(global float *p, global float *q) {
  local float a[N];
  event_t e = async_work_group_copy(a, p + N * get_group_id(0), N, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  q[get_global_id(0)] = a[get_local_id(0)];
  wait_group_events(1, &e);
}

// Two copies, one handle overwritten: the first copy is never waited for.
kernel void overwritten_handle(global float *__restrict p, global float *__restrict q) {
  local float a[N];
  local float b[N];
  event_t h = async_work_group_copy(a, p + N * get_group_id(0), N, 0);
  h = async_work_group_copy(b, q + N * get_group_id(0), N, 0);
  wait_group_events(1, &h);
  barrier(CLK_LOCAL_MEM_FENCE);
  q[get_global_id(0)] = a[get_local_id(0)];
}

// A copy joining another's event is completed by the wait for it.
kernel void joined(global float *__restrict p, global float *__restrict q) {
  local float a[N];
  local float b[N];
  event_t h = async_work_group_copy(a, p + N * get_group_id(0), N, 0);
  async_work_group_copy(b, q + N * get_group_id(0), N, h);
  wait_group_events(1, &h);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  p[get_global_id(0)] = a[get_local_id(0)] + b[get_local_id(0)];
}

// A copy and its wait in every iteration of a loop.
kernel void in_loop(global float *p, global float *q, int n) {
  local float a[N];
  for (int i = 0; i < n; i++) {
    event_t e = async_work_group_copy(a, p + N * (get_group_id(0) + i * get_num_groups(0)), N, 0);
    wait_group_events(1, &e);
    barrier(CLK_LOCAL_MEM_FENCE);
    q[get_global_id(0)] += a[get_local_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// Local to global: each group's copy writes a range of `p` no other group
// touches, and races with nothing.
kernel void write_back(global float *p) {
  local float a[N];
  a[get_local_id(0)] = get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(p + N * get_group_id(0), a, N, 0);
  wait_group_events(1, &e);
}

// Every group copies to the same range of `p`: an inter-group race.
kernel void write_back_same_range(global float *p) {
  local float a[N];
  a[get_local_id(0)] = get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(p, a, N, 0);
  wait_group_events(1, &e);
}

// The source differs between the work-items of a group.
kernel void non_uniform_source(global float *p) {
  local float a[N];
  event_t e = async_work_group_copy(a, p + get_local_id(0), N, 0);
  wait_group_events(1, &e);
}

// Which event is waited for depends on the work-item: not traced.
kernel void non_uniform_wait(global float *__restrict p, global float *__restrict q) {
  local float a[N];
  local float b[N];
  event_t ea = async_work_group_copy(a, p + N * get_group_id(0), N, 0);
  event_t eb = async_work_group_copy(b, q + N * get_group_id(0), N, 0);
  event_t *which = &ea;
  if (get_local_id(0) > 13)
    which = &eb;
  wait_group_events(1, which);
}

// The event comes back from a helper (a block parameter once inlined).
event_t stage(local float *a, global float *p) {
  return async_work_group_copy(a, p + N * get_group_id(0), N, 0);
}
kernel void through_helper(global float *p) {
  local float a[N];
  event_t e = stage(a, p);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  p[get_global_id(0)] = a[get_local_id(0)];
}

// Waited for on one path only: the copy may be in flight after the branch.
kernel void waited_on_one_path(global float *p, global float *q, int c) {
  local float a[N];
  event_t e = async_work_group_copy(a, p + N * get_group_id(0), N, 0);
  if (c)
    wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  q[get_global_id(0)] = a[get_local_id(0)];
}
