// expect: verified
// Issue #16: no launch sizes given (symbolic blockDim/gridDim).
// 2-D indexing with a symbolic row length: thread (x, y) of the grid owns
// element y * width + x of the image.
__global__ void scale_rows(float *img, const float *rowScale, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    img[y * width + x] = img[y * width + x] * rowScale[y];
}
