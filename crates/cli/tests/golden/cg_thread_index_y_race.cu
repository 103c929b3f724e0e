// expect: possible-errors
// The kernel takes its thread's coordinates from cooperative groups'
// thread_index(), y among them, so it is written for 2-D blocks (and is
// checked for them): each thread writes the column its x picks, and the
// threads of one column (different y) race. (Checked as 1-D, it would be
// verified.) Reads of y under
// thread_index() are the user's own, unlike those inside thread_rank().
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void column_fill(float *out, int width) {
  cg::thread_block block = cg::this_thread_block();
  dim3 t = block.thread_index();
  float v = (float)(t.x + t.y);
  out[blockIdx.x * width + t.x] = v;
}
