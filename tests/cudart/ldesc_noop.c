/* The CUDA header's real-GPU path (tests/e2e/cudart_ldesc.sh): linked without
 * locsim's libcudart, every call is a no-op that succeeds.  Prints what it saw. */
#include <stdio.h>

#include "locsim_ldesc.h"

int main(void) {
    int buf[16] = {0};
    locsim_ldesc d = locsimLdescMake(buf, sizeof buf, LOCSIM_LDESC_INTER_THREAD, sizeof(int));
    d.data_tile.x = 0;   /* invalid on locsim, ignored without it */
    int id = 5;
    int a = locsimLdescAttach(&d, &id);
    int b = locsimLdescDetach(3);
    int c = locsimLdescClear();
    printf("active=%d attach=%d id=%d detach=%d clear=%d\n", locsimLdescActive(), a, id, b, c);
    return 0;
}
