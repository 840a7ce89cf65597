/* embed SYMBOL INPUT OUTPUT.c: write INPUT's bytes as a C array named SYMBOL
 * (NUL-terminated) plus SYMBOL_len, so the committed kernel.ptx files are built
 * into the locsim binary and nothing is read from disk at run time. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: embed SYMBOL INPUT OUTPUT.c\n");
        return 2;
    }
    FILE *in = fopen(argv[2], "rb");
    if (!in) { perror(argv[2]); return 1; }
    FILE *out = fopen(argv[3], "w");
    if (!out) { perror(argv[3]); fclose(in); return 1; }
    fprintf(out, "#include <stddef.h>\nconst char %s[] = {\n", argv[1]);
    size_t n = 0;
    int c;
    while ((c = fgetc(in)) != EOF) {
        fprintf(out, "%d,%s", c, (++n % 24) ? "" : "\n");
    }
    fprintf(out, "0};\nconst size_t %s_len = %zu;\n", argv[1], n);
    fclose(in);
    if (fclose(out) != 0) { perror(argv[3]); return 1; }
    return 0;
}
