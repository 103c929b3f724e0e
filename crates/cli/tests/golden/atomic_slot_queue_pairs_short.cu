// expect: errors
// flags: --blockDim=256 --gridDim=1024
// Issue #16 item 7, bug: each thread reserves one slot but fills two, so its second
// write lands on the next thread's first.
struct Queue { unsigned tail; unsigned items[1 << 20]; };
__global__ void push_edges(const int *active, const unsigned *left, const unsigned *right, Queue *q, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && active[i]) {
        unsigned slot = atomicAdd(&q->tail, 1u);
        if (slot + 1 < (1u << 20)) {
            q->items[slot] = left[i];
            q->items[slot + 1] = right[i];
        }
    }
}
