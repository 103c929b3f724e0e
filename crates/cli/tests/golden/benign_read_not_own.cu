// expect: errors
// flags: --blockDim=64 --gridDim=1
// Every thread but thread 0 writes 1 to flag[0]; every thread then reads
// it. The writes of one value are benign among themselves, and so are the
// writers' reads of what they wrote, but thread 0 never wrote flag[0]: its
// read returns 0 or 1 depending on the interleaving, a real read-write race.

__global__ void announce(int *flag, int *out) {
  if (threadIdx.x != 0)
    flag[0] = 1;
  out[threadIdx.x] = flag[0];
}
