/* Finding a section of a 64-bit ELF image, without trusting the image.
 *
 * Used by locsim-fatbin (the file on disk), by the runtime (to bound the fatbinary
 * that __cudaRegisterFatBinary points at by the extent of its .nv_fatbin section) and
 * by the fatbin fuzz target.  Every offset and size is checked against the image.
 */
#ifndef LOCSIM_CUDART_ELFSEC_H
#define LOCSIM_CUDART_ELFSEC_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t offset;     /* in the file */
    size_t size;       /* bytes in the file (never past its end) */
    uint64_t addr;     /* sh_addr: where the section lies once loaded (before relocation) */
} elf_section;

/* Find section `name` of the ELF image img (size bytes).  0 on success; -1 when the
 * image is not a well-formed 64-bit ELF or has no such section with file contents. */
int elf_find_section(const unsigned char *img, size_t size, const char *name, elf_section *out);

/* Call fn for every section of img with a well-formed name (NUL-terminated inside
 * the string table): its name, name length and sh_info field.  Stops at the first
 * non-zero return of fn and returns it; 0 after all; -1 when the image is not a
 * well-formed 64-bit ELF. */
typedef int (*elf_section_fn)(void *ctx, const char *name, size_t len, uint32_t sh_info);
int elf_each_section(const unsigned char *img, size_t size, elf_section_fn fn, void *ctx);

/* How many bytes are readable from p up to the end of the loaded object's section
 * that contains it (the .nv_fatbin of the program or a shared library), found through
 * dl_iterate_phdr and the object's file.  Falls back to the end of the loadable
 * segment holding p when the file's section headers cannot be read.  0 when p lies in
 * no loaded object. */
size_t elf_extent_of(const void *p);

#endif
