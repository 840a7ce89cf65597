/* locsim-fatbin: list or extract the device code of an nvcc-built binary.
 *
 * This toolkit ships no cuobjdump, so this is how a user (and the tests) can see the
 * PTX that libcudart replacement will load:
 *   locsim-fatbin --list ./app     one line per fatbin entry
 *   locsim-fatbin ./app            the PTX the runtime would load, for each fatbin
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfsec.h"
#include "fatbin.h"

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) != NULL) {
            if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
                free(buf);
                buf = NULL;
            } else {
                *size = (size_t)n;
            }
        }
    }
    fclose(f);
    return buf;
}

static const char *kind_name(uint16_t kind) {
    return kind == FATBIN_KIND_PTX ? "ptx" : kind == FATBIN_KIND_CUBIN ? "cubin" : "other";
}

static int print_fatbin(const fatbin_info *fb, int index, int list) {
    if (list) {
        printf("fatbin %d: %d entries\n", index, fb->count);
        for (int i = 0; i < fb->count; i++) {
            const fatbin_entry *e = &fb->entries[i];
            printf("  %-5s sm_%u version %u.%u flags 0x%x size %llu%s\n", kind_name(e->kind), e->sm, e->ver_major,
                   e->ver_minor, e->flags, (unsigned long long)e->payload_size,
                   (e->flags & FATBIN_FLAG_ZSTD) ? " (zstd)" : "");
        }
        return 0;
    }
    int pick = fatbin_pick_ptx(fb);
    if (pick < 0) return 0;
    char err[256];
    size_t len;
    char *text = fatbin_ptx_text(&fb->entries[pick], &len, err, sizeof err);
    if (!text) {
        fprintf(stderr, "locsim-fatbin: fatbin %d: %s\n", index, err);
        return -1;
    }
    fwrite(text, 1, len, stdout);
    free(text);
    return 0;
}

/* Every fatbin of one section: they lie back to back, each 8-byte aligned. */
static int dump_section(const char *path, const unsigned char *sec, size_t len, int *index, int list) {
    size_t pos = 0;
    while (pos + 16 <= len) {
        fatbin_info fb;
        char err[256];
        if (fatbin_parse(sec + pos, len - pos, &fb, err, sizeof err) != 0) {
            fprintf(stderr, "locsim-fatbin: %s: fatbin at section offset %zu: %s\n", path, pos, err);
            return -1;
        }
        if (print_fatbin(&fb, (*index)++, list) != 0) return -1;
        pos += (fb.total_size + 7) & ~(uint64_t)7;
    }
    return 0;
}

int main(int argc, char **argv) {
    int list = argc == 3 && strcmp(argv[1], "--list") == 0;
    if (argc != 2 + list) {
        fprintf(stderr, "usage: locsim-fatbin [--list] BINARY\n");
        return 2;
    }
    const char *path = argv[1 + list];
    size_t size = 0;
    unsigned char *img = read_file(path, &size);
    if (!img) {
        fprintf(stderr, "locsim-fatbin: cannot read %s\n", path);
        return 1;
    }
    /* .nv_fatbin: what the runtime registers; __nv_relfatbin: the per-file fatbins of
     * relocatable device code (-rdc), combined by the device linker. */
    static const char *const sections[] = {".nv_fatbin", "__nv_relfatbin"};
    int status = 0, index = 0, found = 0;
    for (size_t s = 0; s < sizeof sections / sizeof *sections && status == 0; s++) {
        elf_section sec;
        if (elf_find_section(img, size, sections[s], &sec) != 0) continue;
        found = 1;
        if (list) printf("section %s\n", sections[s]);
        status = dump_section(path, img + sec.offset, sec.size, &index, list);
    }
    if (!found) {
        fprintf(stderr, "locsim-fatbin: %s: not a 64-bit ELF with a .nv_fatbin section\n", path);
        status = -1;
    }
    free(img);
    return status ? 1 : 0;
}
