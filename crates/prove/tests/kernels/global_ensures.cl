// A callee's global postcondition is checked at its return, for both
// threads whether they called it or not.
void no_reads(__local int *A) {
  __global_requires(!__read(A));
  __global_ensures(!__read(A));
}
__kernel void holds(__local int *A) {
  if ((get_local_id(0) % 2) == 0) {
    no_reads(A);
  }
}
// An odd thread (the other thread of the pair) has read `A` when an even
// one returns from the call.
void no_reads_checked_at_return(__local int *A) {
  __requires(!__read(A));
  __global_ensures(!__read(A));
}
__kernel void fails(__local int *A) {
  if ((get_local_id(0) % 2) != 0) {
    A[get_local_id(0)] = A[get_local_id(0) + 1];
  }
  if ((get_local_id(0) % 2) == 0) {
    no_reads_checked_at_return(A);
  }
}
