// Item 9: an open-addressing hash table with linear probing: insert claims
// an empty slot with atomicCAS (or finds its key) and adds its count with
// atomicAdd; lookup probes until its key or an empty slot.
#define EMPTY 0u
__global__ void count_keys(const unsigned *keys, int n, unsigned *slots, unsigned *counts, unsigned cap) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || cap == 0)
        return;
    unsigned key = keys[i] | 1u;
    unsigned h = (key * 0x9e3779b1u) % cap;
    for (unsigned p = 0; p < cap; p++) {
        unsigned old = atomicCAS(&slots[h], EMPTY, key);
        if (old == EMPTY || old == key) {
            atomicAdd(&counts[h], 1u);
            return;
        }
        h = h + 1 == cap ? 0 : h + 1;
    }
}

__global__ void lookup_keys(const unsigned *keys, int n, const unsigned *slots, const unsigned *counts, unsigned cap, unsigned *found) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || cap == 0)
        return;
    unsigned key = keys[i] | 1u;
    unsigned h = (key * 0x9e3779b1u) % cap;
    unsigned result = 0;
    for (unsigned p = 0; p < cap; p++) {
        unsigned s = slots[h];
        if (s == key) {
            result = counts[h];
            break;
        }
        if (s == EMPTY)
            break;
        h = h + 1 == cap ? 0 : h + 1;
    }
    found[i] = result;
}
