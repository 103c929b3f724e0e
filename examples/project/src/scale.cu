// Each thread scales its own element: no two threads touch the same one.
#include "tile.cuh"
#include "scale.cuh"

__global__ void scale(int *data, unsigned n) {
  unsigned i = global_index();
  if (i < n) {
    data[i] = data[i] * SCALE_FACTOR;
  }
}
