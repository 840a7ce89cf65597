/* libFuzzer target: the fatbinary reader on arbitrary bytes.
 *
 * The runtime reads the device code nvcc embeds in a program (the .nv_fatbin
 * section: fatbins back to back, each a header and entries of PTX text, zstd frames
 * or cubins).  A corrupted binary must get a message, never a crash: every read is
 * bounded by the section's size (cudart/fatbin.h).  An input is either a whole ELF
 * image (its .nv_fatbin section is found with elf_find_section, as locsim-fatbin
 * does) or the contents of a section; the seeds (fuzz/corpus-fatbin) are the
 * sections of real nvcc 13 binaries.  Each fatbin is parsed, its PTX entry picked and
 * decompressed, exactly as cudart/register.c does before main().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elfsec.h"
#include "fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What register.c does with one fatbin; 0 when it loads, -1 with a message. */
static int read_one(const uint8_t *p, size_t avail, uint64_t *used) {
    fatbin_info info;
    char err[512] = "";
    if (fatbin_parse(p, avail, &info, err, sizeof err) != 0) {
        if (!err[0]) abort();  /* a failure must say why */
        return -1;
    }
    if (info.total_size > avail) abort();  /* the parser claimed bytes it was not given */
    *used = info.total_size;
    int pick = fatbin_pick_ptx(&info);
    if (pick < 0) return 0;
    size_t len = 0;
    char *text = fatbin_ptx_text(&info.entries[pick], &len, err, sizeof err);
    if (!text) {
        if (!err[0]) abort();
        return -1;
    }
    if (strlen(text) != len) abort();
    free(text);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *sec = data;
    size_t len = size;
    elf_section s;
    if (size >= 4 && memcmp(data, "\x7f" "ELF", 4) == 0) {
        if (elf_find_section(data, size, ".nv_fatbin", &s) != 0) return 0;
        if (s.offset > size || s.size > size - s.offset) abort();
        sec = data + s.offset;
        len = s.size;
    }
    /* Fatbins lie back to back, each 8-byte aligned (locsim-fatbin's walk). */
    size_t pos = 0;
    while (pos + 16 <= len) {
        uint64_t used = 0;
        if (read_one(sec + pos, len - pos, &used) != 0) break;
        uint64_t step = (used + 7) & ~(uint64_t)7;
        if (step == 0 || step > len - pos) break;
        pos += (size_t)step;
    }
    return 0;
}
