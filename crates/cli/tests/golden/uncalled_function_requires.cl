// expect: verified
// flags: --local_size=64 --num_groups=4 --no-inline
// A function no kernel calls is checked for every caller its preconditions
// allow: the assertion holds because of `__requires`, and reads do not race.
int average(__global const int *in, int n) {
  __requires(n > 0);
  int sum = 0;
  for (int i = 0; i < n; i++) {
    sum += in[i];
  }
  __assert(n != 0);
  return sum / n;
}

__kernel void empty() {}
