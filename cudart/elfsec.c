/* ELF section lookup: see elfsec.h. */
#include "elfsec.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The section header table of img, checked: NULL when malformed. */
static const unsigned char *section_table(const unsigned char *img, size_t size, Elf64_Ehdr *eh) {
    if (size < sizeof *eh || memcmp(img, ELFMAG, SELFMAG) != 0 || img[EI_CLASS] != ELFCLASS64) return NULL;
    memcpy(eh, img, sizeof *eh);
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > size ||
        (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum || eh->e_shnum == 0)
        return NULL;
    return img + eh->e_shoff;
}

static void read_shdr(const unsigned char *table, unsigned i, Elf64_Shdr *sh) {
    memcpy(sh, table + (size_t)i * sizeof *sh, sizeof *sh);
}

/* Fill out from sh when its contents lie inside the image. */
static int section_out(const Elf64_Shdr *sh, size_t size, elf_section *out) {
    if (sh->sh_type == SHT_NOBITS || sh->sh_offset > size || sh->sh_size > size - sh->sh_offset) return -1;
    out->offset = sh->sh_offset;
    out->size = sh->sh_size;
    out->addr = sh->sh_addr;
    return 0;
}

/* The section header table and the section-name string table of img, checked:
 * NULL when either is malformed. */
static const unsigned char *named_sections(const unsigned char *img, size_t size, Elf64_Ehdr *eh,
                                           Elf64_Shdr *strtab) {
    const unsigned char *table = section_table(img, size, eh);
    if (!table || eh->e_shstrndx >= eh->e_shnum) return NULL;
    read_shdr(table, eh->e_shstrndx, strtab);
    if (strtab->sh_offset > size || strtab->sh_size > size - strtab->sh_offset) return NULL;
    return table;
}

int elf_find_section(const unsigned char *img, size_t size, const char *name, elf_section *out) {
    Elf64_Ehdr eh;
    Elf64_Shdr strtab;
    const unsigned char *table = named_sections(img, size, &eh, &strtab);
    if (!table) return -1;
    size_t want = strlen(name);
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh;
        read_shdr(table, i, &sh);
        if (sh.sh_name >= strtab.sh_size) continue;
        const char *sname = (const char *)img + strtab.sh_offset + sh.sh_name;
        size_t maxlen = strtab.sh_size - sh.sh_name;
        if (strnlen(sname, maxlen) == want && memcmp(sname, name, want) == 0)
            return section_out(&sh, size, out);
    }
    return -1;
}

int elf_each_section(const unsigned char *img, size_t size, elf_section_fn fn, void *ctx) {
    Elf64_Ehdr eh;
    Elf64_Shdr strtab;
    const unsigned char *table = named_sections(img, size, &eh, &strtab);
    if (!table) return -1;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh;
        read_shdr(table, i, &sh);
        if (sh.sh_name >= strtab.sh_size) continue;
        const char *sname = (const char *)img + strtab.sh_offset + sh.sh_name;
        size_t len = strnlen(sname, strtab.sh_size - sh.sh_name);
        if (len == strtab.sh_size - sh.sh_name) continue;  /* name runs off the string table */
        int r = fn(ctx, sname, len, sh.sh_info);
        if (r) return r;
    }
    return 0;
}

/* Bytes from link-time address vaddr to the end of the allocated section of the ELF
 * file at path that holds it; 0 when unknown.  Reads only the headers. */
static uint64_t section_left_in_file(const char *path, uint64_t vaddr) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    Elf64_Ehdr eh;
    uint64_t left = 0;
    if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
        eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_shentsize == sizeof(Elf64_Shdr)) {
        for (unsigned i = 0; i < eh.e_shnum; i++) {
            Elf64_Shdr sh;
            if (pread(fd, &sh, sizeof sh, (off_t)(eh.e_shoff + (uint64_t)i * sizeof sh)) != (ssize_t)sizeof sh) break;
            if ((sh.sh_flags & SHF_ALLOC) && sh.sh_addr <= vaddr && vaddr - sh.sh_addr < sh.sh_size) {
                left = sh.sh_addr + sh.sh_size - vaddr;
                break;
            }
        }
    }
    close(fd);
    return left;
}

typedef struct {
    uintptr_t p;
    size_t extent;
} extent_query;

/* dl_iterate_phdr callback: when p lies in one of this object's loadable segments,
 * bound it by the section holding it (the file's headers), else by the segment. */
static int extent_cb(struct dl_phdr_info *info, size_t sz, void *data) {
    (void)sz;
    extent_query *q = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type != PT_LOAD || q->p < start || q->p - start >= ph->p_memsz) continue;
        q->extent = ph->p_memsz - (q->p - start);  /* at worst, the segment's end */
        const char *path = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : "/proc/self/exe";
        uint64_t left = section_left_in_file(path, q->p - info->dlpi_addr);
        if (left > 0 && left < q->extent) q->extent = (size_t)left;
        return 1;
    }
    return 0;
}

size_t elf_extent_of(const void *p) {
    extent_query q = {(uintptr_t)p, 0};
    dl_iterate_phdr(extent_cb, &q);
    return q.extent;
}
