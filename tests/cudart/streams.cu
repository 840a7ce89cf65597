// Streams, events, managed and pinned memory, async copies and host callbacks.
#include <string.h>
#include "check.h"

__global__ void scale_add(float *v, int n, float a, float b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = a * v[i] + b;
}

struct node {
    int value;
    node *next;  // a pointer stored in managed memory
};

__global__ void sum_list(const node *head, int *out) {
    int s = 0;
    for (const node *p = head; p; p = p->next) s += p->value;
    *out = s;
}

static int callbacks;
static void host_fn(void *arg) { callbacks += *(int *)arg; }

int main(int argc, char **argv) {
    const int n = 1000;
    int linked = argc > 1 && !strcmp(argv[1], "linked");

    // ---- streams and async copies through pinned memory ----
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    float *pinned, *d;
    CHECK(cudaMallocHost(&pinned, n * sizeof(float)));
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    for (int i = 0; i < n; i++) pinned[i] = (float)i;
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, s1));
    CHECK(cudaMemcpyAsync(d, pinned, n * sizeof(float), cudaMemcpyHostToDevice, s1));
    scale_add<<<(n + 255) / 256, 256, 0, s1>>>(d, n, 2.0f, 1.0f);
    CHECK(cudaMemcpyAsync(pinned, d, n * sizeof(float), cudaMemcpyDeviceToHost, s1));
    CHECK(cudaEventRecord(stop, s1));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaStreamSynchronize(s1));
    for (int i = 0; i < n; i++) EXPECT(pinned[i] == 2.0f * i + 1.0f);
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    EXPECT(ms >= 0);
    printf("pinned round trip ok: pinned[10] = %.1f\n", pinned[10]);
    fprintf(stderr, "event ms %.9f\n", ms);  // simulated time: checked against the statistics

    // a kernel writing pinned memory directly (zero-copy)
    float *mapped;
    CHECK(cudaHostGetDevicePointer((void **)&mapped, pinned, 0));
    scale_add<<<(n + 255) / 256, 256, 0, s2>>>(mapped, n, 1.0f, -1.0f);
    CHECK(cudaStreamSynchronize(s2));
    EXPECT(pinned[10] == 20.0f);
    printf("zero-copy ok: pinned[10] = %.1f\n", pinned[10]);

    // memset and cudaMemcpyDefault (direction from the pointers), host to host
    CHECK(cudaMemsetAsync(d, 0, n * sizeof(float), s2));
    CHECK(cudaMemcpy(pinned, d, n * sizeof(float), cudaMemcpyDefault));
    EXPECT(pinned[999] == 0.0f);
    float host_a[4] = {1, 2, 3, 4}, host_b[4];
    CHECK(cudaMemcpy(host_b, host_a, sizeof host_a, cudaMemcpyHostToHost));
    EXPECT(host_b[3] == 4.0f);

    // host work queued on a stream runs after everything before it
    int add = 5;
    CHECK(cudaLaunchHostFunc(s1, host_fn, &add));
    CHECK(cudaStreamSynchronize(s1));
    EXPECT(callbacks == 5);

    // ---- managed memory: the same pointer on both sides ----
    float *m;
    CHECK(cudaMallocManaged(&m, n * sizeof(float)));
    for (int i = 0; i < n; i++) m[i] = 1.0f;
    scale_add<<<(n + 255) / 256, 256>>>(m, n, 3.0f, 0.5f);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) EXPECT(m[i] == 3.5f);
    m[0] = 10.0f;  // host writes between launches reach the next kernel
    scale_add<<<1, 1>>>(m, 1, 2.0f, 0.0f);
    CHECK(cudaDeviceSynchronize());
    EXPECT(m[0] == 20.0f && m[1] == 3.5f);
    printf("managed ok: m[0] = %.1f, m[1] = %.1f\n", m[0], m[1]);

    // a linked list built by the host in managed memory, walked by the device
    if (linked) {
        node *nodes;
        int *sum;
        CHECK(cudaMallocManaged(&nodes, 10 * sizeof(node)));
        CHECK(cudaMallocManaged(&sum, sizeof(int)));
        for (int i = 0; i < 10; i++) nodes[i] = node{i + 1, i < 9 ? &nodes[i + 1] : nullptr};
        sum_list<<<1, 1>>>(nodes, sum);
        CHECK(cudaDeviceSynchronize());
        EXPECT(*sum == 55);
        printf("linked list ok: sum = %d\n", *sum);
        CHECK(cudaFree(nodes));
        CHECK(cudaFree(sum));
    }

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFree(m));
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(pinned));
    printf("PASS\n");
    return 0;
}
