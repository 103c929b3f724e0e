// Every thread records that the kernel ran by writing its own id to one
// flag: a race whose outcome the host does not care about (it only tests
// that the flag is set), which the project accepts in a suppression with
// its reason.
__global__ void mark_done(unsigned *done) {
  // lockstep: allow(data-race) the host only tests that the flag is non-zero; which thread wins does not matter
  *done = threadIdx.x + 1;
}
