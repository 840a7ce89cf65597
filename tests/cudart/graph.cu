// CUDA graphs (issue 33, item 3): captured from streams (with a fork and join
// through events) and built node by node, instantiated and launched several times.
// 256 ints per array; every value below is worked by hand.
#include "check.h"

__global__ void add(int *v, int k) { v[blockIdx.x * blockDim.x + threadIdx.x] += k; }
__global__ void scale(int *v, int k) { v[blockIdx.x * blockDim.x + threadIdx.x] *= k; }

static int host_calls = 0;
static void count_call(void *p) { ++*(int *)p; }

static int check_all(const char *what, const int *h, int want) {
    int bad = 0;
    for (int i = 0; i < 256; i++) bad |= h[i] != want;
    printf("%s: %d %s\n", what, h[0], bad ? "(not every element)" : "");
    return bad;
}

int main() {
    int *d, *d2, h[256];
    int bad = 0;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMalloc(&d2, sizeof h));
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));

    // 1. capture: memset to 0, +5, x k (k = 3 when captured), host call, copy out.
    CHECK(cudaMemset(d, 0, sizeof h));
    add<<<1, 256>>>(d, 100);  // outside the capture: d = 100
    int k = 3;
    cudaStreamCaptureStatus st;
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CHECK(cudaStreamIsCapturing(s1, &st));
    printf("capturing: %d\n", (int)st);
    CHECK(cudaMemsetAsync(d, 0, sizeof h, s1));
    add<<<2, 128, 0, s1>>>(d, 5);
    scale<<<2, 128, 0, s1>>>(d, k);
    CHECK(cudaLaunchHostFunc(s1, count_call, &host_calls));
    CHECK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s1));
    cudaGraph_t g;
    CHECK(cudaStreamEndCapture(s1, &g));
    k = 10;  // the captured launch keeps 3
    CHECK(cudaStreamIsCapturing(s1, &st));
    printf("capturing after the end: %d\n", (int)st);
    int peek[256];
    CHECK(cudaMemcpy(peek, d, sizeof peek, cudaMemcpyDeviceToHost));
    bad |= check_all("nothing ran during the capture", peek, 100);
    size_t n = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &n));
    printf("captured nodes: %zu\n", n);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    for (int r = 0; r < 3; r++) {
        memset(h, 0xff, sizeof h);
        CHECK(cudaGraphLaunch(x, s1));
        CHECK(cudaStreamSynchronize(s1));
        bad |= check_all("graph launch: (0 + 5) * 3", h, 15);
    }
    printf("host node calls: %d\n", host_calls);
    bad |= host_calls != 3;

    // 2. fork and join: s2 joins through an event, works on d2, s1 waits for it.
    cudaEvent_t fork, join;
    CHECK(cudaEventCreate(&fork));
    CHECK(cudaEventCreate(&join));
    CHECK(cudaMemset(d2, 0, sizeof h));
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    add<<<1, 256, 0, s1>>>(d, 1);
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    add<<<1, 256, 0, s2>>>(d2, 7);
    CHECK(cudaEventRecord(join, s2));
    CHECK(cudaStreamWaitEvent(s1, join, 0));
    add<<<1, 256, 0, s1>>>(d2, 1);
    cudaGraph_t g2;
    CHECK(cudaStreamEndCapture(s1, &g2));
    CHECK(cudaStreamIsCapturing(s2, &st));
    printf("second stream capturing after the end: %d\n", (int)st);
    cudaGraphExec_t x2;
    CHECK(cudaGraphInstantiate(&x2, g2, 0));
    CHECK(cudaGraphLaunch(x2, s1));
    CHECK(cudaGraphLaunch(x2, s1));
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    bad |= check_all("fork/join, d: 15 + 1 + 1", h, 17);
    CHECK(cudaMemcpy(h, d2, sizeof h, cudaMemcpyDeviceToHost));
    bad |= check_all("fork/join, d2: 2 x (7 + 1)", h, 16);

    // 3. built by hand: memset 4-byte 7 -> kernel +1 -> copy out
    cudaGraph_t g3;
    CHECK(cudaGraphCreate(&g3, 0));
    cudaGraphNode_t ms, kn, cp;
    cudaMemsetParams mp = {};
    mp.dst = d;
    mp.value = 7;
    mp.elementSize = 4;
    mp.width = 256;
    mp.height = 1;
    CHECK(cudaGraphAddMemsetNode(&ms, g3, nullptr, 0, &mp));
    int one = 1;
    void *args[] = {&d, &one};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)add;
    kp.gridDim = dim3(4);
    kp.blockDim = dim3(64);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&kn, g3, &ms, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&cp, g3, &kn, 1, h, d, sizeof h, cudaMemcpyDeviceToHost));
    cudaGraphExec_t x3;
    CHECK(cudaGraphInstantiate(&x3, g3, 0));
    memset(h, 0, sizeof h);
    CHECK(cudaGraphLaunch(x3, 0));
    bad |= check_all("built graph: 7 + 1", h, 8);

    // the legacy stream cannot capture; ending a capture never begun is an error
    cudaError_t e = cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);
    printf("capture on the legacy stream: %s\n", cudaGetErrorName(e));
    cudaGraph_t none;
    e = cudaStreamEndCapture(s2, &none);
    printf("end without begin: %s\n", cudaGetErrorName(e));
    cudaGetLastError();

    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphExecDestroy(x2));
    CHECK(cudaGraphExecDestroy(x3));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(g2));
    CHECK(cudaGraphDestroy(g3));
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad;
}
