// __grid_constant__ struct parameter: its address is taken (mov of the param symbol) and
// read through a register (ld.param [%rd]).
struct P { int a[16]; };
__device__ int use(const int *p, int i) { return p[i]; }
extern "C" __global__ void kgc(const __grid_constant__ P p, int i, int *out) { out[threadIdx.x] = use(&p.a[0], (i + threadIdx.x) & 15); }
