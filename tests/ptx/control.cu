// Control flow shapes: nested divergence, loops with break/continue, early return, switch, goto-like exits.
extern "C" __global__ void control(const int *in, int *out, int n)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    if (t >= n) return;
    int v = in[t], acc = 0;
    for (int i = 0; i < v; i++) {
        if (i & 1) { if (i % 3 == 0) continue; acc += i; }
        else acc -= i;
        if (acc > 1000) break;
    }
    switch (v & 7) {
    case 0: acc += 5; break;
    case 1: acc *= 3; break;
    case 2: acc ^= 0x55; break;
    case 3: acc -= 7; break;
    case 5: acc <<= 2; break;
    default: acc = -acc;
    }
    while (acc > 10) { acc /= 2; if (acc == 17) return; }
    if (acc < -100) __trap();
    out[t] = acc;
}
