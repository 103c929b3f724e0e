// Item 7: a work-queue push: each thread whose node is active reserves two
// consecutive slots with one atomicAdd on the tail and fills both; the
// reservations returned to different threads do not overlap.
struct Queue { unsigned tail; unsigned items[1 << 20]; };
__global__ void push_edges(const int *active, const unsigned *left, const unsigned *right, Queue *q, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && active[i]) {
        unsigned slot = atomicAdd(&q->tail, 2u);
        if (slot + 1 < (1u << 20)) {
            q->items[slot] = left[i];
            q->items[slot + 1] = right[i];
        }
    }
}
