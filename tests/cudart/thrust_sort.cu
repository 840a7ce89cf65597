// thrust::sort (CUB's onesweep radix sort: bmsk, per-kernel shared memory, occupancy
// queries) must run unmodified: an ordinary library-heavy CUDA program.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <cstdio>
int main() {
    thrust::host_vector<unsigned> h(5000);
    unsigned s = 12345;
    for (size_t i = 0; i < h.size(); i++) { s = s * 1103515245u + 12345u; h[i] = s >> 8; }
    thrust::device_vector<unsigned> d = h;
    thrust::sort(d.begin(), d.end());
    thrust::host_vector<unsigned> r = d;
    for (size_t i = 1; i < r.size(); i++) if (r[i-1] > r[i]) { printf("FAIL at %zu\n", i); return 1; }
    printf("PASS sorted %zu\n", r.size());
    return 0;
}
